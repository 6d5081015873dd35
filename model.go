package mdxrender

import (
	"context"
	"image"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Options say where a model's textures come from. The zero Options (or
// nil) looks in the model's own folder only, as the command line does
// without --textures.
type Options struct {
	// Textures are searched, in order, before the model's own folder
	// (texture.Resolver's order, the command line's too: a reskin in a
	// texture folder wins over the file beside the model): folders of
	// textures (see Folder), maps, archives, game data.
	Textures []texture.Source
	// Cache shares decoded textures between models; nil gives each Model a
	// private cache.
	Cache *texture.Cache
}

// Folder is the texture source of a folder on disk. No symbolic link in it
// leads reads outside it.
func Folder(dir string) texture.Source { return texture.Folder(dir) }

// Model is a decoded model and the place it was read from, whose folder is
// searched for its textures. Its methods may be called from several
// goroutines at once, as long as nobody changes the model meanwhile.
type Model struct {
	// Model holds everything the file says, as plain Go values.
	*mdx.Model
	// Name is the model's path, which messages name it by.
	Name string
	// Format is the file's format, told from its content.
	Format Format
	tex    render.Textures
}

// Format is a model file format.
type Format = model.Format

// The model formats Open reads, told apart by content, never by name.
const (
	FormatMDX = model.FormatMDX // binary MDX (Warcraft III, or early WoW)
	FormatMDL = model.FormatMDL // MDL text
	FormatM2  = model.FormatM2  // World of Warcraft M2, versions 256–263
)

// Open reads the model file at path (MDX, MDL or M2). A file that is not a
// regular file, or that is larger than the decoder's limit, is refused
// before it is read. Errors name the file.
func Open(path string, o *Options) (*Model, error) {
	f, err := model.LoadFile(path)
	if err != nil {
		return nil, err
	}
	return newModel(f, path, []texture.Source{texture.Folder(filepath.Dir(path))}, o), nil
}

// OpenFS reads the model file name inside fsys, which may be a folder
// (os.DirFS), an archive or anything else; its textures are looked for
// beside it in fsys after Options.Textures. Errors name the file as name.
func OpenFS(fsys fs.FS, name string, o *Options) (*Model, error) {
	f, err := model.LoadFS(fsys, name)
	if err != nil {
		return nil, err
	}
	return newModel(f, name, []texture.Source{texture.FSSource(name, fsys, path.Dir(name))}, o), nil
}

func newModel(f *model.File, name string, local []texture.Source, o *Options) *Model {
	if o == nil {
		o = &Options{}
	}
	cache := o.Cache
	if cache == nil {
		cache = texture.NewCache(0)
	}
	res := &texture.Resolver{Sources: o.Textures, Cache: cache}
	return &Model{Model: f.Model, Name: name, Format: f.Format, tex: render.Textures{Local: local, Resolver: res}}
}

// Render draws a still of the model as v says; the zero View draws what
// mdxrender render draws with no flags. Warnings say what it went on
// without (a missing texture, a blank picture); an error means no picture.
func (m *Model) Render(v View) (*image.NRGBA, []Warning, error) {
	return m.RenderContext(context.Background(), v)
}

// RenderContext is Render stopped, with ctx's error, when ctx is done.
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

func (m *Model) animator() *render.Animator { return render.NewAnimator(m.Model, m.Name, m.tex) }
