package texture

import (
	"encoding/binary"
	"fmt"
	"image"
	"io"
)

// DDSFormat is the pixel layout EncodeDDS writes.
type DDSFormat uint8

// The layouts Warcraft III Reforged reads. Its own HD command-card icons
// are DXT1 with a full mip chain.
const (
	// DDSDXT1 (BC1) stores 4×4 blocks in 8 bytes: two RGB565 colours and
	// two bits a pixel; a pixel with alpha below 128 becomes transparent
	// black, the rest opaque.
	DDSDXT1 DDSFormat = iota
	// DDSDXT5 (BC3) adds 8 bytes of interpolated alpha to each block.
	DDSDXT5
	// DDSBGRA stores every pixel as it is, 4 bytes each.
	DDSBGRA
)

var ddsFormatNames = [...]string{"dxt1", "dxt5", "bgra"}

func (f DDSFormat) String() string {
	if int(f) < len(ddsFormatNames) {
		return ddsFormatNames[f]
	}
	return fmt.Sprintf("DDSFormat(%d)", int(f))
}

// DDSOptions say how EncodeDDS writes. The zero value (or nil) writes
// DXT1 with every mip level down to 1×1, as Reforged's own icons are.
type DDSOptions struct {
	Format DDSFormat
	// NoMips writes level 0 only.
	NoMips bool
}

// DDS header flags the writer sets (the DirectDraw surface documentation).
const (
	ddsdCaps        = 0x1
	ddsdHeight      = 0x2
	ddsdWidth       = 0x4
	ddsdPitch       = 0x8
	ddsdPixelFormat = 0x1000
	ddsdLinearSize  = 0x80000
	ddsCapsComplex  = 0x8
	ddsCapsTexture  = 0x1000
	ddsCapsMipMap   = 0x400000
)

// EncodeDDS writes img as a DDS texture (docs/formats.md#writing-dds):
// the classic 128-byte header with a FourCC (DXT1, DXT5) or a 32-bit
// BGRA pixel format, then every level, largest first. Mip levels are made
// as EncodeBLP makes them (MipChain). The block encoder works in
// integers, so the bytes depend only on img and o.
func EncodeDDS(w io.Writer, img image.Image, o *DDSOptions) error {
	var opt DDSOptions
	if o != nil {
		opt = *o
	}
	b := img.Bounds()
	switch {
	case b.Dx() < 1 || b.Dy() < 1:
		return &EncodeError{"DDS", fmt.Sprintf("empty %dx%d picture", b.Dx(), b.Dy())}
	case b.Dx() > MaxEncodeSide || b.Dy() > MaxEncodeSide:
		return &EncodeError{"DDS", fmt.Sprintf("%dx%d picture is larger than %d a side", b.Dx(), b.Dy(), MaxEncodeSide)}
	case opt.Format > DDSBGRA:
		return &EncodeError{"DDS", "unknown format " + opt.Format.String()}
	}
	levels := MipChain(img)
	if opt.NoMips {
		levels = levels[:1]
	}
	le := binary.LittleEndian
	hdr := make([]byte, ddsHeaderEnd)
	copy(hdr, "DDS ")
	le.PutUint32(hdr[4:], 124)
	flags := uint32(ddsdCaps | ddsdHeight | ddsdWidth | ddsdPixelFormat)
	caps := uint32(ddsCapsTexture)
	if len(levels) > 1 {
		flags |= ddsdMipMapCount
		caps |= ddsCapsComplex | ddsCapsMipMap
	}
	w0, h0 := b.Dx(), b.Dy()
	le.PutUint32(hdr[12:], uint32(h0))
	le.PutUint32(hdr[16:], uint32(w0))
	le.PutUint32(hdr[28:], uint32(len(levels)))
	le.PutUint32(hdr[76:], 32) // pixel format size
	switch opt.Format {
	case DDSBGRA:
		flags |= ddsdPitch
		le.PutUint32(hdr[20:], uint32(4*w0))
		le.PutUint32(hdr[80:], ddpfRGB|ddpfAlphaPixels)
		le.PutUint32(hdr[88:], 32)
		le.PutUint32(hdr[92:], 0x00ff0000)
		le.PutUint32(hdr[96:], 0x0000ff00)
		le.PutUint32(hdr[100:], 0x000000ff)
		le.PutUint32(hdr[104:], 0xff000000)
	default:
		flags |= ddsdLinearSize
		bc, cc := 1, "DXT1"
		if opt.Format == DDSDXT5 {
			bc, cc = 3, "DXT5"
		}
		le.PutUint32(hdr[20:], uint32(bcLevelSize(bc, w0, h0)))
		le.PutUint32(hdr[80:], ddpfFourCC)
		copy(hdr[84:], cc)
	}
	le.PutUint32(hdr[8:], flags)
	le.PutUint32(hdr[108:], caps)
	ew := &errWriter{w: w}
	ew.write(hdr)
	for _, l := range levels {
		switch opt.Format {
		case DDSBGRA:
			ew.write(encodeBGRA(l))
		case DDSDXT1:
			ew.write(encodeBC(l, false))
		case DDSDXT5:
			ew.write(encodeBC(l, true))
		}
	}
	return ew.err
}

// encodeBGRA stores a level's pixels as B, G, R, A bytes.
func encodeBGRA(img *image.NRGBA) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := make([]byte, 4*w*h)
	for i := range w * h {
		s := img.Pix[4*i:]
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = s[2], s[1], s[0], s[3]
	}
	return out
}

// encodeBC compresses a level into DXT1 blocks, or DXT5 (an alpha block
// before each colour block) when dxt5. A block past the level's edge
// repeats its last row and column.
func encodeBC(img *image.NRGBA, dxt5 bool) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	bw, bh := (w+3)/4, (h+3)/4
	size := 8
	if dxt5 {
		size = 16
	}
	out := make([]byte, 0, bw*bh*size)
	var px [16][4]uint8
	for by := range bh {
		for bx := range bw {
			for i := range 16 {
				x, y := min(4*bx+i%4, w-1), min(4*by+i/4, h-1)
				copy(px[i][:], img.Pix[y*img.Stride+4*x:])
			}
			if dxt5 {
				out = appendAlphaBlock(out, &px)
			}
			out = appendColorBlock(out, &px, !dxt5)
		}
	}
	return out
}

// appendAlphaBlock appends a DXT5 alpha block: the block's largest and
// smallest alpha as the two ends of the eight-value ramp, each pixel the
// nearest of the eight.
func appendAlphaBlock(out []byte, px *[16][4]uint8) []byte {
	lo, hi := 255, 0
	for i := range px {
		a := int(px[i][3])
		lo, hi = min(lo, a), max(hi, a)
	}
	out = append(out, byte(hi), byte(lo))
	var bits uint64
	if hi > lo {
		var ramp [8]int
		ramp[0], ramp[1] = hi, lo
		for i := 1; i < 7; i++ {
			ramp[i+1] = ((7-i)*hi + i*lo + 3) / 7
		}
		for i := range px {
			a := int(px[i][3])
			best, bd := 0, 1<<30
			for k, r := range ramp {
				if d := (a - r) * (a - r); d < bd {
					best, bd = k, d
				}
			}
			bits |= uint64(best) << (3 * i)
		}
	}
	for k := range 6 {
		out = append(out, byte(bits>>(8*k)))
	}
	return out
}

// appendColorBlock appends a colour block. Its two end colours are the
// best, by squared error over the block's visible pixels, of three
// candidates and their least-squares refinements for the indices each
// gives: the block's mean colour alone (so no block is ever worse than
// flat), the extremes of the pixels along the colour's principal axis,
// and the two pixels farthest apart (which wins where one odd pixel
// pulls the principal axis away from the rest).
// In DXT1 (dxt1 true) a block with a pixel of alpha below 128 uses the
// three-colour mode, whose fourth entry is transparent black.
func appendColorBlock(out []byte, px *[16][4]uint8, dxt1 bool) []byte {
	transparent := false
	var vis []int
	for i := range px {
		if dxt1 && px[i][3] < 128 {
			transparent = true
			continue
		}
		vis = append(vis, i)
	}
	if len(vis) == 0 {
		// Every pixel transparent: any colours, all indices 3.
		return append(out, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff)
	}
	three := transparent
	var best bcBlock
	bestErr := int64(-1)
	// try fits two ends, then refines them by least squares while that
	// helps (twice at most), keeping the best block seen.
	try := func(c0, c1 uint16) {
		blk := bcFit(px, vis, c0, c1, three)
		for it := 0; ; it++ {
			if bestErr < 0 || blk.err < bestErr {
				best, bestErr = blk, blk.err
			}
			if it == 2 {
				return
			}
			r0, r1, ok := refineEnds(px, vis, blk, three)
			if !ok {
				return
			}
			next := bcFit(px, vis, r0, r1, three)
			if next.err >= blk.err {
				return
			}
			blk = next
		}
	}
	var mean [3]int
	for _, i := range vis {
		for k := range 3 {
			mean[k] += int(px[i][k])
		}
	}
	for k := range 3 {
		mean[k] = (mean[k] + len(vis)/2) / len(vis)
	}
	m := to565(mean)
	try(m, m)
	a, b := principalEnds(px, vis, mean)
	try(to565(a), to565(b))
	a, b = farthestPair(px, vis)
	try(to565(a), to565(b))
	var idx uint32
	for i := range px {
		idx |= uint32(best.idx[i]) << (2 * i)
	}
	out = binary.LittleEndian.AppendUint16(out, best.c0)
	out = binary.LittleEndian.AppendUint16(out, best.c1)
	return binary.LittleEndian.AppendUint32(out, idx)
}

// bcBlock is a candidate encoding of a colour block.
type bcBlock struct {
	c0, c1 uint16
	idx    [16]uint8
	err    int64
}

// bcFit orders two end colours for the block's mode (c0 > c1 for four
// colours, c0 ≤ c1 for three and transparent black), decodes the palette
// as the decoder does (bc1Block) and gives every visible pixel the
// nearest entry; invisible pixels take the transparent entry.
func bcFit(px *[16][4]uint8, vis []int, c0, c1 uint16, three bool) bcBlock {
	if three && c0 > c1 || !three && c0 < c1 {
		c0, c1 = c1, c0
	}
	var pal [4][3]int
	e0, e1 := expand565(c0), expand565(c1)
	n := 4
	for k := range 3 {
		pal[0][k], pal[1][k] = e0[k], e1[k]
		if three || c0 == c1 {
			pal[2][k] = (e0[k] + e1[k]) / 2
		} else {
			pal[2][k] = (2*e0[k] + e1[k] + 1) / 3
			pal[3][k] = (e0[k] + 2*e1[k] + 1) / 3
		}
	}
	if three || c0 == c1 {
		n = 3 // in DXT5 c0 == c1 keeps four entries, but all alike
	}
	blk := bcBlock{c0: c0, c1: c1}
	for i := range blk.idx {
		blk.idx[i] = 3
	}
	for _, i := range vis {
		bi, bd := 0, int64(-1)
		for k := range n {
			var d int64
			for c := range 3 {
				e := int64(int(px[i][c]) - pal[k][c])
				d += e * e
			}
			if bd < 0 || d < bd {
				bi, bd = k, d
			}
		}
		blk.idx[i] = uint8(bi)
		blk.err += bd
	}
	return blk
}

// to565 rounds an 8-bit colour to RGB565.
func to565(c [3]int) uint16 {
	r := (c[0]*31 + 127) / 255
	g := (c[1]*63 + 127) / 255
	b := (c[2]*31 + 127) / 255
	return uint16(r<<11 | g<<5 | b)
}

// principalEnds returns the visible pixels with the smallest and largest
// projection on the block's principal colour axis, found by a few power
// iterations on the covariance in integers.
func principalEnds(px *[16][4]uint8, vis []int, mean [3]int) (lo, hi [3]int) {
	var cov [3][3]int64
	for _, i := range vis {
		var d [3]int64
		for k := range 3 {
			d[k] = int64(px[i][k]) - int64(mean[k])
		}
		for r := range 3 {
			for c := range 3 {
				cov[r][c] += d[r] * d[c]
			}
		}
	}
	// Start from the row of the channel that varies most, which points
	// the right way for the channels that vary with it.
	top := 0
	for r := 1; r < 3; r++ {
		if cov[r][r] > cov[top][top] {
			top = r
		}
	}
	v := cov[top]
	for range 8 {
		var nv [3]int64
		for r := range 3 {
			for c := range 3 {
				nv[r] += cov[r][c] * v[c]
			}
		}
		// Scale the largest component to 2^10 so values stay small.
		m := int64(0)
		for _, x := range nv {
			m = max(m, x, -x)
		}
		if m == 0 {
			break
		}
		for k := range nv {
			nv[k] = nv[k] * 1024 / m
		}
		v = nv
	}
	pmin, pmax := int64(1)<<62, -int64(1)<<62
	for _, i := range vis {
		p := int64(px[i][0])*v[0] + int64(px[i][1])*v[1] + int64(px[i][2])*v[2]
		if p < pmin {
			pmin = p
			lo = [3]int{int(px[i][0]), int(px[i][1]), int(px[i][2])}
		}
		if p > pmax {
			pmax = p
			hi = [3]int{int(px[i][0]), int(px[i][1]), int(px[i][2])}
		}
	}
	return lo, hi
}

// farthestPair returns the two visible pixels farthest apart in RGB.
func farthestPair(px *[16][4]uint8, vis []int) (a, b [3]int) {
	best := -1
	for i, p := range vis {
		for _, q := range vis[i+1:] {
			var d int
			for k := range 3 {
				e := int(px[p][k]) - int(px[q][k])
				d += e * e
			}
			if d > best {
				best = d
				a = [3]int{int(px[p][0]), int(px[p][1]), int(px[p][2])}
				b = [3]int{int(px[q][0]), int(px[q][1]), int(px[q][2])}
			}
		}
	}
	if best < 0 {
		p := px[vis[0]]
		a = [3]int{int(p[0]), int(p[1]), int(p[2])}
		b = a
	}
	return a, b
}

// refineEnds solves, in least squares, for the two end colours that best
// reproduce the visible pixels given the indices of blk: each index is a
// fixed mix of the ends ((3,0), (0,3), (2,1), (1,2) in thirds for four
// colours; (2,0), (0,2), (1,1) in halves for three).
func refineEnds(px *[16][4]uint8, vis []int, blk bcBlock, three bool) (c0, c1 uint16, ok bool) {
	wa := [4]int64{3, 0, 2, 1}
	wb := [4]int64{0, 3, 1, 2}
	den := int64(3)
	if three || blk.c0 == blk.c1 {
		wa, wb, den = [4]int64{2, 0, 1, 0}, [4]int64{0, 2, 1, 0}, 2
	}
	var aa, ab, bb int64
	var ap, bp [3]int64
	for _, i := range vis {
		k := blk.idx[i]
		a, b := wa[k], wb[k]
		aa += a * a
		ab += a * b
		bb += b * b
		for c := range 3 {
			ap[c] += a * int64(px[i][c])
			bp[c] += b * int64(px[i][c])
		}
	}
	det := aa*bb - ab*ab
	if det == 0 {
		return 0, 0, false
	}
	var e0, e1 [3]int
	for c := range 3 {
		// The ends, in units of 1/den: (bb·ap − ab·bp)/det and
		// (aa·bp − ab·ap)/det; rounded to the nearest integer.
		n0 := (bb*ap[c] - ab*bp[c]) * den
		n1 := (aa*bp[c] - ab*ap[c]) * den
		e0[c] = clamp255(divRound(n0, det))
		e1[c] = clamp255(divRound(n1, det))
	}
	return to565(e0), to565(e1), true
}

// divRound divides, rounding halves away from zero; d is non-zero.
func divRound(n, d int64) int64 {
	if d < 0 {
		n, d = -n, -d
	}
	if n < 0 {
		return -((-n + d/2) / d)
	}
	return (n + d/2) / d
}

func clamp255(v int64) int { return int(max(0, min(255, v))) }
