package mdxrender

import (
	"context"
	"fmt"
	"image"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/pngenc"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Shot says how much of the model an icon shows.
type Shot uint8

// The shots (docs/icons.md#the-camera).
const (
	// ShotPortrait (the default) looks through the model's portrait
	// camera, as the game's portrait does: the camera of its portrait
	// model (Name_Portrait.mdx beside it), else its own camera named
	// like Portrait; a model with neither, or whose camera shows little
	// of it, is framed as ShotHead.
	ShotPortrait Shot = iota
	// ShotHead frames the head and shoulders (render.FitHead).
	ShotHead
	// ShotWhole frames the whole model, as render does.
	ShotWhole
)

var shotNames = [...]string{"portrait", "head", "whole"}

func (s Shot) String() string {
	if int(s) < len(shotNames) {
		return shotNames[s]
	}
	return "Shot(" + strconv.Itoa(int(s)) + ")"
}

// IconOptions say which command-card icons Icons makes and how. The zero
// IconOptions make what `mdxrender icon` makes with no flags: BTN and
// DISBTN at 64×64 over icon.DefaultBackground(), in this package's frames,
// seen through the model's portrait camera or else its head and
// shoulders, from DefaultIconView.
type IconOptions struct {
	// Kinds are the kinds to make; nil means BTN and DISBTN.
	Kinds []icon.Kind
	// HD also makes every kind at Reforged's 256×256.
	HD bool
	// Background shows behind the model; the zero value is
	// icon.DefaultBackground().
	Background icon.Background
	// Frames replace the drawn frame of a kind with a picture of the
	// caller's (with alpha), scaled to the icon.
	Frames map[icon.Kind]image.Image
	// Shot says how much of the model the icon shows.
	Shot Shot
	// View is the rest of the picture: sequence and time, team colour,
	// yaw and pitch of the orbit camera, particles, light; nil means
	// DefaultIconView. Its size, background and margin are the icons'
	// own; its Camera, when set, names a model camera to look through.
	View *View
}

// DefaultIconView is the View of icons: DefaultView turned a little to
// the model's right and looking slightly down, the three-quarter view of
// the game's own unit icons.
func DefaultIconView() View {
	v := render.DefaultView()
	v.Yaw, v.Pitch = -25, 10
	return v
}

// iconScale is how many times larger than the largest icon the model is
// rendered: a Lanczos reduction from four times keeps edges smooth and
// thin details, and costs 16 pixels a pixel.
const iconScale = 4

// Icon is one icon: its kind, its side in pixels and its picture.
type Icon struct {
	Kind  icon.Kind
	Size  int
	Image *image.NRGBA
}

// IconSet is what Icons made.
type IconSet struct {
	Icons []Icon
	// Picture is the render the icons were composed from, transparent
	// where the model is not.
	Picture *image.NRGBA
	// Framing says how the model was seen, for people: "the camera
	// Portrait_Camera of Footman_Portrait.mdx", "head and shoulders".
	Framing string
}

// Icons renders the model once, large, and composes each kind of icon
// from that picture (pkg/icon). Warnings are the render's; an error
// means no icons.
func (m *Model) Icons(ctx context.Context, o IconOptions) (*IconSet, []Warning, error) {
	kinds := o.Kinds
	if kinds == nil {
		kinds = []icon.Kind{icon.BTN, icon.DISBTN}
	}
	sizes := []int{icon.SD}
	if o.HD {
		sizes = append(sizes, icon.HD)
	}
	v := DefaultIconView()
	if o.View != nil {
		v = *o.View
	}
	side := iconScale * sizes[len(sizes)-1]
	v.Width, v.Height, v.Background = side, side, nil
	// The frame's painted rings hide the icon's edge; the model fills
	// what they leave.
	v.Margin = float64(icon.Inner(icon.BTN, icon.SD).Min.X) / icon.SD

	src, set := m, &IconSet{}
	meter := m.pictureMeter(m.meter)
	switch {
	case v.Camera != "" && v.Camera != render.OrbitCamera:
		set.Framing = "the camera " + clipName(v.Camera)
	case o.Shot == ShotWhole:
		v.Camera, v.Fit, set.Framing = render.OrbitCamera, render.FitVertices, "the whole model"
	case o.Shot == ShotPortrait:
		if pm, err := m.portraitModel(meter); err != nil {
			return nil, nil, err
		} else if pm != nil {
			if i, ok := render.PortraitCamera(pm.File.Model, pm.Name); ok {
				src, v.Camera = pm, strconv.Itoa(i)
				set.Framing = "the camera " + clipName(pm.File.Model.Cameras[i].Name) + " of " + clipName(path.Base(pm.Name))
			}
		}
		if v.Camera == "" {
			if i, ok := render.PortraitCamera(m.File.Model, m.Name); ok {
				v.Camera = strconv.Itoa(i)
				set.Framing = "the camera " + clipName(m.File.Model.Cameras[i].Name)
			}
		}
		fallthrough
	default:
		if v.Camera == "" || v.Camera == render.OrbitCamera {
			v.Camera, v.Fit, set.Framing = render.OrbitCamera, render.FitHead, "head and shoulders"
		}
	}
	modelCamera := v.Camera != render.OrbitCamera
	if modelCamera && v.Sequence == (render.Sequence{}) {
		// The game's portrait plays the model's Portrait animation.
		seqs := src.File.Model.Sequences
		if i, ok := render.PortraitSequence(len(seqs), func(i int) string { return seqs[i].Name }); ok {
			v.Sequence = render.SequenceAt(i)
		}
	}
	a := src.animator()
	a.Meter = m.pictureMeter(meter)
	pic, warns, err := a.RenderContext(ctx, v)
	if err != nil {
		return nil, warns, err
	}
	if o.Shot == ShotPortrait && (o.View == nil || o.View.Camera == "") && modelCamera && !fills(pic) {
		// A camera that misses the model, or shows it small, makes a
		// poor icon; the head and shoulders make a good one.
		v.Camera, v.Fit = render.OrbitCamera, render.FitHead
		if o.View == nil || o.View.Sequence == (render.Sequence{}) {
			v.Sequence = render.Sequence{}
		}
		a := m.animator()
		a.Meter = m.pictureMeter(meter)
		set.Framing = "head and shoulders (" + set.Framing + " shows too little of the model)"
		if pic, warns, err = a.RenderContext(ctx, v); err != nil {
			return nil, warns, err
		}
	}
	set.Picture = pic
	for _, size := range sizes {
		for _, k := range kinds {
			img, err := icon.Compose(pic, k, icon.Options{Size: size, Background: o.Background, Frame: o.Frames[k]})
			if err != nil {
				return nil, warns, fmt.Errorf("%s: %w", m.Name, err)
			}
			set.Icons = append(set.Icons, Icon{Kind: k, Size: size, Image: img})
		}
	}
	return set, warns, nil
}

// minFill is the share of the icon's inner area (icon.Inner) the box of
// the model's visible pixels must cover for a portrait camera's view to
// be used: a camera that frames a whole small unit, or misses it, makes
// a poor icon.
const minFill = 0.6

// fills reports whether the visible pixels of pic span a box covering
// at least minFill of the icon's inner area, scaled to pic.
func fills(pic *image.NRGBA) bool { return InnerCover(pic) >= minFill }

// InnerCover is the share of a command button's inner area
// (icon.Inner(icon.BTN, icon.SD), scaled to pic) that the box of pic's
// visible pixels (alpha above 16) covers: how well a render for icons
// fills them.
func InnerCover(pic *image.NRGBA) float64 {
	w, h := pic.Rect.Dx(), pic.Rect.Dy()
	in := icon.Inner(icon.BTN, icon.SD)
	inner := image.Rect(in.Min.X*w/icon.SD, in.Min.Y*h/icon.SD, in.Max.X*w/icon.SD, in.Max.Y*h/icon.SD)
	box := image.Rectangle{Min: image.Pt(w, h), Max: image.Pt(-1, -1)}
	for y := range h {
		row := pic.Pix[y*pic.Stride:]
		for x := range w {
			if row[4*x+3] > 16 {
				box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
				box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
			}
		}
	}
	if box.Max.X < 0 || inner.Empty() {
		return 0
	}
	c := box.Intersect(inner)
	return float64(c.Dx()*c.Dy()) / float64(inner.Dx()*inner.Dy())
}

// clipName shows a name from a file in a message: quoted, escaped,
// clipped.
func clipName(s string) string { return clip.Quote(s) }

// portraitModel opens the portrait model beside m (the same name with
// _Portrait before the extension, in any case, as .mdx or .mdl), reading
// it within meter; nil when there is none or m is one itself. A portrait
// model that cannot be read fails the call: it is the user's file, and
// the icon would otherwise silently differ from the game's portrait.
func (m *Model) portraitModel(meter *budget.Meter) (*Model, error) {
	f, ok := m.PortraitModelFile()
	if !ok {
		return nil, nil
	}
	b, err := f.Read(meter)
	if err != nil {
		return nil, err
	}
	pf, err := model.Load(b, f.String(), meter.Limits())
	if err != nil {
		return nil, err
	}
	return &Model{File: pf, Name: f.String(), tex: m.tex, meter: meter}, nil
}

// PortraitModelFile finds the portrait model beside m: the same name with
// _Portrait before the extension, in any case, as .mdx or .mdl, in m's
// own folder (or its folder inside an archive). ok is false when there is
// none, or m is a portrait model itself. The file is looked for, not
// read.
func (m *Model) PortraitModelFile() (f texture.File, ok bool) {
	if render.IsPortraitModel(m.Name) || len(m.tex.Local) == 0 {
		return texture.File{}, false
	}
	base := path.Base(strings.ReplaceAll(m.Name, `\`, "/"))
	if i := strings.LastIndexByte(base, ':'); i >= 0 {
		base = base[i+1:]
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	own := []texture.Source{m.tex.Local[0]}
	var r texture.Resolver
	for _, ext := range []string{".mdx", ".mdl"} {
		if f, _, err := r.Find(own, stem+"_Portrait"+ext); err == nil {
			return f, true
		}
	}
	return texture.File{}, false
}

// EncodeIcon writes an icon in the form the game reads at its size, as
// WriteIcons stores it at IconPath: BLP1 for the classic sizes, DDS for
// Reforged's HD, each with f's options.
func EncodeIcon(w io.Writer, ic Icon, f IconFiles) error {
	if ic.Size == icon.HD {
		return texture.EncodeDDS(w, ic.Image, &f.DDS)
	}
	return texture.EncodeBLP(w, ic.Image, &f.BLP)
}

// IconPNGPath is the path of the PNG WriteIcons writes beside the icon
// at p (an IconPath), for web pages.
func IconPNGPath(p string) string { return strings.TrimSuffix(p, path.Ext(p)) + ".png" }

// IconFiles say how WriteIcons stores icons. The zero IconFiles write what
// the game's own icons are: BLP1 JPEG with every mip level for the
// classic sizes, DXT1 DDS with every mip level for HD, and a PNG beside
// each for web pages.
type IconFiles struct {
	BLP   texture.BLPOptions
	DDS   texture.DDSOptions
	NoPNG bool
}

// IconPath is the path, inside a map or an output folder, of the icon of
// kind k and size for name: ReplaceableTextures/CommandButtons/BTNName.blp
// and the like (icon.Kind.Folder), and for HD sizes the same path under
// _hd.w3mod/ as a .dds (docs/icons.md#files).
func IconPath(k icon.Kind, size int, name string) string {
	if size == icon.HD {
		return k.HDFolder() + "/" + k.Prefix() + name + ".dds"
	}
	return k.Folder() + "/" + k.Prefix() + name + ".blp"
}

// CheckIconName refuses a name that cannot be part of an icon's file
// name: empty, over 100 bytes, or holding a path separator, a colon, a
// control character or anything but letters, digits, spaces and
// ._-()[]'+.
func CheckIconName(name string) error {
	if name == "" || len(name) > 100 {
		return fmt.Errorf("icon name %q: want 1 to 100 bytes", clipString(name))
	}
	for _, c := range name {
		if !(unicode.IsLetter(c) || unicode.IsDigit(c) || strings.ContainsRune(" ._-()[]'+", c)) {
			return fmt.Errorf("icon name %q: %q is not allowed (letters, digits, spaces and ._-()[]'+)", clipString(name), c)
		}
	}
	if strings.Trim(name, ". ") == "" {
		return fmt.Errorf("icon name %q: dots and spaces alone", name)
	}
	return nil
}

func clipString(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// IconName is the name a model's icons take by default: its file name
// without the extension and without a _Portrait suffix, with characters
// CheckIconName refuses replaced by '_'.
func IconName(model string) string {
	base := path.Base(strings.ReplaceAll(model, `\`, "/"))
	if i := strings.LastIndexByte(base, ':'); i >= 0 {
		base = base[i+1:]
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if render.IsPortraitModel(base) {
		stem = stem[:len(stem)-len("_portrait")]
	}
	var b strings.Builder
	for _, c := range stem {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || strings.ContainsRune(" ._-()[]'+", c) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > 100 {
		s = s[:100]
	}
	if CheckIconName(s) != nil {
		return "Icon"
	}
	return s
}

// WriteIcons writes icons for name into the folder dir, each in the
// game's folder for its kind (IconPath) with a PNG beside it unless
// f.NoPNG, so the folder imports into a map as it is. Files are written
// through an os.Root on dir, each whole or not at all (a failure never
// leaves a partial file), and nothing outside dir, not even through a
// symbolic link inside it. dir is created when missing. It returns the
// paths written, relative to dir.
func WriteIcons(ctx context.Context, dir, name string, icons []Icon, f IconFiles) ([]string, error) {
	if err := CheckIconName(name); err != nil {
		return nil, err
	}
	d, err := atomicfile.Create(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var written []string
	for _, ic := range icons {
		p := IconPath(ic.Kind, ic.Size, name)
		if err := d.Write(ctx, p, func(w io.Writer) error { return EncodeIcon(w, ic, f) }); err != nil {
			return written, err
		}
		written = append(written, p)
		if f.NoPNG {
			continue
		}
		pp := IconPNGPath(p)
		img := ic.Image
		if err := d.Write(ctx, pp, func(w io.Writer) error { return pngenc.Encode(w, img) }); err != nil {
			return written, err
		}
		written = append(written, pp)
	}
	return written, nil
}
