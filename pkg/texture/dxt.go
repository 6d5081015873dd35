package texture

import (
	"encoding/binary"
	"image"
)

// Block decoders for S3TC/BCn. Written here rather than imported: the Go
// package that was evaluated reads DXT5 alpha indices from the wrong bytes
// and ignores DXT1's punch-through mode (docs/formats.md#dds).

// blockBytes returns the size of one 4×4 block for a BCn variant
// (1 = BC1/DXT1, 2 = BC2/DXT3, 3 = BC3/DXT5, 4 = BC4, 5 = BC5).
func blockBytes(bc int) int {
	if bc == 1 || bc == 4 {
		return 8
	}
	return 16
}

// bcLevelSize is the number of bytes a w×h level takes.
func bcLevelSize(bc, w, h int) int {
	return ((w + 3) / 4) * ((h + 3) / 4) * blockBytes(bc)
}

// decodeDXT decodes one BLP2 DXT level; variant is 1, 3 or 5. opaque
// forces alpha to 255, for DXT1 data in a file that declares no alpha.
func decodeDXT(variant int, src []byte, w, h int, opaque bool) (*image.NRGBA, error) {
	img, err := decodeBC(dxtBC(variant), src, w, h)
	if err != nil {
		return nil, err
	}
	if opaque {
		for i := 3; i < len(img.Pix); i += 4 {
			img.Pix[i] = 255
		}
	}
	return img, nil
}

// dxtBC maps a DXT variant (1, 3, 5) to its BCn number.
func dxtBC(variant int) int {
	switch variant {
	case 1:
		return 1
	case 3:
		return 2
	}
	return 3
}

// decodeBC decodes a w×h BCn level from src.
func decodeBC(bc int, src []byte, w, h int) (*image.NRGBA, error) {
	need := bcLevelSize(bc, w, h)
	if len(src) < need {
		return nil, errAt("", -1, -1, "block data truncated: level needs %d bytes, has %d", need, len(src))
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	bw, bh := (w+3)/4, (h+3)/4
	size := blockBytes(bc)
	var block [16][4]uint8
	for by := range bh {
		for bx := range bw {
			b := src[(by*bw+bx)*size:]
			switch bc {
			case 1:
				bc1Block(&block, b, true)
			case 2:
				bc1Block(&block, b[8:], false)
				for i := range 16 {
					nib := (b[i/2] >> (4 * (i & 1))) & 15
					block[i][3] = nib * 17
				}
			case 3:
				bc1Block(&block, b[8:], false)
				var a [16]uint8
				bc4Block(&a, b)
				for i := range 16 {
					block[i][3] = a[i]
				}
			case 4:
				var r [16]uint8
				bc4Block(&r, b)
				for i := range 16 {
					block[i] = [4]uint8{r[i], 0, 0, 255}
				}
			case 5:
				var r, g [16]uint8
				bc4Block(&r, b)
				bc4Block(&g, b[8:])
				for i := range 16 {
					block[i] = [4]uint8{r[i], g[i], 0, 255}
				}
			}
			// Copy the block, cropping at the right and bottom edges of
			// sizes that are not multiples of 4.
			for py := range 4 {
				y := by*4 + py
				if y >= h {
					break
				}
				row := dst.Pix[y*dst.Stride:]
				for px := range 4 {
					x := bx*4 + px
					if x >= w {
						break
					}
					copy(row[4*x:4*x+4], block[py*4+px][:])
				}
			}
		}
	}
	return dst, nil
}

// expand565 turns an RGB565 value into 8-bit channels by bit replication.
func expand565(c uint16) [3]int {
	r := int(c>>11) & 31
	g := int(c>>5) & 63
	b := int(c) & 31
	return [3]int{r<<3 | r>>2, g<<2 | g>>4, b<<3 | b>>2}
}

// bc1Block decodes the 8-byte colour part of a block. In BC1 (dxt1 true),
// c0 <= c1 selects three colours plus transparent black; BC2/BC3 colour
// blocks always use four colours.
func bc1Block(out *[16][4]uint8, b []byte, dxt1 bool) {
	c0 := binary.LittleEndian.Uint16(b[0:])
	c1 := binary.LittleEndian.Uint16(b[2:])
	e0, e1 := expand565(c0), expand565(c1)
	var pal [4][4]uint8
	for k := range 3 {
		pal[0][k] = uint8(e0[k])
		pal[1][k] = uint8(e1[k])
		if !dxt1 || c0 > c1 {
			pal[2][k] = uint8((2*e0[k] + e1[k] + 1) / 3)
			pal[3][k] = uint8((e0[k] + 2*e1[k] + 1) / 3)
		} else {
			pal[2][k] = uint8((e0[k] + e1[k]) / 2)
			pal[3][k] = 0
		}
	}
	pal[0][3], pal[1][3], pal[2][3], pal[3][3] = 255, 255, 255, 255
	if dxt1 && c0 <= c1 {
		pal[3][3] = 0
	}
	idx := binary.LittleEndian.Uint32(b[4:])
	for i := range 16 {
		out[i] = pal[(idx>>(2*i))&3]
	}
}

// bc4Block decodes an 8-byte BC4 (DXT5 alpha) block of one channel.
func bc4Block(out *[16]uint8, b []byte) {
	a0, a1 := int(b[0]), int(b[1])
	var pal [8]uint8
	pal[0], pal[1] = uint8(a0), uint8(a1)
	if a0 > a1 {
		for i := 1; i < 7; i++ {
			pal[i+1] = uint8(((7-i)*a0 + i*a1 + 3) / 7)
		}
	} else {
		for i := 1; i < 5; i++ {
			pal[i+1] = uint8(((5-i)*a0 + i*a1 + 2) / 5)
		}
		pal[6], pal[7] = 0, 255
	}
	// 48 bits of 3-bit indices, least significant first, in bytes 2..7.
	bits := uint64(b[2]) | uint64(b[3])<<8 | uint64(b[4])<<16 | uint64(b[5])<<24 | uint64(b[6])<<32 | uint64(b[7])<<40
	for i := range 16 {
		out[i] = pal[(bits>>(3*i))&7]
	}
}
