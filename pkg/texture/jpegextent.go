package texture

import (
	"image"
	"math/bits"
)

// Finding a BLP JPEG level's extent (Lazy.Extent) without decoding all of
// it. The entropy-coded data must be read to the end, since each block
// starts where the last one ended, but the inverse DCT and the stores,
// about half of a decode, are needed only for the blocks whose texels can
// still move an edge of the extent. A block that the extent found so far
// already covers cannot; nor can one whose coefficients bound every
// sample below what a texel needs to count. The rest are decoded into a
// strip one block tall, exactly as the decode would write them, and
// scanned. Everything else (the segments, the checks, the streams left to
// image/jpeg) is the decode's own path, so the extent is taken only from
// streams whose pixels this decoder gives.

// extentScan is the state of one extent search.
type extentScan struct {
	cov   Coverage
	least int
	// strip holds the one row of blocks being scanned, its texels as the
	// level would hold them; init is a frame texel's channels before any
	// component is stored (the alpha newLevel sets).
	strip *image.NRGBA
	init  [4]int
	// use says which frame components the weight reads.
	use [4]bool
	// The coefficients and row masks of the current MCU's used
	// components, by scan entry, kept until the bound is known.
	saved [4][64]int32
	rows  [4]uint32
	// The extent so far, inclusive; x1 < 0 while it is empty.
	x0, y0, x1, y1 int
}

// blpJPEGExtent is Lazy.Extent for a BLP JPEG level (see decodeBLPJPEG);
// ok is false when the stream is one for decodeBLPJPEG to decide.
func blpJPEGExtent(stream []byte, w, h int, hasAlpha bool, c Coverage, least int) (r image.Rectangle, ok bool) {
	e := &extentScan{cov: c, least: least, x0: w, y0: h, x1: -1, y1: -1}
	d := &fastJPEG{data: stream, hasAlpha: hasAlpha, ext: e}
	if _, err := d.decode(w, h); err != nil {
		return image.Rectangle{}, false
	}
	// The texels outside the frame are transparent black, or opaque black
	// without alpha bits (newLevel).
	a := 0
	if !hasAlpha {
		a = 255
	}
	if cw, ch := min(w, d.width), min(h, d.height); c.weight(0, 0, 0, a) >= least && (cw < w || ch < h) {
		e.add(w-1, h-1)
		if cw < w {
			e.add(cw, 0)
		}
		if ch < h {
			e.add(0, ch)
		}
	}
	if e.x1 < 0 {
		return image.Rectangle{}, true
	}
	return image.Rect(e.x0, e.y0, e.x1+1, e.y1+1), true
}

// start sets the scan up once the frame is known and the components are
// placed; it returns the strip, which stands for the level.
func (e *extentScan) start(d *fastJPEG) *image.NRGBA {
	e.strip = image.NewNRGBA(image.Rect(0, 0, d.lw, 8))
	if !d.hasAlpha || d.ncomp < 4 {
		e.init[3] = 255
		for i := 3; i < len(e.strip.Pix); i += 4 {
			e.strip.Pix[i] = 255
		}
	}
	for k := range d.ncomp {
		c := &d.comp[k]
		e.use[k] = c.ch >= 0 && (e.cov == ByGlow || c.ch == 3 && !c.gray)
	}
	return e.strip
}

func (e *extentScan) add(x, y int) {
	e.x0, e.y0, e.x1, e.y1 = min(e.x0, x), min(e.y0, y), max(e.x1, x), max(e.y1, y)
}

// extentMCU reads the MCU at block (bx, by) of the frame, whose cw×ch
// corner lies on the level, and adds its texels that count to the extent
// when they could move it. It returns false where the decode would fail.
func (d *fastJPEG) extentMCU(order *[4]int, dcT, acT *[4]*huffTable, ns, bx, by, cw, ch int) bool {
	e := d.ext
	x0, y0 := 8*bx, 8*by
	nx, ny := min(8, cw-x0), min(8, ch-y0)
	want := nx > 0 && ny > 0 &&
		!(e.x0 <= x0 && x0+nx-1 <= e.x1 && e.y0 <= y0 && y0+ny-1 <= e.y1)
	for i := range ns {
		k := order[i]
		c := &d.comp[k]
		rows, ok := d.block(dcT[i], acT[i], &d.quant[c.tq], &c.pred)
		if !ok {
			return false
		}
		if want && e.use[k] {
			e.saved[i], e.rows[i] = d.blk, rows
		}
		d.clearBlock(rows)
	}
	if !want {
		return true
	}
	ub := e.init
	for i := range ns {
		c := &d.comp[order[i]]
		if !e.use[order[i]] {
			continue
		}
		b := sampleBound(&e.saved[i], e.rows[i])
		if c.gray {
			ub[0], ub[1], ub[2] = b, b, b
		} else {
			ub[c.ch] = b
		}
	}
	if e.cov.weight(ub[0], ub[1], ub[2], ub[3]) < e.least {
		return true
	}
	for i := range ns {
		if !e.use[order[i]] {
			continue
		}
		d.blk = e.saved[i]
		d.store(e.strip, &d.comp[order[i]], e.rows[i], bx, 0, cw, ny)
		d.clearBlock(e.rows[i])
	}
	s := e.strip
	for y := range ny {
		row := s.Pix[y*s.Stride+4*x0 : y*s.Stride+4*(x0+nx)]
		for x := 0; len(row) >= 4; x, row = x+1, row[4:] {
			if e.cov.weight(int(row[0]), int(row[1]), int(row[2]), int(row[3])) >= e.least {
				e.add(x0+x, y0+y)
			}
		}
	}
	return true
}

// Limits within which sampleBound holds: the transform's int32
// arithmetic cannot wrap for coefficients this small.
const (
	boundMaxDC = 2048 // |dequantised DC|
	boundMaxAC = 512  // sum of |dequantised AC|
)

// sampleBound returns a number no sample of the block (dequantised
// coefficients blk, row mask rows) can exceed once the transform, the
// level shift and the clamp are done; 255 when it cannot tell. A sample
// is 128 + DC/8 + Σ AC·C(u)C(v)/4·cos·cos, so it is at most 128 + DC/8 +
// Σ|AC|/4; the transform's fixed point strays from that by less than 2,
// and the bound allows 4.
func sampleBound(blk *[64]int32, rows uint32) int {
	dc := int64(blk[0])
	var s int64
	for r := rows >> 8 & 0xff; r != 0; r &= r - 1 {
		i := 8 * (bits.TrailingZeros32(r) & 7)
		for _, v := range blk[i : i+8] {
			s += max(int64(v), -int64(v))
		}
	}
	if rows&(1<<8) != 0 { // row 0 was summed with its DC
		s -= max(dc, -dc)
	}
	if dc > boundMaxDC || dc < -boundMaxDC || s > boundMaxAC {
		return 255
	}
	return int(min(255, max(0, 128+(dc+2*s)/8+4)))
}
