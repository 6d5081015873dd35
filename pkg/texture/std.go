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
// checking its size against the limit (the standard decoders allocate
// whatever the header declares).
func DecodeStd(data []byte, o *Options) (*Texture, error) {
	c, err := DecodeStdConfig(data)
	if err != nil {
		return nil, err
	}
	if err := checkDims(string(c.Format), c.Width, c.Height, o); err != nil {
		return nil, err
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
