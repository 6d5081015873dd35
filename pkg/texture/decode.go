package texture

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Sniff names the format of data from its first bytes, or returns "" when
// it is not recognised. TGA has no magic number, so it is recognised by its
// TGA 2.0 footer or, failing that, a plausible header.
func Sniff(data []byte) Format {
	switch {
	case bytes.HasPrefix(data, []byte("BLP1")):
		return "BLP1"
	case bytes.HasPrefix(data, []byte("BLP2")):
		return "BLP2"
	case bytes.HasPrefix(data, []byte("BLP0")):
		return "BLP0"
	case bytes.HasPrefix(data, []byte("DDS ")):
		return FormatDDS
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return FormatPNG
	case bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}):
		return FormatJPEG
	case looksLikeTGA(data):
		return FormatTGA
	}
	return ""
}

// Decode decodes any supported texture, choosing the decoder from the
// data's first bytes. o may be nil.
func Decode(data []byte, o *Options) (*Texture, error) {
	switch Sniff(data) {
	case "BLP1", "BLP2", "BLP0":
		return DecodeBLP(data, o)
	case FormatDDS:
		return DecodeDDS(data, o)
	case FormatPNG, FormatJPEG:
		return DecodeStd(data, o)
	case FormatTGA:
		return DecodeTGA(data, o)
	}
	return nil, unknownFormat(data)
}

// DecodeConfig reports a texture's format, size and mip count without
// decoding its pixels.
func DecodeConfig(data []byte) (Config, error) {
	switch Sniff(data) {
	case "BLP1", "BLP2", "BLP0":
		return DecodeBLPConfig(data)
	case FormatDDS:
		return DecodeDDSConfig(data)
	case FormatPNG, FormatJPEG:
		return DecodeStdConfig(data)
	case FormatTGA:
		return DecodeTGAConfig(data)
	}
	return Config{}, unknownFormat(data)
}

func unknownFormat(data []byte) error {
	n := min(len(data), 4)
	return &FormatError{Format: "texture", Mip: -1, Offset: 0,
		Reason: fmt.Sprintf("unrecognised format (first bytes %q)", data[:n])}
}

// DecodeFile reads and decodes the texture at path on disk within the
// default limits. Errors name the file.
func DecodeFile(path string, o *Options) (*Texture, error) { return osFile(path).Decode(o, nil) }

// DecodeFileConfig is DecodeConfig for a file on disk.
func DecodeFileConfig(path string) (Config, error) { return osFile(path).DecodeConfig() }

// osFile is the file at path on disk, seen from its own folder.
func osFile(path string) File {
	return File{Source: Folder(filepath.Dir(path)), Name: filepath.Base(path)}
}

// readCharged reads f and charges m for decoding it, as chargeDecode
// does with onlyWhole.
func (f File) readCharged(m *budget.Meter, onlyWhole bool) ([]byte, error) {
	data, err := f.Read(m)
	if err != nil {
		return nil, err
	}
	if err := chargeDecode(m, f.String(), data, onlyWhole); err != nil {
		return nil, err
	}
	return data, nil
}

// Decode reads and decodes the texture f, with all of its levels,
// charging reading it and its pixels to m. Errors name the file.
func (f File) Decode(o *Options, m *budget.Meter) (*Texture, error) {
	data, err := f.readCharged(m, false)
	if err != nil {
		return nil, err
	}
	t, err := Decode(data, o)
	if t != nil && t.LevelErr != nil {
		t.LevelErr = withFile(t.LevelErr, f.String())
	}
	return t, withFile(err, f.String())
}

// withFile records the file name in a typed error so messages name it.
func withFile(err error, path string) error {
	if err == nil {
		return nil
	}
	var fe *FormatError
	if errors.As(err, &fe) && fe.File == "" {
		fe.File = path
		return err
	}
	var be *budget.Error
	if errors.As(err, &be) && be.File == "" {
		be.File = path
		return err
	}
	var ue *UnsupportedError
	if errors.As(err, &ue) && ue.File == "" {
		ue.File = path
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// DecodeConfig reports f's format, size and mip count without decoding its
// pixels.
func (f File) DecodeConfig() (Config, error) {
	data, err := f.Read(nil)
	if err != nil {
		return Config{}, err
	}
	c, err := DecodeConfig(data)
	return c, withFile(err, f.String())
}

// decodeKey is the budget.Meter.ChargeOnce key of decoding level Level of
// the file Name (-1: the whole file, as one picture).
type decodeKey struct {
	Name  string
	Level int
}

// chargeDecode charges m, before anything is decoded, the pixels decoding
// data costs a model: a TGA, PNG or JPEG, decoded whole, its picture and
// the mipmaps drawing it builds; a BLP or DDS its stored levels, unless
// onlyWhole (Lazy.Texture charges the levels it decodes as it decodes
// them). Data whose header cannot be read costs nothing: decoding it
// fails at once.
func chargeDecode(m *budget.Meter, name string, data []byte, onlyWhole bool) error {
	c, err := DecodeConfig(data)
	if err != nil {
		return nil
	}
	var px int64
	switch c.Format {
	case FormatPNG, FormatJPEG, FormatTGA:
		px = int64(c.Width) * int64(c.Height) * 4 / 3
	default:
		if onlyWhole {
			return nil
		}
		px = levelPixels(c.Width, c.Height, c.Levels)
	}
	return m.ChargeOnce(decodeKey{name, -1}, budget.TexturePixels, px, name,
		fmt.Sprintf("%s %dx%d decoded", c.Format, c.Width, c.Height))
}
