package texture

// The inverse DCT of the fast BLP JPEG decoder. It must give exactly the
// samples Go's image/jpeg gives, so it is the same computation: Loeffler,
// Ligtenberg and Moschytz's 11-multiply 1-D transform run backwards, over
// the rows and then the columns, in int32 fixed point with the scales and
// the points where precision is dropped that image/jpeg (Go 1.26) uses.
// The differential tests (jpegdec_test.go) hold the two together; a
// change in either shows there as different pixels.
//
// Between two right shifts every value is a sum of products of int32s,
// which wraps the same way however it is grouped, so even coefficients
// large enough to overflow come out as image/jpeg's do as long as the
// shifts fall at the same places. The shortcuts below (rows or blocks
// with zero coefficients) only drop terms that are zero.

// Fixed-point constants, round(x·2^bits) for the angle kπ/16 and the
// precision each pass uses.
const (
	idctR8      = 181    // 1/√2 · 2^8
	idctR14     = 11585  // 1/√2 · 2^14
	idctRC6x18  = 70936  // cos(6π/16)/√2 · 2^18
	idctRS6x18  = 171254 // sin(6π/16)/√2 · 2^18
	idctRC6x12  = 1108   // cos(6π/16)/√2 · 2^12
	idctRS6x12  = 2676   // sin(6π/16)/√2 · 2^12
	idctC1      = 4017   // cos(π/16) · 2^12
	idctS1      = 799    // sin(π/16) · 2^12
	idctC3      = 3406   // cos(3π/16) · 2^12
	idctS3      = 2276   // sin(3π/16) · 2^12
	idctColBias = 1 << 19
)

// rotate returns (c·a − s·b, c·b + s·a) with three multiplications.
func rotate(a, b, c, s int32) (int32, int32) {
	t := c * (a + b)
	return t - (c+s)*b, t + (s-c)*a
}

// idctRows runs the 1-D transform over the rows of blk into tmp. rows has
// bit r set when row r has a non-zero coefficient other than its first
// one and bit 16+r when one is in columns 4-7 (rowBits); rows without are
// spread (or zeroed) without the transform, or go through idctRowLeft.
func idctRows(blk, tmp *[64]int32, rows uint32) {
	for r := 0; r < 8; r++ {
		in := blk[8*r : 8*r+8 : 8*r+8]
		out := tmp[8*r : 8*r+8 : 8*r+8]
		if rows&(1<<r) == 0 {
			v := in[0] << 17
			out[0], out[1], out[2], out[3] = v, v, v, v
			out[4], out[5], out[6], out[7] = v, v, v, v
			continue
		}
		if rows&(1<<(16+r)) == 0 {
			idctRowLeft(in, out)
			continue
		}
		// Even half: frequencies 0, 4, 2, 6.
		e0, e1 := in[0]<<17, in[4]<<17
		s, d := e0+e1, e0-e1
		y2, y6 := rotate(in[2], in[6], idctRC6x18, idctRS6x18)
		q0, q3 := s+y6, s-y6
		q1, q2 := d+y2, d-y2
		// Odd half: frequencies 1, 7, 3, 5.
		u7, u4 := in[1]<<7+in[7]<<7, in[1]<<7-in[7]<<7
		m3, m5 := in[3]*idctR8, in[5]*idctR8
		p7, p5 := u7+m3, u7-m3
		p4, p6 := u4+m5, u4-m5
		v4, v7 := rotate(p4>>2, p7>>2, idctC3, idctS3)
		v5, v6 := rotate(p5>>2, p6>>2, idctC1, idctS1)
		out[0], out[7] = q0+v7, q0-v7
		out[1], out[6] = q1+v6, q1-v6
		out[2], out[5] = q2+v5, q2-v5
		out[3], out[4] = q3+v4, q3-v4
	}
}

// idctRowLeft is one row of idctRows for a row whose frequencies 4-7
// are zero.
func idctRowLeft(in, out []int32) {
	in, out = in[:8:8], out[:8:8]
	e0 := in[0] << 17
	y2, y6 := idctRC6x18*in[2], idctRS6x18*in[2]
	q0, q3 := e0+y6, e0-y6
	q1, q2 := e0+y2, e0-y2
	u := in[1] << 7
	m3 := in[3] * idctR8
	p7, p5 := u+m3, u-m3
	v4, v7 := rotate(u>>2, p7>>2, idctC3, idctS3)
	v5, v6 := rotate(p5>>2, u>>2, idctC1, idctS1)
	out[0], out[7] = q0+v7, q0-v7
	out[1], out[6] = q1+v6, q1-v6
	out[2], out[5] = q2+v5, q2-v5
	out[3], out[4] = q3+v4, q3-v4
}

// idctCols runs the 1-D transform down the columns of tmp, in place,
// leaving the samples before the level shift.
func idctCols(tmp *[64]int32) {
	for x := 0; x < 8; x++ {
		g0, g1, g2, g3 := tmp[x], tmp[8+x], tmp[16+x], tmp[24+x]
		g4, g5, g6, g7 := tmp[32+x], tmp[40+x], tmp[48+x], tmp[56+x]
		b := g0 + idctColBias
		s, d := (b+g4)>>2, (b-g4)>>2
		y2, y6 := rotate(g2>>13, g6>>13, idctRC6x12, idctRS6x12)
		q0, q3 := s+y6, s-y6
		q1, q2 := d+y2, d-y2
		u7, u4 := g1+g7, g1-g7
		m3, m5 := (g3>>13)*idctR14, (g5>>13)*idctR14
		p7, p5 := u7+m3, u7-m3
		p4, p6 := u4+m5, u4-m5
		v4, v7 := rotate(p4>>14, p7>>14, idctC3, idctS3)
		v5, v6 := rotate(p5>>14, p6>>14, idctC1, idctS1)
		tmp[x], tmp[56+x] = (q0+v7)>>18, (q0-v7)>>18
		tmp[8+x], tmp[48+x] = (q1+v6)>>18, (q1-v6)>>18
		tmp[16+x], tmp[40+x] = (q2+v5)>>18, (q2-v5)>>18
		tmp[24+x], tmp[32+x] = (q3+v4)>>18, (q3-v4)>>18
	}
}

// idctColsTop is idctCols for a block whose rows 4-7 are zero.
func idctColsTop(tmp *[64]int32) {
	for x := 0; x < 8; x++ {
		g0, g1, g2, g3 := tmp[x], tmp[8+x], tmp[16+x], tmp[24+x]
		b := (g0 + idctColBias) >> 2
		y2, y6 := rotate(g2>>13, 0, idctRC6x12, idctRS6x12)
		q0, q3 := b+y6, b-y6
		q1, q2 := b+y2, b-y2
		m3 := (g3 >> 13) * idctR14
		p7, p5 := g1+m3, g1-m3
		v4, v7 := rotate(g1>>14, p7>>14, idctC3, idctS3)
		v5, v6 := rotate(p5>>14, g1>>14, idctC1, idctS1)
		tmp[x], tmp[56+x] = (q0+v7)>>18, (q0-v7)>>18
		tmp[8+x], tmp[48+x] = (q1+v6)>>18, (q1-v6)>>18
		tmp[16+x], tmp[40+x] = (q2+v5)>>18, (q2-v5)>>18
		tmp[24+x], tmp[32+x] = (q3+v4)>>18, (q3-v4)>>18
	}
}

// idctColsFlat is idctCols for a block whose rows 1-7 are zero: each
// column is one value.
func idctColsFlat(tmp *[64]int32) {
	for x := 0; x < 8; x++ {
		v := (tmp[x] + idctColBias) >> 20
		tmp[x], tmp[8+x], tmp[16+x], tmp[24+x] = v, v, v, v
		tmp[32+x], tmp[40+x], tmp[48+x], tmp[56+x] = v, v, v, v
	}
}

// flatSample is the one sample (before the level shift) of a block whose
// only non-zero coefficient is the dequantised DC dc: what the two passes
// make of it.
func flatSample(dc int32) int32 {
	return (dc<<17 + idctColBias) >> 20
}

// clampSample level-shifts an IDCT output by 128 and clamps it to a byte.
func clampSample(v int32) uint8 {
	v += 128
	if uint32(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return uint8(v)
}
