// Package icon makes Warcraft III command-card icons out of pictures: the
// 64×64 command button (BTN) with its bevelled frame, its disabled twin
// (DISBTN), the passive (PAS, DISPAS) and autocast (ATC) variants, and
// Reforged's 256×256 versions of each. It knows pictures, not models: a
// caller renders the model (large, a few times the icon's size, on a
// transparent background) and Compose reduces it over a background,
// applies the kind's look and frames it. docs/icons.md describes the
// kinds, their frames and where the game looks for each.
//
// The frames are drawn by this package to the proportions of the game's
// icons; a caller may give its own frame picture (with alpha) instead.
// The output depends only on the inputs: the same picture and Options
// give the same pixels on any machine and any GOMAXPROCS.
package icon

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"github.com/disintegration/imaging"
)

// Kind is a kind of command-card icon.
type Kind uint8

// The kinds. Each has its own file-name prefix and folder in the game's
// files (Prefix, Folder).
const (
	// BTN is the command button: the picture in a bevelled grey frame.
	BTN Kind = iota
	// DISBTN is the button of an ability or unit not available yet:
	// desaturated and darkened, in a black frame.
	DISBTN
	// PAS is a passive ability's button: no bevel, a black rim fading
	// into the picture.
	PAS
	// DISPAS is the passive button disabled.
	DISPAS
	// ATC is an autocast ability's button: the bevel in gold.
	ATC
)

// Kinds lists every kind, in the order files are written.
func Kinds() []Kind { return []Kind{BTN, DISBTN, PAS, DISPAS, ATC} }

var kindNames = [...]string{"BTN", "DISBTN", "PAS", "DISPAS", "ATC"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Disabled reports whether the kind has the disabled look.
func (k Kind) Disabled() bool { return k == DISBTN || k == DISPAS }

// Prefix is the start of the kind's file names: BTNName, DISBTNName,
// PASName, DISPASName, ATCName.
func (k Kind) Prefix() string { return k.String() }

// Folder is where the game and a map keep the kind's files, with forward
// slashes: the disabled kinds share ReplaceableTextures/CommandButtonsDisabled,
// passives have ReplaceableTextures/PassiveButtons, the others
// ReplaceableTextures/CommandButtons.
func (k Kind) Folder() string {
	switch k {
	case DISBTN, DISPAS:
		return "ReplaceableTextures/CommandButtonsDisabled"
	case PAS:
		return "ReplaceableTextures/PassiveButtons"
	}
	return "ReplaceableTextures/CommandButtons"
}

// HDFolder is where Reforged looks for the kind's HD (256×256) version
// first: the same path inside the _hd.w3mod folder, which a map may
// carry too.
func (k Kind) HDFolder() string { return "_hd.w3mod/" + k.Folder() }

// Icon sizes: the classic icons and Reforged's HD ones.
const (
	SD = 64
	HD = 256
)

// MaxSize is the largest icon side Compose makes.
const MaxSize = 4096

// Background is what shows behind the model: a colour, a vertical
// gradient or a picture. The zero Background is DefaultBackground.
type Background struct {
	top, bottom color.NRGBA
	pic         image.Image
	set         bool
}

// Solid is a background of one colour; its alpha is ignored (icons are
// opaque).
func Solid(c color.NRGBA) Background { return Background{top: c, bottom: c, set: true} }

// Gradient is a vertical gradient from top to bottom.
func Gradient(top, bottom color.NRGBA) Background {
	return Background{top: top, bottom: bottom, set: true}
}

// Picture is a background picture, scaled to cover the icon and centred.
func Picture(img image.Image) Background { return Background{pic: img, set: true} }

// DefaultBackground is a dark slate gradient: the model stands out from
// it in colour and in the disabled grey alike, and it reads as the
// painted dusk behind the game's own unit icons.
func DefaultBackground() Background {
	return Gradient(color.NRGBA{70, 78, 96, 255}, color.NRGBA{16, 18, 26, 255})
}

// Options say how Compose makes an icon. The zero Options make a 64×64
// icon over DefaultBackground with this package's frame.
type Options struct {
	// Size is the icon's side in pixels: SD (the default, 64) or HD (256)
	// for the game; any from 8 to MaxSize.
	Size int
	// Background shows behind the picture.
	Background Background
	// Frame, when set, is drawn over the icon instead of the kind's own
	// frame: a picture with alpha, scaled to the icon's size.
	Frame image.Image
}

// Compose makes an icon of kind k out of pic, a picture of the model on
// a transparent background, best a few times the icon's size: the
// background is laid under it, the whole is reduced to the icon's size
// with a Lanczos filter and sharpened a little so that 64 pixels stay
// crisp, the kind's look is applied (the disabled kinds are desaturated
// and darkened) and the frame is drawn over it. A picture that is not
// square is centred and cropped to a square. The model should fill
// Inner(k, size) of the icon; the frame covers the rest.
func Compose(pic image.Image, k Kind, o Options) (*image.NRGBA, error) {
	size := o.Size
	if size == 0 {
		size = SD
	}
	if size < 8 || size > MaxSize {
		return nil, fmt.Errorf("icon: size %d is not from 8 to %d", size, MaxSize)
	}
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("icon: unknown kind %d", int(k))
	}
	b := pic.Bounds()
	if b.Empty() {
		return nil, fmt.Errorf("icon: empty %dx%d picture", b.Dx(), b.Dy())
	}
	side := min(b.Dx(), b.Dy())
	sq := image.Rect(0, 0, side, side).Add(b.Min).Add(image.Pt((b.Dx()-side)/2, (b.Dy()-side)/2))
	canvas := image.NewNRGBA(image.Rect(0, 0, side, side))
	bg := o.Background
	if !bg.set {
		bg = DefaultBackground()
	}
	bg.paint(canvas)
	draw.Draw(canvas, canvas.Rect, pic, sq.Min, draw.Over)
	img := canvas
	if side != size {
		img = imaging.Resize(canvas, size, size, imaging.Lanczos)
	}
	// Sharpening restores the edges the reduction softened; an HD icon
	// is reduced less and wants a wider radius for the same look.
	img = imaging.Sharpen(img, 0.45*max(1, float64(size)/SD/2))
	if k.Disabled() {
		img = disable(img)
	}
	if o.Frame != nil {
		f := o.Frame
		if fb := f.Bounds(); fb.Dx() != size || fb.Dy() != size {
			f = imaging.Resize(f, size, size, imaging.Lanczos)
		}
		draw.Draw(img, img.Rect, f, f.Bounds().Min, draw.Over)
	} else {
		drawFrame(img, k)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255 // the frame's own alpha never shows through
	}
	return img, nil
}

// paint fills dst with the background, opaque.
func (bg Background) paint(dst *image.NRGBA) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	if bg.pic != nil {
		fill := imaging.Fill(bg.pic, w, h, imaging.Center, imaging.Lanczos)
		draw.Draw(dst, dst.Rect, image.NewUniform(color.Black), image.Point{}, draw.Src)
		draw.Draw(dst, dst.Rect, fill, image.Point{}, draw.Over)
		return
	}
	for y := range h {
		// Integer interpolation: the same bytes everywhere.
		t, n := y, max(h-1, 1)
		c := [3]uint8{}
		for k, p := range [3][2]uint8{{bg.top.R, bg.bottom.R}, {bg.top.G, bg.bottom.G}, {bg.top.B, bg.bottom.B}} {
			c[k] = uint8((int(p[0])*(n-t) + int(p[1])*t + n/2) / n)
		}
		row := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
		for x := 0; x < len(row); x += 4 {
			row[x], row[x+1], row[x+2], row[x+3] = c[0], c[1], c[2], 255
		}
	}
}

// The disabled look: saturation kept at disabledSaturation of the
// original, brightness at disabledBrightness. The game's disabled icons
// keep the picture recognisable but plainly unavailable.
const (
	disabledSaturation = 0.2
	disabledBrightness = 0.5
)

// disable greys and darkens img in place, with integer arithmetic: each
// channel moves towards the pixel's luma (Rec. 601 weights) by
// 1−disabledSaturation, then is scaled by disabledBrightness.
func disable(img *image.NRGBA) *image.NRGBA {
	const (
		sat    = int(disabledSaturation * 1000)
		bright = int(disabledBrightness * 1000)
	)
	for i := 0; i+3 < len(img.Pix); i += 4 {
		p := img.Pix[i : i+3]
		l := (299*int(p[0]) + 587*int(p[1]) + 114*int(p[2]) + 500) / 1000
		for k := range 3 {
			v := (l*1000 + (int(p[k])-l)*sat + 500) / 1000
			p[k] = uint8(max(0, min(255, (v*bright+500)/1000)))
		}
	}
	return img
}
