package texture

// The JPEG writer of BLP1 textures (docs/formats.md#writing-blp1). The
// game's BLP1 JPEG content is a baseline stream of four unsubsampled
// components holding B, G, R and A with no colour transform, which
// image/jpeg cannot write (it writes YCbCr or grey only). This one writes
// exactly that and nothing else: sequential DCT, 8-bit samples, one
// quantisation table shared by the four components, and the standard
// Huffman tables of the JPEG specification (ITU T.81 Annex K), the
// layout of the game's own icons (DC/AC tables 0 for the first
// component, 1 for the others). Everything is integer arithmetic, so
// the bytes are the same on every machine.

// jpegStdLuma is the example luminance quantisation table of T.81
// Annex K.1, in natural (row-major) order; quality scales it.
var jpegStdLuma = [64]uint16{
	16, 11, 10, 16, 24, 40, 51, 61,
	12, 12, 14, 19, 26, 58, 60, 55,
	14, 13, 16, 24, 40, 57, 69, 56,
	14, 17, 22, 29, 51, 87, 80, 62,
	18, 22, 37, 56, 68, 109, 103, 77,
	24, 35, 55, 64, 81, 104, 113, 92,
	49, 64, 78, 87, 103, 121, 120, 101,
	72, 92, 95, 98, 112, 100, 103, 99,
}

// jpegHuffSpec is a Huffman table as DHT stores it: the number of codes
// of each length 1-16, then the symbols in code order.
type jpegHuffSpec struct {
	counts [16]byte
	syms   []byte
}

// The four tables of T.81 Annex K.3: DC and AC, luminance (class 0) and
// chrominance (class 1). They code every symbol a baseline 8-bit stream
// can need, so no statistics pass is needed.
var jpegStdHuff = [4]jpegHuffSpec{
	{ // DC 0
		[16]byte{0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
		[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
	},
	{ // AC 0
		[16]byte{0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d},
		[]byte{
			0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
			0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
			0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
			0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
			0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
			0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
			0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
			0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
			0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
			0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
			0xf9, 0xfa,
		},
	},
	{ // DC 1
		[16]byte{0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0},
		[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
	},
	{ // AC 1
		[16]byte{0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77},
		[]byte{
			0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
			0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0,
			0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
			0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
			0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
			0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
			0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
			0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
			0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
			0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
			0xf9, 0xfa,
		},
	},
}

// jpegCode is one symbol's code: its bits, right-aligned, and their count.
type jpegCode struct {
	bits uint16
	n    uint8
}

// jpegStdCodes are the codes of jpegStdHuff, by table and symbol.
var jpegStdCodes = func() (t [4][256]jpegCode) {
	for i, s := range jpegStdHuff {
		code, k := uint16(0), 0
		for l, c := range s.counts {
			for range c {
				t[i][s.syms[k]] = jpegCode{bits: code, n: uint8(l + 1)}
				code++
				k++
			}
			code <<= 1
		}
	}
	return t
}()

// jpegDCT8 is the 8-point DCT-II basis, C(u)/2·cos((2x+1)uπ/16) with
// C(0) = 1/√2, in units of 2^-13. Written out, not computed, so that no
// machine's cosine can change a coefficient.
var jpegDCT8 = [8][8]int64{
	{2896, 2896, 2896, 2896, 2896, 2896, 2896, 2896},
	{4017, 3406, 2276, 799, -799, -2276, -3406, -4017},
	{3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784},
	{3406, -799, -4017, -2276, 2276, 4017, 799, -3406},
	{2896, -2896, -2896, 2896, 2896, -2896, -2896, 2896},
	{2276, -4017, 799, 3406, -3406, -799, 4017, -2276},
	{1567, -3784, 3784, -1567, -1567, 3784, -3784, 1567},
	{799, -2276, 3406, -4017, 4017, -3406, 2276, -799},
}

// jpegQuant returns the quantisation table of a quality from 1 to 100,
// scaled from jpegStdLuma as the IJG library scales it (50 is the table
// itself, 100 all ones), in natural order.
func jpegQuant(quality int) [64]uint16 {
	quality = max(1, min(100, quality))
	s := 5000 / quality
	if quality >= 50 {
		s = 200 - 2*quality
	}
	var q [64]uint16
	for i, b := range jpegStdLuma {
		q[i] = uint16(max(1, min(255, (int(b)*s+50)/100)))
	}
	return q
}

// jpegTables appends the stream's tables to dst: the quantisation table
// (DQT) and the four Huffman tables in one DHT segment. With an SOI
// before them they are BLP1's shared JPEG header.
func jpegTables(dst []byte, q *[64]uint16) []byte {
	dst = append(dst, 0xff, 0xdb, 0, 67, 0)
	for k := range 64 {
		dst = append(dst, byte(q[zigzag[k]]))
	}
	n := 2
	for _, s := range jpegStdHuff {
		n += 17 + len(s.syms)
	}
	dst = append(dst, 0xff, 0xc4, byte(n>>8), byte(n))
	for i, s := range jpegStdHuff {
		dst = append(dst, byte(i&1)<<4|byte(i>>1)) // class (DC 0, AC 1), id
		dst = append(dst, s.counts[:]...)
		dst = append(dst, s.syms...)
	}
	return dst
}

// jpegPlanes holds the four component planes of an image to encode, each
// w×h samples, row-major.
type jpegPlanes struct {
	w, h int
	c    [4][]uint8
}

// jpegScan appends what follows the tables for one picture: the frame
// header (SOF0), the scan header (SOS), the entropy-coded data of all
// four components interleaved, and EOI.
func jpegScan(dst []byte, p *jpegPlanes, q *[64]uint16) []byte {
	dst = append(dst, 0xff, 0xc0, 0, 20, 8, byte(p.h>>8), byte(p.h), byte(p.w>>8), byte(p.w), 4)
	for c := range 4 {
		dst = append(dst, byte(c+1), 0x11, 0)
	}
	dst = append(dst, 0xff, 0xda, 0, 14, 4)
	for c := range 4 {
		t := byte(min(c, 1))
		dst = append(dst, byte(c+1), t<<4|t)
	}
	dst = append(dst, 0, 63, 0)
	bw := jpegBits{dst: dst}
	var pred [4]int
	var blk [64]int
	for by := 0; by < p.h; by += 8 {
		for bx := 0; bx < p.w; bx += 8 {
			for c := range 4 {
				jpegFDCT(&blk, p.c[c], p.w, p.h, bx, by, q)
				t := min(c, 1)
				dc, ac := &jpegStdCodes[2*t], &jpegStdCodes[2*t+1]
				diff := blk[0] - pred[c]
				pred[c] = blk[0]
				size, extra := jpegMagnitude(diff)
				bw.put(dc[size])
				bw.bits(extra, size)
				run := 0
				for k := 1; k < 64; k++ {
					v := blk[zigzag[k]]
					if v == 0 {
						run++
						continue
					}
					for ; run > 15; run -= 16 {
						bw.put(ac[0xf0])
					}
					// A baseline AC code has at most 10 extra bits; at
					// quality 100 rounding can just pass ±1023.
					size, extra := jpegMagnitude(max(-1023, min(1023, v)))
					bw.put(ac[run<<4|size])
					bw.bits(extra, size)
					run = 0
				}
				if run > 0 {
					bw.put(ac[0x00])
				}
			}
		}
	}
	bw.flush()
	return append(bw.dst, 0xff, 0xd9)
}

// jpegMagnitude returns a coefficient's size category and the extra bits
// that follow its code (negative values in one's complement).
func jpegMagnitude(v int) (size int, extra uint32) {
	a := v
	if a < 0 {
		a = -a
		v--
	}
	for a > 0 {
		size++
		a >>= 1
	}
	return size, uint32(v) & (1<<size - 1)
}

// jpegFDCT computes the quantised DCT coefficients, in natural order, of
// the 8×8 block of plane at (bx, by); samples past the edges repeat the
// last row and column, which keeps a partial block's padding cheap.
func jpegFDCT(out *[64]int, plane []uint8, w, h, bx, by int, q *[64]uint16) {
	var s [64]int64
	for y := range 8 {
		row := plane[min(by+y, h-1)*w:]
		for x := range 8 {
			s[8*y+x] = int64(row[min(bx+x, w-1)]) - 128
		}
	}
	// Rows, then columns; the first pass keeps 3 bits beyond its 2^13
	// scale, the second ends at 2^16 per coefficient.
	var t [64]int64
	for y := range 8 {
		for u := range 8 {
			var a int64
			for x := range 8 {
				a += s[8*y+x] * jpegDCT8[u][x]
			}
			t[8*y+u] = (a + 1<<9) >> 10
		}
	}
	for u := range 8 {
		for v := range 8 {
			var a int64
			for y := range 8 {
				a += t[8*y+u] * jpegDCT8[v][y]
			}
			// a is the coefficient in units of 2^-16; divide by the
			// quantiser, rounding halves away from zero.
			d := int64(q[8*v+u]) << 16
			if a < 0 {
				out[8*v+u] = -int((-a + d/2) / d)
			} else {
				out[8*v+u] = int((a + d/2) / d)
			}
		}
	}
}

// jpegBits writes entropy-coded bits, most significant first, stuffing a
// zero byte after every 0xff.
type jpegBits struct {
	dst  []byte
	acc  uint32
	nacc uint
}

func (b *jpegBits) put(c jpegCode) { b.bits(uint32(c.bits), int(c.n)) }

func (b *jpegBits) bits(v uint32, n int) {
	b.acc = b.acc<<uint(n) | v&(1<<uint(n)-1)
	b.nacc += uint(n)
	for b.nacc >= 8 {
		c := byte(b.acc >> (b.nacc - 8))
		b.dst = append(b.dst, c)
		if c == 0xff {
			b.dst = append(b.dst, 0)
		}
		b.nacc -= 8
	}
}

// flush pads the last byte with one bits, as T.81 asks.
func (b *jpegBits) flush() {
	if b.nacc > 0 {
		b.bits(0x7f, int(8-b.nacc))
	}
}
