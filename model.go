package mdxrender

import (
	"context"
	"fmt"
	"image"
	"io/fs"
	"path/filepath"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Options say where a model's textures come from and how much reading and
// drawing it may cost. The zero Options (or nil) looks in the model's own
// folder only, as the command line does without --textures, within the
// default Limits.
type Options struct {
	// Textures are searched, in order, before the model's own folder and
	// map (texture.Resolver's order, the command line's too: a reskin in
	// a texture folder wins over the file beside the model): folders of
	// textures (see Folder), maps, archives (OpenSources).
	Textures []texture.Source
	// GameData is searched last, after the model's folder and map: the
	// game's own files (OpenGameData), which a model's own replace.
	GameData []texture.Source
	// Cache shares decoded textures between models; nil gives each Model a
	// private cache. (A decoded texture is cached whatever budgets it was
	// decoded within.)
	Cache *texture.Cache
	// NoMapRoot looks for a model's textures in its own folder only, not
	// also at the root of the map it is part of: the game looks there, the
	// reference viewer's harness does not, and comparisons with its
	// pictures need its rule.
	NoMapRoot bool
	// Limits bound reading the file, decoding it and its textures, and
	// every picture of it; the zero Limits is DefaultLimits(). A program
	// that renders files from strangers keeps them, or lowers them.
	Limits Limits
}

// Limits is the resource budget of one model: file size, geometry,
// texture decoding, particles, picture size and overdraw. Every zero field
// means its default. See render.Limits and docs/hostile-input.md.
type Limits = render.Limits

// DefaultLimits returns the Limits the zero Limits stands for.
func DefaultLimits() Limits { return render.DefaultLimits() }

// BudgetError reports a picture refused because it would take more than a
// budget of Limits allows (a size over MaxRenderPixels).
type BudgetError = render.BudgetError

// Folder is the texture source of a folder on disk. No symbolic link in it
// leads reads outside it.
func Folder(dir string) texture.Source { return texture.Folder(dir) }

// Model is a decoded model and the place it was read from, whose folder is
// searched for its textures. Its methods may be called from several
// goroutines at once, as long as nobody changes the model meanwhile.
// Close it when it was opened from inside an archive.
type Model struct {
	// Model holds everything the file says, as plain Go values.
	*mdx.Model
	// Name is the model's path, which messages name it by.
	Name string
	// Format is the file's format, told from its content.
	Format  Format
	tex     render.Textures
	limits  Limits
	archive *mpq.Archive // opened by Open for a path inside an archive
}

// Format is a model file format.
type Format = model.Format

// The model formats Open reads, told apart by content, never by name.
const (
	FormatMDX = model.FormatMDX // binary MDX (Warcraft III, or early WoW)
	FormatMDL = model.FormatMDL // MDL text
	FormatM2  = model.FormatM2  // World of Warcraft M2, versions 256–263
)

// Open reads the model file at path (MDX, MDL or M2). A path of the form
// "maps/Hero.w3x:war3mapImported/Hero.mdx" names a file inside an archive
// (a packed map or an MPQ); the Model then keeps the archive open until
// Close. A file that is not a regular file (a folder, a FIFO, a device),
// or that is larger than o.Limits.MaxFileSize, is refused before it is
// read; a model over the geometry budgets fails while it is decoded.
// Errors name the file.
//
// Textures are looked for in o.Textures first, then in the model's folder,
// then, for a model that is part of a map (a packed one, or a folder named
// .w3x/.w3m or holding war3map.w3i), in the map's root, as the game does;
// then in o.GameData.
func Open(path string, o *Options) (*Model, error) {
	ld := loader(o)
	if arch, inner, ok := archivepath.Split(path); ok {
		a, err := mpq.Open(arch, budget.Limits{})
		if err != nil {
			return nil, err
		}
		f, err := ld.LoadFS(a, inner)
		if err != nil {
			a.Close()
			return nil, fmt.Errorf("%s: %w", arch, err)
		}
		m := newModel(f, path, fsLocal(arch, a, inner), o)
		m.archive = a
		return m, nil
	}
	f, err := ld.LoadFile(path)
	if err != nil {
		return nil, err
	}
	return newModel(f, path, localSources(filepath.Dir(path)), o), nil
}

// loader is the model loader within o's limits.
func loader(o *Options) model.Loader {
	var l Limits
	if o != nil {
		l = o.Limits
	}
	return model.Loader{Quotas: l.Quotas()}
}

// OpenFS reads the model file name inside fsys, which may be a folder
// (os.DirFS), an archive (*mpq.Archive) or anything else; its textures are
// looked for in Options.Textures first, then beside it in fsys (and then at
// an archive's root), then in Options.GameData. Errors name the file as
// name.
func OpenFS(fsys fs.FS, name string, o *Options) (*Model, error) {
	f, err := loader(o).LoadFS(fsys, name)
	if err != nil {
		return nil, err
	}
	src := "" // a file system has no name of its own; an archive has
	if a, ok := fsys.(*mpq.Archive); ok {
		src = a.Name()
	}
	return newModel(f, name, fsLocal(src, fsys, name), o), nil
}

// Close closes the archive Open read the model from, if any; the Model
// cannot find textures in it afterwards.
func (m *Model) Close() error {
	if m.archive == nil {
		return nil
	}
	err := m.archive.Close()
	m.archive = nil
	return err
}

func newModel(f *model.File, name string, local []texture.Source, o *Options) *Model {
	if o == nil {
		o = &Options{}
	}
	cache := o.Cache
	if cache == nil {
		cache = texture.NewCache(0)
	}
	if o.NoMapRoot {
		local = local[:1]
	}
	res := &texture.Resolver{Sources: o.Textures, Fallback: o.GameData, Cache: cache, Options: o.Limits.TextureOptions()}
	return &Model{Model: f.Model, Name: name, Format: f.Format, tex: render.Textures{Local: local, Resolver: res}, limits: o.Limits}
}

// Render draws a still of the model as v says; the zero View draws what
// mdxrender render draws with no flags. Warnings say what it went on
// without (a missing texture, a blank picture); an error means no picture.
func (m *Model) Render(v View) (*image.NRGBA, []Warning, error) {
	return m.RenderContext(context.Background(), v)
}

// RenderContext is Render stopped, with ctx's error, when ctx is done
// (cancelled, or past its deadline): within milliseconds, whether it is
// simulating particles, loading textures or drawing.
func (m *Model) RenderContext(ctx context.Context, v View) (*image.NRGBA, []Warning, error) {
	return m.animator().RenderContext(ctx, v)
}

// RenderFrames draws a run of frames (a sprite sheet's cells, an
// animation) with one camera that keeps every frame in the picture. The
// particle simulation runs once through the frames, which should be in
// time order per sequence and yaw. v's Yaw, Sequence and Time are taken
// from each frame.
func (m *Model) RenderFrames(ctx context.Context, v View, frames []Frame) ([]*image.NRGBA, []Warning, error) {
	return m.animator().RenderFrames(ctx, v, frames)
}

// Dependencies lists the files other than the model that its pictures in
// the given teams' colours read: textures and spawned models.
func (m *Model) Dependencies(teams []Team) []texture.File {
	return render.Dependencies(m.Model, m.tex, teams)
}

func (m *Model) animator() *render.Animator {
	a := render.NewAnimator(m.Model, m.Name, m.tex)
	a.Limits = m.limits
	a.Framebuffers = &framebuffers
	return a
}

// framebuffers lends every Model's pictures their framebuffers, so that a
// program rendering model after model reuses a few buffers instead of
// allocating and zeroing one per picture; it keeps at most 64 MiB idle.
var framebuffers render.Framebuffers

// LoadFile reads and decodes the model file at path — on disk, or inside
// an archive as "map.w3x:path/inside" — with what the format's decoder
// knows beyond the model (an M2's own structure), without looking for
// textures. Errors name the file.
func LoadFile(path string) (*model.File, error) { return LoadFileLimits(path, Limits{}) }

// LoadFileLimits is LoadFile within l's file size and geometry budgets.
func LoadFileLimits(path string, l Limits) (*model.File, error) {
	ld := model.Loader{Quotas: l.Quotas()}
	arch, inner, ok := archivepath.Split(path)
	if !ok {
		return ld.LoadFile(path)
	}
	a, err := mpq.Open(arch, budget.Limits{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	f, err := ld.LoadFS(a, inner)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arch, err)
	}
	return f, nil
}
