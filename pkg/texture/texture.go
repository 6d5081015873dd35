package texture

import (
	"fmt"
	"image"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// DefaultMaxDimension is the largest width or height accepted unless
// [Options.MaxDimension] says otherwise. Warcraft III textures are at most
// 2048 wide; 8192 leaves room for Reforged maps while keeping a hostile
// header from asking for gigabytes.
const DefaultMaxDimension = 8192

// Options bound what a decoder will accept. The zero value is usable.
type Options struct {
	// MaxDimension refuses images wider or taller than this many pixels.
	// Zero means DefaultMaxDimension.
	MaxDimension int
	// MaxPixels bounds one decode's memory and work, in pixels of 4
	// bytes: every mip level it returns, plus every picture a decoder
	// builds on the way (a JPEG decoder's planes and a progressive
	// stream's coefficients, the 16-bit image a PNG decodes to before
	// conversion, the TGA decoder's own image). It is checked against the
	// headers before anything is allocated; a texture over it fails with
	// a *budget.Error. Zero means the TexturePixels limit's default: a
	// model's textures together are held to that limit too (a
	// budget.Meter), so one texture can never need more.
	MaxPixels int64
	// MaxJPEGScans refuses a progressive JPEG stream (in a BLP or a .jpg)
	// with more scans than this, with a *budget.Error: every scan makes
	// the decoder walk the whole frame again, so a stream of a few
	// kilobytes with thousands of scans would take minutes. Zero means the
	// JPEGScans limit's default.
	MaxJPEGScans int
	// FirstLevelOnly decodes only mip level 0, for callers (thumbnails of a
	// texture, the CLI) that never minify.
	FirstLevelOnly bool
	// Strict fails the decode when a mip level after the first is damaged,
	// instead of cutting the chain there (see Texture.LevelErr).
	Strict bool
}

func (o *Options) maxDim() int {
	if o == nil || o.MaxDimension <= 0 {
		return DefaultMaxDimension
	}
	return o.MaxDimension
}

// OptionsWithin returns the decode options of l: one texture may need at
// most the pixels and scans l allows a whole model.
func OptionsWithin(l budget.Limits) Options {
	return Options{MaxPixels: l.Get(budget.TexturePixels), MaxJPEGScans: int(l.Get(budget.JPEGScans))}
}

func (o *Options) maxPixels() int64 {
	if o == nil || o.MaxPixels <= 0 {
		return budget.TexturePixels.Default()
	}
	return o.MaxPixels
}

func (o *Options) maxScans() int {
	if o == nil || o.MaxJPEGScans <= 0 {
		return int(budget.JPEGScans.Default())
	}
	return o.MaxJPEGScans
}

func (o *Options) firstOnly() bool { return o != nil && o.FirstLevelOnly }

func (o *Options) strict() bool { return o != nil && o.Strict }

// Format names the container and encoding a texture was decoded from.
type Format string

// Formats reported in Texture.Format and Config.Format.
const (
	FormatBLP1JPEG    Format = "BLP1 JPEG"
	FormatBLP1Palette Format = "BLP1 palette"
	FormatBLP2JPEG    Format = "BLP2 JPEG"
	FormatBLP2Palette Format = "BLP2 palette"
	FormatBLP2DXT1    Format = "BLP2 DXT1"
	FormatBLP2DXT3    Format = "BLP2 DXT3"
	FormatBLP2DXT5    Format = "BLP2 DXT5"
	FormatBLP2Raw     Format = "BLP2 BGRA"
	FormatDDS         Format = "DDS"
	FormatTGA         Format = "TGA"
	FormatPNG         Format = "PNG"
	FormatJPEG        Format = "JPEG"
	FormatSynthetic   Format = "synthetic"
)

// Wrap selects clamp or repeat addressing per axis. Its bits are those of
// an MDX TEXS record's flags, so a model's flags can be used as they are.
type Wrap uint32

// Wrap bits, as in the MDX TEXS flags.
const (
	WrapWidth  Wrap = 1 // repeat along u; clamp otherwise
	WrapHeight Wrap = 2 // repeat along v; clamp otherwise
)

// Texture is a decoded image with its mip chain. Levels[0] is the full
// image; each further level halves the previous one (never below 1 pixel)
// and carries straight (non-premultiplied) alpha. A Texture returned by a
// decoder or a Cache is shared: treat its pixels as read-only and use
// WithWrap to get a copy with other addressing.
//
// A Texture from Lazy.Texture(k) holds only the levels asked for:
// Levels[:k] are nil (Width and Height still give level 0's size), and
// Sample reads level k where a finer one would be due.
type Texture struct {
	Levels []*image.NRGBA
	// Wrap is the addressing Sample uses. Decoders leave it 0 (clamp both).
	Wrap Wrap
	// Format says what the pixels were decoded from.
	Format Format
	// LevelErr is set when a mip level after the first could not be decoded
	// (real files carry truncated small mips): the chain stops before that
	// level and LevelErr, a *FormatError, names the file and level. Level 0
	// is always complete; a damaged level 0 fails the decode.
	LevelErr error

	w, h int // level 0's size when it is not decoded (Lazy.Texture)
}

// Width returns the width of level 0.
func (t *Texture) Width() int {
	if t.w > 0 {
		return t.w
	}
	return t.Levels[0].Rect.Dx()
}

// Height returns the height of level 0.
func (t *Texture) Height() int {
	if t.h > 0 {
		return t.h
	}
	return t.Levels[0].Rect.Dy()
}

// First returns the index of the finest level held: 0 unless the texture
// came from Lazy.Texture with a coarser level asked for.
func (t *Texture) First() int {
	for i, l := range t.Levels {
		if l != nil {
			return i
		}
	}
	return len(t.Levels)
}

// WithWrap returns a copy of t that shares its pixels but samples with the
// given addressing; the same cached texture is used by layers with
// different TEXS flags.
func (t *Texture) WithWrap(w Wrap) *Texture {
	c := *t
	c.Wrap = w & (WrapWidth | WrapHeight)
	return &c
}

// Bytes returns the memory held by the pixel data, which is what a Cache
// counts against its budget.
func (t *Texture) Bytes() int64 {
	var n int64
	for _, l := range t.Levels {
		if l != nil {
			n += int64(len(l.Pix))
		}
	}
	return n
}

// Config is what DecodeConfig learns from a header without decoding pixels.
type Config struct {
	Format Format
	Width  int
	Height int
	// Levels is the number of mip levels the file carries.
	Levels int
}

// FormatError reports a malformed file: which file, which mip level (-1 when
// the problem is not in one level), the byte offset when known (-1
// otherwise) and what was wrong.
type FormatError struct {
	File   string
	Format string
	Mip    int
	Offset int64
	Reason string
	Err    error // underlying error, if any
}

func (e *FormatError) Error() string {
	s := e.Format
	if e.File != "" {
		s = e.File + ": " + s
	}
	if e.Mip >= 0 {
		s += fmt.Sprintf(" mip %d", e.Mip)
	}
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at offset %d", e.Offset)
	}
	s += ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a valid file using a feature this package does
// not decode (BLP0, BC7, volume textures, ...).
type UnsupportedError struct {
	File    string
	Format  string
	Feature string
}

func (e *UnsupportedError) Error() string {
	s := e.Format + ": unsupported: " + e.Feature
	if e.File != "" {
		s = e.File + ": " + s
	}
	return s
}

// overBudget is the *budget.Error of a decode over one of Options'
// bounds, naming the format and level in its What.
func overBudget(k budget.Kind, max, value int64, format string, mip int, what string) *budget.Error {
	w := format
	if mip >= 0 {
		w += fmt.Sprintf(" mip %d", mip)
	}
	return &budget.Error{Limit: k, Max: max, Value: value, What: w + ": " + what}
}

// pixelBudget adds up what one decode costs against Options.MaxPixels.
type pixelBudget struct {
	format string
	limit  int64
	used   int64
}

func newPixelBudget(format string, o *Options) *pixelBudget {
	return &pixelBudget{format: format, limit: o.maxPixels()}
}

// add charges n pixels for what (at level mip, or -1), failing when the
// total would pass the budget.
func (b *pixelBudget) add(mip int, n int64, what string, args ...any) error {
	if n > b.limit-b.used {
		return overBudget(budget.TexturePixels, b.limit, b.used+n, b.format, mip, fmt.Sprintf(what, args...))
	}
	b.used += n
	return nil
}

// levelPixels is the number of pixels of levels 0..n-1 of a w×h chain.
func levelPixels(w, h, n int) int64 {
	var t int64
	for i := range n {
		lw, lh := mipSize(w, h, i)
		t += int64(lw) * int64(lh)
	}
	return t
}

// chargeLevels charges the decoded levels of a w×h texture.
func (b *pixelBudget) chargeLevels(w, h, n int) error {
	return b.add(-1, levelPixels(w, h, n), "%dx%d with %d mip levels", w, h, n)
}

// errAt builds a FormatError; file is filled in by Decode.
func errAt(format string, mip int, off int64, reason string, args ...any) *FormatError {
	return &FormatError{Format: format, Mip: mip, Offset: off, Reason: fmt.Sprintf(reason, args...)}
}

// mipSize returns the size of level n of a w×h image.
func mipSize(w, h, n int) (int, int) {
	w >>= n
	h >>= n
	return max(w, 1), max(h, 1)
}

// maxLevels is the length of a full mip chain for w×h.
func maxLevels(w, h int) int {
	n := 1
	for w > 1 || h > 1 {
		w >>= 1
		h >>= 1
		n++
	}
	return n
}

func checkDims(format string, w, h int, o *Options) error {
	if w <= 0 || h <= 0 {
		return errAt(format, -1, -1, "invalid size %dx%d", w, h)
	}
	if m := o.maxDim(); w > m || h > m {
		return errAt(format, -1, -1, "size %dx%d exceeds the limit of %d", w, h, m)
	}
	return nil
}
