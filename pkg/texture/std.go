package texture

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
)

// DecodeStdConfig reads the header of a PNG or JPEG file.
func DecodeStdConfig(data []byte) (Config, error) {
	f := Sniff(data)
	var (
		c   image.Config
		err error
	)
	switch f {
	case FormatPNG:
		c, err = png.DecodeConfig(bytes.NewReader(data))
	case FormatJPEG:
		c, err = jpeg.DecodeConfig(bytes.NewReader(data))
	default:
		return Config{}, errAt("PNG/JPEG", -1, 0, "not a PNG or JPEG file")
	}
	if err != nil {
		return Config{}, &FormatError{Format: string(f), Mip: -1, Offset: -1, Reason: "bad header", Err: err}
	}
	return Config{Format: f, Width: c.Width, Height: c.Height, Levels: 1}, nil
}

// DecodeStd decodes a PNG or JPEG file with the standard library, after
// checking its size against the limit and its cost against the pixel
// budget (the standard decoders allocate whatever the header declares).
func DecodeStd(data []byte, o *Options) (*Texture, error) {
	c, err := DecodeStdConfig(data)
	if err != nil {
		return nil, err
	}
	if err := checkDims(string(c.Format), c.Width, c.Height, o); err != nil {
		return nil, err
	}
	budget := newPixelBudget(string(c.Format), o)
	px := int64(c.Width) * int64(c.Height)
	if c.Format == FormatJPEG {
		f, ferr := parseJPEGFrame(data)
		if ferr != nil {
			return nil, ferr
		}
		if err := checkScans(&f, string(c.Format), -1, o); err != nil {
			return nil, err
		}
		if err := jpegFits(image.Config{Width: c.Width, Height: c.Height}, len(data)); err != nil {
			err.Format = string(c.Format)
			return nil, err
		}
		// The decoder's planes (and coefficients), then the RGBA copy.
		if err := budget.add(-1, (f.decodeBytes()+3)/4+px, "a %dx%d JPEG decoded and converted", c.Width, c.Height); err != nil {
			return nil, err
		}
	} else {
		if px > pngMaxRatio*int64(len(data)) {
			return nil, errAt(string(c.Format), -1, -1, "%dx%d pixels cannot be stored in %d bytes", c.Width, c.Height, len(data))
		}
		if err := budget.add(-1, (pngDecodeBytes(data, px)+3)/4, "a %dx%d PNG of %d-bit samples decoded and converted", c.Width, c.Height, data[24]); err != nil {
			return nil, err
		}
	}
	var im image.Image
	if c.Format == FormatPNG {
		im, err = png.Decode(bytes.NewReader(data))
	} else {
		im, err = jpeg.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return nil, &FormatError{Format: string(c.Format), Mip: 0, Offset: -1, Reason: "cannot decode", Err: err}
	}
	return &Texture{Format: c.Format, Levels: []*image.NRGBA{toNRGBA(im)}}, nil
}

// pngDecodeBytes is the memory image/png and the conversion to NRGBA take
// for a PNG of px pixels, from its IHDR chunk (which DecodeConfig has
// found at the start): image/png allocates 8 bytes a pixel for 16-bit
// samples, 1 for a palette and 4 otherwise (grey turns NRGBA with a tRNS
// chunk); an interlaced image costs twice that, its passes being decoded
// apart first; and unless the result is already 8-bit NRGBA, toNRGBA makes
// a 4-byte copy.
func pngDecodeBytes(data []byte, px int64) int64 {
	depth, colour, interlace := data[24], data[25], data[28]
	per := int64(4)
	switch {
	case depth == 16:
		per = 8
	case colour == 3:
		per = 1
	}
	if interlace != 0 {
		per *= 2
	}
	if depth != 8 || (colour != 4 && colour != 6) {
		per += 4
	}
	return per * px
}

// Decoders in the standard library allocate the whole image as soon as
// they have read the header, so a few hundred bytes claiming 8192×8192
// would cost 256 MB before failing. These bounds refuse sizes the data
// cannot possibly hold. A baseline or progressive JPEG spends at least one
// bit per 8×8 block and component, so a stream of n bytes holds at most
// 512·n pixels; deflate expands at most 1032:1 and a 1-bit PNG packs 8
// pixels a byte.
const (
	jpegMaxRatio = 512
	pngMaxRatio  = 8 * 1032
)

func jpegFits(c image.Config, n int) *FormatError {
	if int64(c.Width)*int64(c.Height) > jpegMaxRatio*int64(n) {
		return errAt("", -1, -1, "JPEG frame %dx%d cannot be stored in %d bytes", c.Width, c.Height, n)
	}
	return nil
}
