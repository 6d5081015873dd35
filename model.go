package mdxrender

import (
	"context"
	"image"
	"io/fs"
	"path/filepath"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/internal/bufpool"
	"github.com/mdxrender/mdxrender/internal/fsread"
	"github.com/mdxrender/mdxrender/internal/modeltex"
	"github.com/mdxrender/mdxrender/pkg/budget"
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
	// textures (texture.Folder), maps, archives (OpenSources).
	Textures []texture.Source
	// GameData is searched last, after the model's folder and map: the
	// game's own files (OpenGameData), which a model's own replace.
	GameData []texture.Source
	// Cache shares decoded textures between models; nil gives each Model a
	// private cache. (A decoded texture is cached whatever budgets it was
	// decoded within.)
	Cache *texture.Cache
	// Within is the folder the model was given in (a repository's
	// checkout, an upload's folder): the map a model on disk is part of
	// (a folder holding war3map.w3i) is looked for from the model's
	// folder up to Within, never above it, so that nothing outside what
	// the caller named is read. "" looks in the model's own folder, and
	// in the folders the model's path itself names .w3x or .w3m
	// ("maps/Hero.w3x/war3mapImported/Hero.mdx"), known by name alone.
	Within string
	// NoMapRoot looks for a model's textures in its own folder only, not
	// also at the root of the map it is part of: the game looks there, the
	// reference viewer's harness does not, and comparisons with its
	// pictures need its rule.
	NoMapRoot bool
	// Limits bound reading the file, decoding it and its textures, and
	// every picture of it; the zero Limits is budget.DefaultLimits(). A program
	// that renders files from strangers keeps them, or lowers them.
	Limits Limits
}

// Limits is the budget of one model: what reading its files, decoding
// them and its textures, simulating its emitters and drawing a picture of
// it may cost. Every zero field means its default. Anything refused for
// its cost fails with a *budget.Error naming the file, the limit and the
// value. See pkg/budget and docs/hostile-input.md.
type Limits = budget.Limits

// Model is a decoded model and the place it was read from, whose folder is
// searched for its textures. Its methods may be called from several
// goroutines at once, as long as nobody changes the model meanwhile.
// Close it when it was opened from inside an archive.
type Model struct {
	// File is the model file as decoded: everything it says as plain Go
	// values (File.Model), its format, told from its content, and for an
	// M2 what its decoder knows beyond the model.
	File *model.File
	// Name is the model's path, which messages name it by.
	Name string
	tex  render.Textures
	// meter holds what reading the file cost; every picture call starts
	// from a fork of it, so that the file counts towards each picture's
	// budget and no picture's towards the next.
	meter   *budget.Meter
	archive *mpq.Archive // opened by Open for a path inside an archive
	// oneMeter charges the icons to meter itself (ModelOf).
	oneMeter bool
}

// Open reads the model file at path (MDX, MDL or M2). A path of the form
// "maps/Hero.w3x:war3mapImported/Hero.mdx" names a file inside an archive
// (a packed map or an MPQ); the Model then keeps the archive open until
// Close. A file that is not a regular file (a folder, a FIFO, a device),
// or that is larger than o.Limits allows a model to read, is refused
// before it is read; a model over the geometry limits fails while it is
// decoded. Errors name the file.
//
// Textures are looked for in o.Textures first, then in the model's folder,
// then, for a model that is part of a map (a packed one, or a folder named
// .w3x/.w3m or holding war3map.w3i), in the map's root, as the game does;
// then in o.GameData. The map's root is looked for no higher than
// o.Within (see Options.Within): nothing above what the caller named is
// read.
func Open(path string, o *Options) (*Model, error) {
	meter := budget.NewMeter(limitsOf(o))
	if arch, inner, ok := archivepath.Split(path); ok {
		a, err := mpq.Open(arch, limitsOf(o))
		if err != nil {
			return nil, err
		}
		m, err := load(a, inner, path, modeltex.LocalFS(arch, a, inner), o, meter)
		if err != nil {
			a.Close()
			return nil, err
		}
		m.archive = a
		return m, nil
	}
	top := filepath.Dir(path)
	if o != nil && o.Within != "" {
		top = o.Within
	}
	return load(nil, path, path, modeltex.Local(filepath.Dir(path), top), o, meter)
}

// load reads the model file name, from fsys or (nil fsys) from disk,
// within meter and decodes it, naming it label in errors.
func load(fsys fs.FS, name, label string, local []texture.Source, o *Options, meter *budget.Meter) (*Model, error) {
	buf := fileBufs.Get()
	var b []byte
	var err error
	if fsys == nil {
		b, err = fsread.Path(name, meter, buf)
	} else {
		b, err = fsread.FS(fsys, name, label, meter, buf)
	}
	if err != nil {
		fileBufs.Put(buf)
		return nil, err
	}
	f, err := model.Load(b, label, meter.Limits())
	if err != nil || f.Format != model.FormatM2 {
		// The MDX and MDL decoders copy what they keep
		// (TestLoadKeepsNoBytes); an M2 File keeps slices of b.
		fileBufs.Put(b)
	}
	if err != nil {
		return nil, err
	}
	return newModel(f, label, local, o, meter), nil
}

// fileBufs keeps the buffers model files are read into, for the next
// load. A program making thumbnails one model after another otherwise
// allocated a file's worth of bytes for each, cleared by the runtime and
// then overwritten: a quarter-megabyte unit's file was a sixth of its
// thumbnail's allocation, and with the collections that came with it
// some 3 % of its time (docs/performance.md). A huge model's buffer is
// not kept.
var fileBufs = bufpool.Pool{Max: 16 << 20}

// limitsOf returns o's limits.
func limitsOf(o *Options) Limits {
	if o == nil {
		return Limits{}
	}
	return o.Limits
}

// OpenFS reads the model file name inside fsys, which may be a folder
// (os.DirFS), an archive (*mpq.Archive) or anything else; its textures are
// looked for in Options.Textures first, then beside it in fsys (and then at
// an archive's root), then in Options.GameData. Errors name the file as
// name.
func OpenFS(fsys fs.FS, name string, o *Options) (*Model, error) {
	src := "" // a file system has no name of its own; an archive has
	if a, ok := fsys.(*mpq.Archive); ok {
		src = a.Name()
	}
	return load(fsys, name, name, modeltex.LocalFS(src, fsys, name), o, budget.NewMeter(limitsOf(o)))
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

func newModel(f *model.File, name string, local []texture.Source, o *Options, meter *budget.Meter) *Model {
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
	tex := modeltex.Textures(local, o.Textures, o.GameData, cache, o.Limits)
	return &Model{File: f, Name: name, tex: tex, meter: meter}
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
func (m *Model) Dependencies(teams []texture.Team) []texture.File {
	return render.Dependencies(m.File.Model, m.tex, teams, m.meter.Fork())
}

func (m *Model) animator() *render.Animator {
	a := render.NewAnimator(m.File.Model, m.Name, m.tex)
	a.Meter = m.meter.Fork()
	a.Framebuffers = &framebuffers
	return a
}

// framebuffers lends every Model's pictures their framebuffers, so that a
// program rendering model after model reuses a few buffers instead of
// allocating and zeroing one per picture; it keeps at most 64 MiB idle.
var framebuffers render.Framebuffers
