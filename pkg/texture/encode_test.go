package texture

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Tiny encoders used only by the tests, so fixtures are exact and made
// from values the test states.

// blp1Palette builds a palettised BLP1 with the given levels; each level is
// a slice of palette indices and an already packed alpha plane.
func blp1Palette(w, h int, alphaBits uint32, pal [256][4]uint8, levels [][]byte) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	hdr := make([]byte, 156)
	copy(hdr, "BLP1")
	le.PutUint32(hdr[4:], blpDirect)
	le.PutUint32(hdr[8:], alphaBits)
	le.PutUint32(hdr[12:], uint32(w))
	le.PutUint32(hdr[16:], uint32(h))
	le.PutUint32(hdr[20:], 5)
	if len(levels) > 1 {
		le.PutUint32(hdr[24:], 1)
	}
	off := 156 + 1024
	for i, l := range levels {
		le.PutUint32(hdr[28+4*i:], uint32(off))
		le.PutUint32(hdr[92+4*i:], uint32(len(l)))
		off += len(l)
	}
	b.Write(hdr)
	for _, e := range pal {
		b.Write([]byte{e[2], e[1], e[0], e[3]}) // stored B,G,R,A
	}
	for _, l := range levels {
		b.Write(l)
	}
	return b.Bytes()
}

// packLSB packs values of bits each, least-significant bit first.
func packLSB(vals []uint8, bits int) []byte {
	if bits == 0 {
		return nil
	}
	out := make([]byte, (len(vals)*bits+7)/8)
	for i, v := range vals {
		bit := i * bits
		out[bit/8] |= v << (bit % 8)
	}
	return out
}

// flatJPEG writes a baseline JPEG with four components (no Adobe marker,
// like BLP1) whose every 8×8 block is flat: planes[c][block] is the value
// of component c in that block. With quantisation 1 and only DC terms the
// decode is exact. It returns the header (up to and including SOS) and the
// scan data separately, the way BLP1 stores them.
func flatJPEG(w, h int, planes [4][]uint8) (header, scan []byte) {
	var hb bytes.Buffer
	seg := func(marker byte, body []byte) {
		hb.Write([]byte{0xff, marker, byte((len(body) + 2) >> 8), byte(len(body) + 2)})
		hb.Write(body)
	}
	hb.Write([]byte{0xff, 0xd8})
	dqt := make([]byte, 65)
	for i := 1; i < 65; i++ {
		dqt[i] = 1
	}
	seg(0xdb, dqt)
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 4}
	for c := range 4 {
		sof = append(sof, byte(c+1), 0x11, 0)
	}
	seg(0xc0, sof)
	// DC table: categories 0..11, each with a 4-bit code (12 codes of
	// length 4). AC table: only EOB (0x00) with a 1-bit code.
	dc := append([]byte{0x00, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
	seg(0xc4, dc)
	ac := []byte{0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00}
	seg(0xc4, ac)
	sos := []byte{4}
	for c := range 4 {
		sos = append(sos, byte(c+1), 0x00)
	}
	sos = append(sos, 0, 63, 0)
	seg(0xda, sos)

	var bw bitWriter
	bx, by := (w+7)/8, (h+7)/8
	var pred [4]int
	for blk := range bx * by {
		for c := range 4 {
			dcv := (int(planes[c][blk]) - 128) * 8
			diff := dcv - pred[c]
			pred[c] = dcv
			cat, bits := 0, diff
			for a := max(diff, -diff); a > 0; a >>= 1 {
				cat++
			}
			if diff < 0 {
				bits = diff + (1 << cat) - 1
			}
			bw.put(uint32(cat), 4) // code for category cat
			bw.put(uint32(bits), cat)
			bw.put(0, 1) // EOB
		}
	}
	bw.flush()
	scan = append(bw.buf, 0xff, 0xd9)
	return hb.Bytes(), scan
}

type bitWriter struct {
	buf  []byte
	acc  uint32
	nacc int
}

func (b *bitWriter) put(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		b.acc = b.acc<<1 | (v>>i)&1
		b.nacc++
		if b.nacc == 8 {
			b.emit(byte(b.acc))
		}
	}
}

func (b *bitWriter) emit(c byte) {
	b.buf = append(b.buf, c)
	if c == 0xff {
		b.buf = append(b.buf, 0)
	}
	b.acc, b.nacc = 0, 0
}

func (b *bitWriter) flush() {
	for b.nacc != 0 {
		b.put(1, 1)
	}
}

// blp2 builds a BLP2 with the given compression byte, alpha fields and
// level payloads; palette is written when non-nil.
func blp2(w, h int, compression, alphaBits, alphaType uint8, palette []byte, levels [][]byte) []byte {
	le := binary.LittleEndian
	hdr := make([]byte, 148)
	copy(hdr, "BLP2")
	le.PutUint32(hdr[4:], blpDirect)
	hdr[8], hdr[9], hdr[10] = compression, alphaBits, alphaType
	if len(levels) > 1 {
		hdr[11] = 1
	}
	le.PutUint32(hdr[12:], uint32(w))
	le.PutUint32(hdr[16:], uint32(h))
	off := 148 + len(palette)
	for i, l := range levels {
		le.PutUint32(hdr[20+4*i:], uint32(off))
		le.PutUint32(hdr[84+4*i:], uint32(len(l)))
		off += len(l)
	}
	out := append(hdr, palette...)
	for _, l := range levels {
		out = append(out, l...)
	}
	return out
}

// dds builds a DDS file. fourcc "" writes an uncompressed RGB(A) pixel
// format with the given bit count and masks; "DX10" appends a DX10 header
// with dxgi.
func dds(w, h, mips int, fourcc string, dxgi uint32, bitCount uint32, masks [4]uint32, data []byte) []byte {
	le := binary.LittleEndian
	out := make([]byte, 128)
	copy(out, "DDS ")
	le.PutUint32(out[4:], 124)
	flags := uint32(0x1007)
	if mips > 0 {
		flags |= ddsdMipMapCount
	}
	le.PutUint32(out[8:], flags)
	le.PutUint32(out[12:], uint32(h))
	le.PutUint32(out[16:], uint32(w))
	le.PutUint32(out[28:], uint32(mips))
	le.PutUint32(out[76:], 32)
	if fourcc != "" {
		le.PutUint32(out[80:], ddpfFourCC)
		copy(out[84:], fourcc)
	} else {
		pf := uint32(ddpfRGB)
		if masks[3] != 0 {
			pf |= ddpfAlphaPixels
		}
		le.PutUint32(out[80:], pf)
		le.PutUint32(out[88:], bitCount)
		for i, m := range masks {
			le.PutUint32(out[92+4*i:], m)
		}
	}
	if fourcc == "DX10" {
		ext := make([]byte, 20)
		le.PutUint32(ext, dxgi)
		le.PutUint32(ext[4:], 3)
		le.PutUint32(ext[12:], 1)
		out = append(out, ext...)
	}
	return append(out, data...)
}

// tgaFile writes an uncompressed top-left TGA with 24 or 32 bits per pixel
// from an NRGBA image, optionally with the TGA 2.0 footer.
func tgaFile(im *image.NRGBA, bpp int, footer bool) []byte {
	w, h := im.Rect.Dx(), im.Rect.Dy()
	out := make([]byte, 18)
	out[2] = 2
	binary.LittleEndian.PutUint16(out[12:], uint16(w))
	binary.LittleEndian.PutUint16(out[14:], uint16(h))
	out[16] = byte(bpp)
	out[17] = 0x20
	if bpp == 32 {
		out[17] |= 8
	}
	for i := 0; i < len(im.Pix); i += 4 {
		p := im.Pix[i:]
		out = append(out, p[2], p[1], p[0])
		if bpp == 32 {
			out = append(out, p[3])
		}
	}
	if footer {
		out = append(out, make([]byte, 8)...)
		out = append(out, tgaSignature...)
	}
	return out
}
