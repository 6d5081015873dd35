package texture

import (
	"encoding/binary"
	"image"
	"math/bits"
)

// DDS header layout (all little-endian u32): "DDS ", then a 124-byte
// DDS_HEADER whose pixel format starts at byte 76 of the file, then an
// optional 20-byte DDS_HEADER_DXT10 when the FourCC is "DX10".
const (
	ddsHeaderEnd = 128
	ddsDX10End   = 148

	ddsdMipMapCount = 0x20000
	ddpfAlphaPixels = 0x1
	ddpfAlpha       = 0x2
	ddpfFourCC      = 0x4
	ddpfRGB         = 0x40
	ddpfLuminance   = 0x20000
	ddsCaps2Volume  = 0x200000
)

// ddsLayout says how a DDS file's pixels are stored.
type ddsLayout struct {
	w, h, levels int
	dataAt       int
	bc           int // 1..5 for BCn; 0 for uncompressed
	// uncompressed layout
	bytesPP int
	masks   [4]uint32 // R, G, B, A
	lum     bool      // luminance: the R mask feeds R, G and B
}

func fourCC(s string) uint32 { return binary.LittleEndian.Uint32([]byte(s)) }

func parseDDS(data []byte, o *Options) (*ddsLayout, error) {
	le := binary.LittleEndian
	if len(data) < ddsHeaderEnd {
		return nil, errAt("DDS", -1, int64(len(data)), "file is %d bytes, too short for the 128-byte header", len(data))
	}
	if string(data[:4]) != "DDS " {
		return nil, errAt("DDS", -1, 0, "bad magic %q", data[:4])
	}
	if sz := le.Uint32(data[4:]); sz != 124 {
		return nil, errAt("DDS", -1, 4, "header size is %d, want 124", sz)
	}
	l := &ddsLayout{dataAt: ddsHeaderEnd}
	flags := le.Uint32(data[8:])
	l.h = int(le.Uint32(data[12:]))
	l.w = int(le.Uint32(data[16:]))
	depth := le.Uint32(data[24:])
	mips := int(le.Uint32(data[28:]))
	pfFlags := le.Uint32(data[80:])
	cc := le.Uint32(data[84:])
	bitCount := le.Uint32(data[88:])
	caps2 := le.Uint32(data[112:])
	if err := checkDims("DDS", l.w, l.h, o); err != nil {
		return nil, err
	}
	if caps2&ddsCaps2Volume != 0 && depth > 1 {
		return nil, &UnsupportedError{Format: "DDS", Feature: "volume texture"}
	}
	if flags&ddsdMipMapCount == 0 || mips < 1 {
		mips = 1
	}
	l.levels = min(mips, maxLevels(l.w, l.h))
	if o.firstOnly() {
		l.levels = 1
	}

	switch {
	case pfFlags&ddpfFourCC != 0:
		switch cc {
		case fourCC("DXT1"):
			l.bc = 1
		case fourCC("DXT2"), fourCC("DXT3"):
			l.bc = 2
		case fourCC("DXT4"), fourCC("DXT5"):
			l.bc = 3
		case fourCC("ATI1"), fourCC("BC4U"):
			l.bc = 4
		case fourCC("ATI2"), fourCC("BC5U"):
			l.bc = 5
		case fourCC("DX10"):
			if len(data) < ddsDX10End {
				return nil, errAt("DDS", -1, ddsHeaderEnd, "file ends inside the DX10 header")
			}
			l.dataAt = ddsDX10End
			dxgi := le.Uint32(data[128:])
			dim := le.Uint32(data[132:])
			if dim == 4 { // D3D10_RESOURCE_DIMENSION_TEXTURE3D
				return nil, &UnsupportedError{Format: "DDS", Feature: "volume texture"}
			}
			if err := l.fromDXGI(dxgi); err != nil {
				return nil, err
			}
		default:
			return nil, &UnsupportedError{Format: "DDS", Feature: "FourCC " + printableFourCC(cc)}
		}
	case pfFlags&(ddpfRGB|ddpfLuminance|ddpfAlpha) != 0:
		if bitCount != 8 && bitCount != 16 && bitCount != 24 && bitCount != 32 {
			return nil, errAt("DDS", -1, 88, "uncompressed bit count %d", bitCount)
		}
		l.bytesPP = int(bitCount / 8)
		l.masks = [4]uint32{le.Uint32(data[92:]), le.Uint32(data[96:]), le.Uint32(data[100:]), 0}
		if pfFlags&(ddpfAlphaPixels|ddpfAlpha) != 0 {
			l.masks[3] = le.Uint32(data[104:])
		}
		if pfFlags&ddpfAlpha != 0 && pfFlags&(ddpfRGB|ddpfLuminance) == 0 {
			l.masks[0], l.masks[1], l.masks[2] = 0, 0, 0
		}
		l.lum = pfFlags&ddpfLuminance != 0 && pfFlags&ddpfRGB == 0
	default:
		return nil, &UnsupportedError{Format: "DDS", Feature: "pixel format flags " + itoa(int(pfFlags))}
	}

	// Check every level against the file before anything is allocated.
	off := l.dataAt
	for i := range l.levels {
		n := l.levelSize(i)
		if n > len(data)-off {
			return nil, errAt("DDS", i, int64(off), "level needs %d bytes, the file has %d left", n, len(data)-off)
		}
		off += n
	}
	return l, nil
}

// fromDXGI maps the DXGI formats that textures for models use.
func (l *ddsLayout) fromDXGI(f uint32) error {
	switch f {
	case 70, 71, 72: // BC1 typeless, UNORM, UNORM_SRGB
		l.bc = 1
	case 73, 74, 75:
		l.bc = 2
	case 76, 77, 78:
		l.bc = 3
	case 79, 80:
		l.bc = 4
	case 82, 83:
		l.bc = 5
	case 27, 28, 29: // R8G8B8A8
		l.bytesPP, l.masks = 4, [4]uint32{0xff, 0xff00, 0xff0000, 0xff000000}
	case 87, 90, 91: // B8G8R8A8
		l.bytesPP, l.masks = 4, [4]uint32{0xff0000, 0xff00, 0xff, 0xff000000}
	case 88, 92, 93: // B8G8R8X8
		l.bytesPP, l.masks = 4, [4]uint32{0xff0000, 0xff00, 0xff, 0}
	default:
		return &UnsupportedError{Format: "DDS", Feature: "DXGI format " + itoa(int(f))}
	}
	return nil
}

func (l *ddsLayout) levelSize(i int) int {
	w, h := mipSize(l.w, l.h, i)
	if l.bc != 0 {
		return bcLevelSize(l.bc, w, h)
	}
	return w * h * l.bytesPP
}

func printableFourCC(cc uint32) string {
	b := []byte{byte(cc), byte(cc >> 8), byte(cc >> 16), byte(cc >> 24)}
	for _, c := range b {
		if c < 32 || c > 126 {
			return "0x" + itoaHex(cc)
		}
	}
	return "\"" + string(b) + "\""
}

func itoaHex(v uint32) string {
	const hex = "0123456789abcdef"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = hex[v&15]
		v >>= 4
	}
	return string(b[:])
}

// DecodeDDSConfig reads a DDS header.
func DecodeDDSConfig(data []byte) (Config, error) {
	l, err := parseDDS(data, nil)
	if err != nil {
		return Config{}, err
	}
	return Config{Format: FormatDDS, Width: l.w, Height: l.h, Levels: l.levels}, nil
}

// DecodeDDS decodes a DDS texture: DXT1-5, ATI1/BC4, ATI2/BC5 (as red and
// green, blue 0, alpha 1, as a GPU samples them), uncompressed RGB(A),
// luminance and alpha, with or without a DX10 header. For cube maps only
// the first face is decoded.
func DecodeDDS(data []byte, o *Options) (*Texture, error) {
	mf, err := openDDS(data, o)
	if err != nil {
		return nil, err
	}
	return mf.decodeAll(o)
}

// openDDS checks a DDS header, that the file holds every level, and the
// pixel budget, without decoding a pixel.
func openDDS(data []byte, o *Options) (*mipFile, error) {
	l, err := parseDDS(data, o)
	if err != nil {
		return nil, err
	}
	if err := newPixelBudget("DDS", o).chargeLevels(l.w, l.h, l.levels); err != nil {
		return nil, err
	}
	offs := make([]int, l.levels+1)
	offs[0] = l.dataAt
	for i := range l.levels {
		offs[i+1] = offs[i] + l.levelSize(i)
	}
	mf := &mipFile{format: FormatDDS, w: l.w, h: l.h, n: l.levels}
	mf.decode = func(i int) (*image.NRGBA, error) {
		w, h := mipSize(l.w, l.h, i)
		src := data[offs[i]:offs[i+1]]
		if l.bc != 0 {
			return decodeBC(l.bc, src, w, h)
		}
		return l.decodeMasked(src, w, h), nil
	}
	return mf, nil
}

// decodeMasked decodes uncompressed pixels described by bit masks.
func (l *ddsLayout) decodeMasked(src []byte, w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	var shift [4]int
	for c, m := range l.masks {
		if m != 0 {
			shift[c] = bits.TrailingZeros32(m)
		}
	}
	chan8 := func(v uint32, c int) uint8 {
		if l.masks[c] == 0 {
			if c == 3 {
				return 255
			}
			return 0
		}
		x := (v & l.masks[c]) >> shift[c]
		maxv := uint64(l.masks[c] >> shift[c]) // also right for gappy masks
		return uint8((uint64(x)*255 + maxv/2) / maxv)
	}
	bpp := l.bytesPP
	for i := range w * h {
		p := src[i*bpp:]
		var v uint32
		for k := range bpp {
			v |= uint32(p[k]) << (8 * k)
		}
		d := dst.Pix[4*i : 4*i+4]
		d[0], d[1], d[2], d[3] = chan8(v, 0), chan8(v, 1), chan8(v, 2), chan8(v, 3)
		if l.lum {
			d[1], d[2] = d[0], d[0]
		}
	}
	return dst
}
