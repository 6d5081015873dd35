package batch

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/beside"
	"github.com/mdxrender/mdxrender/internal/modeltex"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// DefaultRenderer is the Renderer that draws models with the library
// (pkg/render, with the texture sources of the front door), as mdxrender
// batch, check and sheet do. Decoded textures are shared by all models of
// the batch, and each texture source (a folder, a map, an MPQ, game data)
// is opened once; Close closes them after the batch.
type DefaultRenderer struct {
	cache *texture.Cache
	// bandWorkers is View.Workers: 1 when models render in parallel (the
	// pool already fills the CPUs), 0 (all CPUs) when one model renders at
	// a time.
	bandWorkers int

	mu      sync.Mutex
	sources map[string]*jobSources // by the job's roots and game data
	// locals are the places each folder's models look in for their own
	// textures, by folder and top: found once per folder, so that a
	// folder of ten thousand models opens its root and looks for its map
	// once, not once per model.
	locals map[[2]string][]texture.Source

	// listings are the folder listings of every model's texture lookups:
	// each folder is listed once per batch.
	listings texture.Listings

	// fbs lends every model's Animator its framebuffer.
	fbs render.Framebuffers
}

// jobSources are a job's texture roots and game data, opened.
type jobSources struct{ roots, game *mdxrender.Sources }

// NewRenderer returns a DefaultRenderer whose decoded textures take at
// most cacheBytes (0: the texture package's default); jobs is the number
// of models the batch renders at once, which decides how many raster bands
// one model draws at once (it never changes the pictures).
func NewRenderer(cacheBytes int64, jobs int) *DefaultRenderer {
	r := &DefaultRenderer{cache: texture.NewCache(cacheBytes), bandWorkers: 1, sources: map[string]*jobSources{},
		locals: map[[2]string][]texture.Source{}}
	if jobs == 1 {
		r.bandWorkers = 0
	}
	return r
}

// Close closes the archives opened as texture sources.
func (r *DefaultRenderer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, s := range r.sources {
		errs = append(errs, s.roots.Close(), s.game.Close())
	}
	r.sources = map[string]*jobSources{}
	return errors.Join(errs...)
}

// jobSources returns the texture sources of a job's roots and of its game
// data, opening them the first time a job names them.
func (r *DefaultRenderer) jobSources(job *Job) (roots, game []texture.Source, err error) {
	key := strings.Join(job.TextureRoots, "\x00") + "\x01" + job.GameData
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sources[key]; ok {
		return s.roots.List, s.game.List, nil
	}
	s := &jobSources{game: &mdxrender.Sources{}}
	if s.roots, err = mdxrender.OpenSources(job.TextureRoots...); err != nil {
		return nil, nil, err
	}
	if job.GameData != "" {
		if s.game, err = mdxrender.OpenGameData(job.GameData); err != nil {
			s.roots.Close()
			return nil, nil, err
		}
	}
	r.sources[key] = s
	return s.roots.List, s.game.List, nil
}

// local returns the places the models of folder dir, found below top,
// look in for their own textures (modeltex.Local), the same Sources for
// every model of the folder.
func (r *DefaultRenderer) local(dir, top string) []texture.Source {
	key := [2]string{dir, top}
	r.mu.Lock()
	l, ok := r.locals[key]
	r.mu.Unlock()
	if ok {
		return l
	}
	l = modeltex.Local(dir, top)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.locals[key]; ok {
		return old
	}
	r.locals[key] = l
	return l
}

// searchedFolders gathers the folders one model's texture lookups read.
type searchedFolders struct {
	mu    sync.Mutex
	seen  map[string]bool // by File.String
	files []texture.File
}

func (s *searchedFolders) add(src texture.Source, dir string) {
	f := texture.File{Source: src, Name: dir}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if k := f.String(); !s.seen[k] {
		s.seen[k] = true
		s.files = append(s.files, f)
	}
}

func (s *searchedFolders) list() []texture.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files
}

// libraryModel is a model the DefaultRenderer opened.
type libraryModel struct {
	r    *DefaultRenderer
	file *model.File
	name string
	tex  render.Textures
	// meter is the model's one budget, which the batch read its file
	// with: every output of it (a still, a sheet, previews, in each view
	// and team colour) is charged to it, not to a fork of it.
	meter *budget.Meter
	info  ModelInfo
}

// Open decodes a model the batch read and finds its textures: in the
// job's texture roots, its folder (or its folder inside an archive), its
// map's root, then the game data.
func (r *DefaultRenderer) Open(ctx context.Context, job *Job, data []byte, meter *budget.Meter) (Model, error) {
	in := job.Input
	f, err := decodeContext(ctx, func() (*model.File, error) {
		return model.Load(data, in.Path, meter.Limits())
	})
	if err != nil {
		return nil, err
	}
	var local []texture.Source
	if in.FS != nil {
		// Path is "tree:name"; the tree's part names its sources
		local = modeltex.LocalFS(strings.TrimSuffix(in.Path, ":"+in.Name), in.FS, in.Name)
	} else {
		local = r.local(filepath.Dir(in.Path), in.Top)
	}
	if job.NoMapRoot {
		local = local[:1]
	}
	roots, game, err := r.jobSources(job)
	if err != nil {
		return nil, err
	}
	lm := &libraryModel{r: r, file: f, name: in.Path, tex: modeltex.Textures(local, roots, game, r.cache, job.Limits), meter: meter}
	var searched searchedFolders
	lm.tex.Resolver.Listings = &r.listings
	lm.tex.Resolver.Listed = searched.add
	for _, s := range f.Model.Sequences {
		lm.info.Sequences = append(lm.info.Sequences, SequenceInfo{
			Name: s.Name, Start: s.Interval[0], End: s.Interval[1], Looping: !s.NonLooping(),
		})
	}
	// The files the pictures read are part of the cache key.
	teams := make([]texture.Team, len(job.Teams))
	for i, t := range job.Teams {
		teams[i] = t.Color
	}
	lm.info.Dependencies = render.Dependencies(f.Model, lm.tex, teams, meter.Fork())
	lm.info.Dependencies = append(lm.info.Dependencies, lm.iconDependencies(job)...)
	lm.info.Searched = searched.list()
	return lm, nil
}

// decodeContext runs decode, which the budgets bound to a second or two
// but which does not watch a context, and stops waiting for it when ctx
// ends (a deadline, or a batch cancelled by a signal); the abandoned
// decode finishes on its own.
func decodeContext(ctx context.Context, decode func() (*model.File, error)) (*model.File, error) {
	type decoded struct {
		f   *model.File
		err error
	}
	d := beside.Run(ctx, func() decoded {
		f, err := decode()
		return decoded{f, err}
	})
	if d == nil {
		return nil, ctx.Err()
	}
	return d.f, d.err
}

func (lm *libraryModel) Info() ModelInfo { return lm.info }

// Render draws the frames of req with one camera (as
// mdxrender.Model.RenderFrames does), so a sheet or an animation does not
// jump and nothing leaves the picture, and says where the model's origin
// lands in each.
func (lm *libraryModel) Render(ctx context.Context, req Request) ([]render.Picture, []Warning, error) {
	v := req.View
	v.Workers = lm.r.bandWorkers
	a := render.NewAnimator(lm.file.Model, lm.name, lm.tex)
	a.Meter = lm.meter
	a.Framebuffers = &lm.r.fbs
	return a.RenderPictures(ctx, v, req.Frames)
}
