package texture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"

	"github.com/mdxrender/mdxrender/internal/bufpool"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// BLP header sizes: BLP1 has 7 u32 fields before the mip tables, BLP2 packs
// four of its fields into bytes.
const (
	blp1TablesAt = 28
	blp2TablesAt = 20
	blpPalette   = 1024
)

// BLP content and compression values.
const (
	blpJPEG    = 0
	blpDirect  = 1
	blp2Pal    = 1
	blp2DXT    = 2
	blp2Raw    = 3
	blpMaxMips = 16
)

// blpHeader mirrors the fields of a BLP1 or BLP2 header that decoding needs.
type blpHeader struct {
	version     int    // 1 or 2
	content     uint32 // 0 JPEG, 1 direct
	compression uint8  // BLP2 only: 1 palette, 2 DXT, 3 raw BGRA
	alphaBits   uint32
	alphaType   uint8 // BLP2 only: DXT variant
	hasMips     bool
	w, h        int
	offsets     [blpMaxMips]uint32
	sizes       [blpMaxMips]uint32
	dataAt      int // where the palette or JPEG header starts
	levels      int // mip levels that will be decoded
}

func (h *blpHeader) name() string {
	if h.version == 2 {
		return "BLP2"
	}
	return "BLP1"
}

func (h *blpHeader) format() Format {
	if h.content == blpJPEG {
		if h.version == 2 {
			return FormatBLP2JPEG
		}
		return FormatBLP1JPEG
	}
	if h.version == 1 {
		return FormatBLP1Palette
	}
	switch h.compression {
	case blp2Pal:
		return FormatBLP2Palette
	case blp2Raw:
		return FormatBLP2Raw
	}
	switch h.dxt() {
	case 1:
		return FormatBLP2DXT1
	case 3:
		return FormatBLP2DXT3
	}
	return FormatBLP2DXT5
}

// dxt maps BLP2's alpha type byte to a DXT variant (0 when unknown).
func (h *blpHeader) dxt() int {
	switch h.alphaType {
	case 0:
		return 1
	case 1:
		return 3
	case 7:
		return 5
	}
	return 0
}

// parseBLPHeader reads and validates everything up to the mip tables, so
// that no allocation depends on an unchecked field.
func parseBLPHeader(data []byte, o *Options) (*blpHeader, error) {
	if len(data) < 4 {
		return nil, errAt("BLP", -1, 0, "file is %d bytes, too short for a header", len(data))
	}
	h := &blpHeader{}
	le := binary.LittleEndian
	switch string(data[:4]) {
	case "BLP0":
		return nil, &UnsupportedError{Format: "BLP0", Feature: "mip levels stored in separate .b00-.b15 files"}
	case "BLP1":
		h.version = 1
		if len(data) < blp1TablesAt+8*blpMaxMips {
			return nil, errAt("BLP1", -1, int64(len(data)), "file is %d bytes, too short for the 156-byte header", len(data))
		}
		h.content = le.Uint32(data[4:])
		h.alphaBits = le.Uint32(data[8:])
		h.w = int(le.Uint32(data[12:]))
		h.h = int(le.Uint32(data[16:]))
		h.hasMips = le.Uint32(data[24:]) != 0
		h.dataAt = blp1TablesAt + 8*blpMaxMips
		for i := range blpMaxMips {
			h.offsets[i] = le.Uint32(data[blp1TablesAt+4*i:])
			h.sizes[i] = le.Uint32(data[blp1TablesAt+64+4*i:])
		}
		if h.content > blpDirect {
			return nil, &UnsupportedError{Format: "BLP1", Feature: "content type " + itoa(int(h.content))}
		}
	case "BLP2":
		h.version = 2
		if len(data) < blp2TablesAt+8*blpMaxMips {
			return nil, errAt("BLP2", -1, int64(len(data)), "file is %d bytes, too short for the 148-byte header", len(data))
		}
		h.content = le.Uint32(data[4:])
		h.compression = data[8]
		h.alphaBits = uint32(data[9])
		h.alphaType = data[10]
		h.hasMips = data[11] != 0
		h.w = int(le.Uint32(data[12:]))
		h.h = int(le.Uint32(data[16:]))
		h.dataAt = blp2TablesAt + 8*blpMaxMips
		for i := range blpMaxMips {
			h.offsets[i] = le.Uint32(data[blp2TablesAt+4*i:])
			h.sizes[i] = le.Uint32(data[blp2TablesAt+64+4*i:])
		}
		if h.content > blpDirect {
			return nil, &UnsupportedError{Format: "BLP2", Feature: "content type " + itoa(int(h.content))}
		}
		if h.content == blpDirect {
			switch h.compression {
			case blp2Pal, blp2Raw:
			case blp2DXT:
				if h.dxt() == 0 {
					return nil, &UnsupportedError{Format: "BLP2", Feature: "DXT alpha type " + itoa(int(h.alphaType))}
				}
			default:
				return nil, &UnsupportedError{Format: "BLP2", Feature: "compression " + itoa(int(h.compression))}
			}
		}
	default:
		return nil, errAt("BLP", -1, 0, "bad magic %q", data[:4])
	}
	// Widths are u32 in the file; reading them into int first keeps a value
	// like 0x80000000 from turning negative on 32-bit platforms only.
	if err := checkDims(h.name(), h.w, h.h, o); err != nil {
		return nil, err
	}

	// A level exists while its size is non-zero. Levels that share an
	// offset are "fake" mips (the reference viewer then uses level 0 only,
	// and so do we) and a file without the mips flag has just level 0.
	h.levels = 0
	limit := maxLevels(h.w, h.h)
	for i := 0; i < limit && h.sizes[i] > 0; i++ {
		h.levels++
		if !h.hasMips || o.firstOnly() {
			break
		}
	}
	if h.levels == 0 {
		return nil, errAt(h.name(), 0, int64(h.dataAt-64), "no mip level has a non-zero size")
	}
	for i := 1; i < h.levels; i++ {
		for j := range i {
			if h.offsets[i] == h.offsets[j] {
				h.levels = 1
			}
		}
	}
	for i := range h.levels {
		end := uint64(h.offsets[i]) + uint64(h.sizes[i])
		if end > uint64(len(data)) {
			return nil, errAt(h.name(), i, int64(h.offsets[i]),
				"mip data of %d bytes runs past the end of the %d-byte file", h.sizes[i], len(data))
		}
	}
	return h, nil
}

// DecodeBLPConfig reads a BLP1 or BLP2 header.
func DecodeBLPConfig(data []byte) (Config, error) {
	h, err := parseBLPHeader(data, nil)
	if err != nil {
		return Config{}, err
	}
	return Config{Format: h.format(), Width: h.w, Height: h.h, Levels: h.levels}, nil
}

// DecodeBLP decodes a BLP1 (JPEG or palettised) or BLP2 (JPEG, palette,
// DXT1/3/5, raw BGRA) texture with all of its mip levels.
func DecodeBLP(data []byte, o *Options) (*Texture, error) {
	mf, err := openBLP(data, o)
	if err != nil {
		return nil, err
	}
	return mf.decodeAll(o)
}

// openBLP checks a BLP's header, the layout of every mip level (for JPEG,
// each level's frame and scans) and the pixel budget, without decoding a
// pixel. A level after the first that fails the checks cuts the chain
// there (mipFile.levelErr) unless Options.Strict.
func openBLP(data []byte, o *Options) (*mipFile, error) {
	h, err := parseBLPHeader(data, o)
	if err != nil {
		return nil, err
	}
	budget := newPixelBudget(h.name(), o)
	if err := budget.chargeLevels(h.w, h.h, h.levels); err != nil {
		return nil, err
	}
	mf := &mipFile{format: h.format(), w: h.w, h: h.h, n: h.levels}
	if h.content == blpJPEG {
		header, mips, lerr, err := h.jpegLevels(data, budget, o)
		if err != nil {
			return nil, err
		}
		mf.n, mf.levelErr = len(mips), lerr
		alpha := h.alphaBits != 0
		mf.decode = func(i int) (*image.NRGBA, error) {
			w, hh := mipSize(h.w, h.h, i)
			stream := appendJPEGLevel(jpegScratch.Get(), header, mips[i])
			img, err := decodeBLPJPEG(stream, w, hh, alpha)
			jpegScratch.Put(stream)
			return img, h.decodeError(err, i)
		}
		return mf, nil
	}
	var palette []byte
	if h.version == 1 || h.compression == blp2Pal {
		if len(data) < h.dataAt+blpPalette {
			return nil, errAt(h.name(), -1, int64(h.dataAt), "file ends inside the 256-colour palette")
		}
		palette = data[h.dataAt : h.dataAt+blpPalette]
	}
	// Every level's size is checked now, so that decoding a level later
	// fails only where the data itself is bad.
	for i := range h.levels {
		w, hh := mipSize(h.w, h.h, i)
		var err error
		switch {
		case palette != nil:
			err = checkBLPPalette(data, int(h.offsets[i]), w, hh, h.alphaBits)
		case h.compression == blp2Raw:
			err = checkSize("raw level", int(h.sizes[i]), w*hh*4)
		default:
			err = checkSize("block data truncated: level", int(h.sizes[i]), bcLevelSize(dxtBC(h.dxt()), w, hh))
		}
		if err != nil {
			fe := h.levelError(err, i)
			if i == 0 || o.strict() {
				return nil, fe
			}
			mf.n, mf.levelErr = i, fe
			break
		}
	}
	mf.decode = func(i int) (*image.NRGBA, error) {
		w, hh := mipSize(h.w, h.h, i)
		mip := data[h.offsets[i] : h.offsets[i]+h.sizes[i]]
		var img *image.NRGBA
		var err error
		switch {
		case palette != nil:
			img, err = decodeBLPPalette(palette, data, int(h.offsets[i]), w, hh, h.alphaBits)
		case h.compression == blp2Raw:
			img, err = decodeBGRA(mip, w, hh, h.alphaBits != 0)
		default:
			img, err = decodeDXT(h.dxt(), mip, w, hh, h.alphaBits == 0)
		}
		return img, h.decodeError(err, i)
	}
	return mf, nil
}

// checkSize fails when a level of need bytes has only have.
func checkSize(what string, have, need int) error {
	if have < need {
		return errAt("", -1, -1, "%s needs %d bytes, has %d", what, need, have)
	}
	return nil
}

// decodeError names the format and level in a level decoder's error.
func (h *blpHeader) decodeError(err error, i int) error {
	if err == nil {
		return nil
	}
	if ue, isU := err.(*UnsupportedError); isU {
		ue.Format = h.name()
		return ue
	}
	return h.levelError(err, i)
}

// levelError turns a decoder's error at level i into a *FormatError naming
// the format, level and (when the decoder did not say) the level's offset.
func (h *blpHeader) levelError(err error, i int) *FormatError {
	fe, ok := err.(*FormatError)
	if !ok {
		return &FormatError{Format: h.name(), Mip: i, Offset: int64(h.offsets[i]), Reason: "bad JPEG data", Err: err}
	}
	fe.Format, fe.Mip = h.name(), i
	if fe.Offset < 0 {
		fe.Offset = int64(h.offsets[i])
	}
	return fe
}

// jpegLevels returns the shared JPEG header and the bytes of every level
// to decode, once each level's stream (the header followed by the
// level's bytes, jpegLevel) has had its frame and scans checked and its
// decoding charged to budget, before any level is decoded. A bad level
// after the first cuts the chain there (lerr) unless Options.Strict; a
// level over a budget fails the whole decode.
//
// The streams are put together again when a level is decoded, in a
// scratch buffer: kept from here, they were a second copy of the file's
// JPEG data for as long as the texture was.
func (h *blpHeader) jpegLevels(data []byte, budget *pixelBudget, o *Options) (header []byte, mips [][]byte, lerr, err error) {
	if len(data) < h.dataAt+4 {
		return nil, nil, nil, errAt(h.name(), -1, int64(h.dataAt), "file ends before the JPEG header size")
	}
	n := binary.LittleEndian.Uint32(data[h.dataAt:])
	if uint64(n) > uint64(len(data)-h.dataAt-4) {
		return nil, nil, nil, errAt(h.name(), -1, int64(h.dataAt), "JPEG header size %d runs past the end of the file", n)
	}
	header = data[h.dataAt+4 : h.dataAt+4+int(n)]
	for i := range h.levels {
		mip := data[h.offsets[i] : h.offsets[i]+h.sizes[i]]
		if err := h.jpegLevel(header, mip, i, budget, o); err != nil {
			fe, ok := err.(*FormatError)
			if !ok {
				return nil, nil, nil, err // over a budget
			}
			fe = h.levelError(fe, i)
			if i == 0 || o.strict() {
				return nil, nil, nil, fe
			}
			return header, mips, fe, nil
		}
		mips = append(mips, mip)
	}
	return header, mips, nil, nil
}

// appendJPEGLevel appends a level's JPEG stream to dst: an SOI marker, an
// Adobe marker, then the shared header after its own SOI (or, with a
// header too short to hold one, the level's bytes after theirs) and the
// level's bytes. jpegLevel has checked that the two start with an SOI.
func appendJPEGLevel(dst, header, mip []byte) []byte {
	dst = append(dst, 0xff, jpegSOI)
	dst = append(dst, adobeApp14...)
	if len(header) >= 2 {
		return append(append(dst, header[2:]...), mip...)
	}
	return append(dst, mip[2-len(header):]...)
}

// jpegScratch keeps the buffers levels' streams are put together in: no
// decoder keeps a stream's bytes once it returns.
var jpegScratch = bufpool.Pool{Max: 4 << 20}

// adobeApp14 is an Adobe APP14 segment with colour transform 0. Go's JPEG
// decoder refuses 4-component streams without one; with it, it returns the
// four raw planes (inverted, as CMYK) instead of converting colours.
var adobeApp14 = []byte{0xff, 0xee, 0x00, 0x0e, 'A', 'd', 'o', 'b', 'e', 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00}

// jpegLevel checks level i's JPEG stream (appendJPEGLevel): the frame
// fits in the texture (the JPEG decoder allocates the frame's size, not
// the level's; real files carry frames larger than their level, never
// larger than the texture), a sequential stream has at most one scan per
// component, a progressive one at most MaxJPEGScans, the data can hold
// the frame, and the decoder's working pictures fit in the pixel budget.
func (h *blpHeader) jpegLevel(header, mip []byte, i int, budget *pixelBudget, o *Options) error {
	n := len(header) + len(mip)
	first := func(k int) byte {
		if k < len(header) {
			return header[k]
		}
		return mip[k-len(header)]
	}
	if n < 2 || first(0) != 0xff || first(1) != jpegSOI {
		return errAt("", -1, -1, "JPEG data does not start with an SOI marker")
	}
	stream := appendJPEGLevel(jpegScratch.Get(), header, mip)
	defer jpegScratch.Put(stream)
	f, ferr := parseJPEGFrame(stream)
	if ferr != nil {
		return ferr
	}
	if f.comps == 0 {
		return errAt("", -1, -1, "JPEG data has no frame header")
	}
	if f.width > h.w || f.height > h.h {
		return errAt("", -1, -1, "JPEG frame %dx%d is larger than the %dx%d texture", f.width, f.height, h.w, h.h)
	}
	if err := checkScans(&f, h.name(), i, o); err != nil {
		return err
	}
	if err := jpegFits(image.Config{Width: f.width, Height: f.height}, len(stream)); err != nil {
		return err
	}
	if err := budget.add(i, (f.decodeBytes()+3)/4, "with its %dx%d JPEG frame decoded", f.width, f.height); err != nil {
		return err
	}
	// A level cut off before its end cannot decode; saying so now lets a
	// picture that never samples the levels before it keep the same chain
	// as one that decodes them all.
	if !f.eoi {
		return errAt("", -1, -1, "JPEG data ends before its end-of-image marker")
	}
	return nil
}

// checkScans refuses a sequential stream with more scans than components
// (each scan decodes whole blocks again; a valid one codes each component
// once) and a progressive one with more than MaxJPEGScans.
func checkScans(f *jpegFrame, format string, mip int, o *Options) error {
	if !f.progressive && f.scans > f.comps {
		return errAt(format, mip, -1, "sequential JPEG with %d scans for %d components", f.scans, f.comps)
	}
	if m := o.maxScans(); f.progressive && f.scans > m {
		return overBudget(budget.JPEGScans, int64(m), int64(f.scans), format, mip, fmt.Sprintf("progressive JPEG frame %dx%d", f.width, f.height))
	}
	return nil
}

// decodeBLPJPEG decodes one JPEG mip level whose stream jpegLevel built and
// checked. The four components are stored B, G, R, A. The fast decoder
// (jpegdec.go) takes the streams it is sure to decode exactly as
// decodeBLPJPEGStd does; image/jpeg decodes the rest.
func decodeBLPJPEG(stream []byte, w, h int, hasAlpha bool) (*image.NRGBA, error) {
	if img, err := decodeBLPJPEGFast(stream, w, h, hasAlpha); err == nil {
		return img, nil
	}
	return decodeBLPJPEGStd(stream, w, h, hasAlpha)
}

// decodeBLPJPEGStd decodes a level with image/jpeg.
func decodeBLPJPEGStd(stream []byte, w, h int, hasAlpha bool) (*image.NRGBA, error) {
	im, err := jpeg.Decode(bytes.NewReader(stream))
	if err != nil {
		return nil, &FormatError{Mip: -1, Offset: -1, Reason: "bad JPEG data", Err: err}
	}
	// Some files carry JPEG frames whose size differs from the mip size;
	// like the reference viewer we keep the level's computed size and
	// copy the overlapping part.
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	b := im.Bounds()
	cw, ch := min(w, b.Dx()), min(h, b.Dy())
	switch src := im.(type) {
	case *image.CMYK:
		for y := range ch {
			s := src.Pix[y*src.Stride : y*src.Stride+cw*4]
			d := dst.Pix[y*dst.Stride : y*dst.Stride+cw*4]
			for x := 0; x < len(s); x += 4 {
				d[x+0] = 255 - s[x+2]
				d[x+1] = 255 - s[x+1]
				d[x+2] = 255 - s[x+0]
				if hasAlpha {
					d[x+3] = 255 - s[x+3]
				} else {
					d[x+3] = 255
				}
			}
		}
	case *image.RGBA: // three planes, B, G, R
		for y := range ch {
			s := src.Pix[y*src.Stride : y*src.Stride+cw*4]
			d := dst.Pix[y*dst.Stride : y*dst.Stride+cw*4]
			for x := 0; x < len(s); x += 4 {
				d[x+0], d[x+1], d[x+2], d[x+3] = s[x+2], s[x+1], s[x+0], 255
			}
		}
	case *image.Gray:
		for y := range ch {
			s := src.Pix[y*src.Stride : y*src.Stride+cw]
			d := dst.Pix[y*dst.Stride : y*dst.Stride+cw*4]
			for x, v := range s {
				d[4*x+0], d[4*x+1], d[4*x+2], d[4*x+3] = v, v, v, 255
			}
		}
	default:
		return nil, &UnsupportedError{Feature: "JPEG colour layout " + typeName(im)}
	}
	if !hasAlpha && (cw < w || ch < h) {
		for i := 3; i < len(dst.Pix); i += 4 {
			dst.Pix[i] = 255
		}
	}
	return dst, nil
}

// decodeBLPPalette decodes w×h palette indices at off, followed by an alpha
// plane of alphaBits per pixel packed least-significant bit first.
func decodeBLPPalette(pal, data []byte, off, w, h int, alphaBits uint32) (*image.NRGBA, error) {
	if err := checkBLPPalette(data, off, w, h, alphaBits); err != nil {
		return nil, err
	}
	n := w * h
	bits := int(min(alphaBits, 8)) // the reference viewer caps it at 8
	need := n + (n*bits+7)/8
	idx := data[off : off+n]
	alpha := data[off+n : off+need]
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	p := dst.Pix[:4*n]
	// One 32-bit store per pixel from a table of RGBA entries is several
	// times faster than four byte stores with bounds checks.
	var lut [256]uint32
	for i := range lut {
		e := pal[4*i : 4*i+4]
		lut[i] = uint32(e[2]) | uint32(e[1])<<8 | uint32(e[0])<<16 | 0xff<<24
	}
	for i, c := range idx {
		binary.LittleEndian.PutUint32(p[4*i:], lut[c])
	}
	switch bits {
	case 0:
	case 8:
		for i, a := range alpha {
			p[4*i+3] = a
		}
	default:
		maxv := uint32(1)<<bits - 1
		for i := range n {
			bit := i * bits
			// A value never straddles bytes for 1, 2, 4 bits; for others
			// read two bytes so it can.
			v := uint32(alpha[bit>>3])
			if bit>>3+1 < len(alpha) {
				v |= uint32(alpha[bit>>3+1]) << 8
			}
			v = (v >> (bit & 7)) & maxv
			p[4*i+3] = uint8((v*255 + maxv/2) / maxv)
		}
	}
	return dst, nil
}

// checkBLPPalette checks that the file holds a palette level of w×h at off.
func checkBLPPalette(data []byte, off, w, h int, alphaBits uint32) error {
	n := w * h
	bits := int(min(alphaBits, 8))
	need := n + (n*bits+7)/8
	if len(data)-off < need {
		return errAt("", -1, int64(off), "palette level needs %d bytes, the file has %d", need, len(data)-off)
	}
	return nil
}

// decodeBGRA decodes w×h 4-byte B,G,R,A pixels.
func decodeBGRA(src []byte, w, h int, hasAlpha bool) (*image.NRGBA, error) {
	need := w * h * 4
	if len(src) < need {
		return nil, errAt("", -1, -1, "raw level needs %d bytes, has %d", need, len(src))
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	p := dst.Pix
	for i := 0; i < need; i += 4 {
		p[i+0], p[i+1], p[i+2] = src[i+2], src[i+1], src[i+0]
		if hasAlpha {
			p[i+3] = src[i+3]
		} else {
			p[i+3] = 255
		}
	}
	return dst, nil
}
