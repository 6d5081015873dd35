package texture

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/draw"

	"github.com/blezek/tga"
)

// TGA goes through github.com/blezek/tga: the decoder of
// github.com/ftrvxmtrx/tga without that package's init, which registers a
// catch-all format with image.RegisterFormat and so breaks image.Decode
// for PNG in any program linking it. The guards below cover the defects
// found in that code (docs/formats.md#tga): it allocates whatever the header
// asks for, it fails on files under 26 bytes, it misreads colour maps that
// do not start at entry 0 and decodes 15-bit colour maps as white.

const (
	tgaHeaderSize = 18
	tgaFooterSize = 26
)

var tgaSignature = []byte("TRUEVISION-XFILE.\x00")

// tgaHeader is the fixed 18-byte TGA header.
type tgaHeader struct {
	idLen, cmapType, imageType uint8
	cmapFirst, cmapLen         uint16
	cmapBits                   uint8
	w, h                       int
	bpp, desc                  uint8
}

func readTGAHeader(data []byte) (tgaHeader, bool) {
	if len(data) < tgaHeaderSize {
		return tgaHeader{}, false
	}
	le := binary.LittleEndian
	return tgaHeader{
		idLen: data[0], cmapType: data[1], imageType: data[2],
		cmapFirst: le.Uint16(data[3:]), cmapLen: le.Uint16(data[5:]), cmapBits: data[7],
		w: int(le.Uint16(data[12:])), h: int(le.Uint16(data[14:])),
		bpp: data[16], desc: data[17],
	}, true
}

// looksLikeTGA recognises a TGA by its 2.0 footer or, for older files, a
// header whose fields all have legal values.
func looksLikeTGA(data []byte) bool {
	if len(data) >= tgaFooterSize && bytes.Equal(data[len(data)-len(tgaSignature):], tgaSignature) {
		return true
	}
	h, ok := readTGAHeader(data)
	if !ok || h.cmapType > 1 || h.w == 0 || h.h == 0 || h.desc&0xc0 != 0 {
		return false
	}
	switch h.imageType {
	case 1, 9:
		return h.cmapType == 1 && h.bpp == 8
	case 2, 10:
		return h.bpp == 16 || h.bpp == 24 || h.bpp == 32
	case 3, 11:
		return h.bpp == 8 || h.bpp == 16
	}
	return false
}

// checkTGA applies the guards that must hold before the decoder runs.
func checkTGA(data []byte, o *Options) (tgaHeader, error) {
	h, ok := readTGAHeader(data)
	if !ok {
		return h, errAt("TGA", -1, int64(len(data)), "file is %d bytes, too short for the 18-byte header", len(data))
	}
	if err := checkDims("TGA", h.w, h.h, o); err != nil {
		return h, err
	}
	if h.cmapType == 1 && h.cmapFirst != 0 {
		return h, &UnsupportedError{Format: "TGA", Feature: "colour map starting at entry " + itoa(int(h.cmapFirst))}
	}
	if h.imageType&7 == 1 && h.cmapBits == 15 {
		return h, &UnsupportedError{Format: "TGA", Feature: "15-bit colour map"}
	}
	// The pixels must fit in what follows the header, ID and colour map.
	// An RLE packet of 1+k bytes makes at most 128 pixels.
	pix := int64(h.w) * int64(h.h)
	bytesPP := int64(max(h.bpp/8, 1))
	avail := int64(len(data)) - tgaHeaderSize - int64(h.idLen)
	if h.cmapType == 1 {
		avail -= int64(h.cmapLen) * int64((h.cmapBits+1)/8)
	}
	need := pix * bytesPP
	if h.imageType&8 != 0 {
		need = (pix + 127) / 128 * (1 + bytesPP)
	}
	if avail < need {
		return h, errAt("TGA", 0, tgaHeaderSize, "%dx%d image needs at least %d bytes of pixel data, the file has %d",
			h.w, h.h, need, max(avail, 0))
	}
	return h, nil
}

// padTGA lets the decoder's footer probe (a seek to 26 bytes before the
// end) work on tiny files; the zero bytes are never read as pixels.
func padTGA(data []byte) []byte {
	if len(data) >= tgaFooterSize {
		return data
	}
	p := make([]byte, tgaFooterSize+len(data))
	copy(p, data)
	return p
}

// DecodeTGAConfig reads a TGA header after the same checks DecodeTGA makes.
func DecodeTGAConfig(data []byte) (Config, error) {
	h, err := checkTGA(data, nil)
	if err != nil {
		return Config{}, err
	}
	return Config{Format: FormatTGA, Width: h.w, Height: h.h, Levels: 1}, nil
}

// DecodeTGA decodes a TGA image (true-colour, grey or colour-mapped, raw or
// RLE). TGA has no mip levels, so the result has one level.
func DecodeTGA(data []byte, o *Options) (*Texture, error) {
	h, err := checkTGA(data, o)
	if err != nil {
		return nil, err
	}
	// The decoder's image, then (for RGBA results) the NRGBA copy.
	px := int64(h.w) * int64(h.h)
	if err := newPixelBudget("TGA", o).add(-1, 2*px, "a %dx%d TGA decoded and converted", h.w, h.h); err != nil {
		return nil, err
	}
	im, err := tga.Decode(bytes.NewReader(padTGA(data)))
	if err != nil {
		return nil, &FormatError{Format: "TGA", Mip: 0, Offset: -1, Reason: "cannot decode", Err: err}
	}
	return &Texture{Format: FormatTGA, Levels: []*image.NRGBA{toNRGBA(im)}}, nil
}

// toNRGBA converts any image to a zero-origin straight-alpha NRGBA.
func toNRGBA(im image.Image) *image.NRGBA {
	b := im.Bounds()
	if n, ok := im.(*image.NRGBA); ok && b.Min == (image.Point{}) && n.Stride == 4*b.Dx() {
		return n
	}
	dst := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Rect, im, b.Min, draw.Src)
	return dst
}
