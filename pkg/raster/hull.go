package raster

import (
	"encoding/binary"
	"math"
)

// Fragments that cannot change the picture are left out before they are
// shaded. Under some blends a fragment whose texel is empty does nothing:
// with zero alpha, an alpha test (reference above 0) discards it, and Over
// and Add without a depth write leave the pixel as it was; with zero red,
// green and blue, Add adds nothing. Whatever the batch, vertex and light
// colours, that channel of the fragment is 0 once clamped: 0 times a
// finite value, or NaN, which clamps to 0. A team glow or a spell effect
// is a large quad whose texture is empty outside a disc: a quarter of a
// typical unit's fragments had an empty texel, nearly all in the glow.
//
// Each level of such a batch's texture gets an octagon in texture
// coordinates holding every point whose bilinear footprint (the 2×2
// texels around it, wrapped or clamped) has a texel that is not empty: the
// texels' bounds along u, v and the two diagonals, widened by the
// footprint. A triangle reads the levels between its bounds on λ, so the
// union of their octagons holds every fragment that can change the
// picture. A side of the octagon, u·α + v·β ≥ γ, is a half-plane of the
// screen too: with perspective-correct interpolation a texture coordinate
// is Σ eᵢ·qᵢ·uᵢ / Σ eᵢ·qᵢ, the eᵢ being the triangle's edge functions, so
// the side holds where Σ eᵢ·qᵢ·(αuᵢ + βvᵢ − γ) ≥ 0, a combination of the
// edge functions. rasterTri drops a triangle that lies outside a side and
// cuts each row's span to the sides that cross it.
//
// The cut only ever leaves out fragments: the pixels it keeps are shaded
// exactly as before (their edge values are worked out from the span's
// first pixel as always), so the picture's bits do not change. The sides
// are moved out by a margin far above the float32 rounding of the
// interpolated coordinates, and each row's cut keeps a pixel more than the
// arithmetic asks.

// useHulls turns the cut on; tests draw with it off to compare.
var useHulls = true

// hullArea is the bounding-box area from which a triangle is cut to its
// texture's octagons: the sides cost about as much as a few fragments.
const hullArea = 256

// maxHullTexels is the largest level whose texels are looked at; a larger
// one counts as covering everything. Thumbnails read coarser levels.
const maxHullTexels = 1 << 18

// hullUV bounds the texture coordinates of a triangle that is cut, so
// that the sides' arithmetic stays far inside float64 precision.
const hullUV = 1 << 16

// What empties a fragment under a batch's state (hullRule).
const (
	hullAlpha = 1 << iota // zero alpha
	hullRGB               // zero red, green and blue
)

// octagon is a region of texture coordinates: lo[d] ≤ f_d(u, v) ≤ hi[d]
// for f_0 = u, f_1 = v, f_2 = u·W + v·H and f_3 = u·W − v·H, where W×H is
// the size of the texture's level 0. An empty region has lo > hi.
type octagon struct {
	lo, hi [4]float64
}

var (
	emptyOctagon = octagon{lo: [4]float64{inf, inf, inf, inf}, hi: [4]float64{-inf, -inf, -inf, -inf}}
	fullOctagon  = octagon{lo: [4]float64{-inf, -inf, -inf, -inf}, hi: [4]float64{inf, inf, inf, inf}}
	inf          = math.Inf(1)
)

// union widens o to hold p too.
func (o *octagon) union(p *octagon) {
	for d := range 4 {
		o.lo[d], o.hi[d] = min(o.lo[d], p.lo[d]), max(o.hi[d], p.hi[d])
	}
}

// intersect narrows o to what p holds too.
func (o *octagon) intersect(p *octagon) {
	for d := range 4 {
		o.lo[d], o.hi[d] = max(o.lo[d], p.lo[d]), min(o.hi[d], p.hi[d])
	}
}

func (o *octagon) empty() bool {
	return o.lo[0] > o.hi[0] || o.lo[1] > o.hi[1] || o.lo[2] > o.hi[2] || o.lo[3] > o.hi[3]
}

// levelHull is a level's octagons: where its alpha is not 0, and where
// its red, green or blue is not; done once they are worked out.
type levelHull struct {
	alpha, rgb octagon
	done       bool
}

// texelBox bounds a set of texels (i, j) along i, j, i+j and i−j.
type texelBox struct {
	any                    bool
	minI, maxI, minJ, maxJ int
	minS, maxS, minD, maxD int
}

// add puts the texels i0..i1 of row j in the box.
func (b *texelBox) add(i0, i1, j int) {
	if !b.any {
		*b = texelBox{true, i0, i1, j, j, i0 + j, i1 + j, i0 - j, i1 - j}
		return
	}
	b.minI, b.maxI = min(b.minI, i0), max(b.maxI, i1)
	b.minJ, b.maxJ = min(b.minJ, j), max(b.maxJ, j)
	b.minS, b.maxS = min(b.minS, i0+j), max(b.maxS, i1+j)
	b.minD, b.maxD = min(b.minD, i0-j), max(b.maxD, i1-j)
}

// hullOf returns the octagons of a level of a texture whose level 0 is
// w0×h0 texels. Only the texels at each end of a row are read, up to the
// first one that is not empty: the octagons depend on nothing else. The
// first and last rows go first, and the scan stops once both octagons
// are known to be the whole texture.
func hullOf(l *mipLevel, w0, h0 float64) levelHull {
	if !l.ok || l.w*l.h > maxHullTexels {
		return levelHull{fullOctagon, fullOctagon, true}
	}
	var a, c texelBox
	for r := range l.h {
		j := r - 1
		switch r {
		case 0:
			j = 0
		case 1:
			j = l.h - 1
		}
		row := l.pix[j*l.stride : j*l.stride+4*l.w]
		fa, fc := -1, -1
		for i := 0; i < l.w && (fa < 0 || fc < 0); i++ {
			v := binary.LittleEndian.Uint32(row[4*i:])
			if fa < 0 && v>>24 != 0 {
				fa = i
			}
			if fc < 0 && v&0xffffff != 0 {
				fc = i
			}
		}
		la, lc := -1, -1
		for i := l.w - 1; i >= 0 && (la < fa || lc < fc); i-- {
			v := binary.LittleEndian.Uint32(row[4*i:])
			if la < fa && v>>24 != 0 {
				la = i
			}
			if lc < fc && v&0xffffff != 0 {
				lc = i
			}
		}
		if fa >= 0 {
			a.add(fa, la, j)
		}
		if fc >= 0 {
			c.add(fc, lc, j)
		}
		if r >= 1 && a.whole(l) && c.whole(l) {
			break
		}
	}
	return levelHull{a.octagon(l, w0, h0), c.octagon(l, w0, h0), true}
}

// whole reports whether the box's octagon on level l is the whole plane,
// whatever else is added to it: it wraps, or it touches every edge of a
// clamped level.
func (b *texelBox) whole(l *mipLevel) bool {
	return b.any && (b.wraps(l) || b.minI == 0 && b.maxI == l.w-1 && b.minJ == 0 && b.maxJ == l.h-1)
}

// wraps reports whether the box touches an edge of a repeating axis of
// level l (or the axis is under four texels), where a texel is read from
// the other edge too.
func (b *texelBox) wraps(l *mipLevel) bool {
	return l.repU && (b.minI == 0 || b.maxI == l.w-1 || l.w < 4) ||
		l.repV && (b.minJ == 0 || b.maxJ == l.h-1 || l.h < 4)
}

// octagon returns the region of texture coordinates whose bilinear
// footprint on level l holds a texel of the box. A point at texel
// position x = u·w − 0.5 reads texels ⌊x⌋ and ⌊x⌋+1, so texel i is read
// for x in [i−1, i+1]; on a clamped axis the edge texels are read beyond
// too, and on a repeating one a texel on an edge is read at the other
// edge, which the region does not follow (it is then the whole axis).
func (b *texelBox) octagon(l *mipLevel, w0, h0 float64) octagon {
	if !b.any {
		return emptyOctagon
	}
	if b.wraps(l) {
		return fullOctagon
	}
	w, h := l.w, l.h
	xlo, xhi := float64(b.minI-1), float64(b.maxI+1)
	ylo, yhi := float64(b.minJ-1), float64(b.maxJ+1)
	slo, shi := float64(b.minS-2), float64(b.maxS+2)
	dlo, dhi := float64(b.minD-2), float64(b.maxD+2)
	if b.minI == 0 {
		xlo, slo, dlo = -inf, -inf, -inf
	}
	if b.maxI == w-1 {
		xhi, shi, dhi = inf, inf, inf
	}
	if b.minJ == 0 {
		ylo, slo, dhi = -inf, -inf, inf
	}
	if b.maxJ == h-1 {
		yhi, shi, dlo = inf, inf, -inf
	}
	fw, fh := float64(w), float64(h)
	var o octagon
	o.lo[0], o.hi[0] = (xlo+0.5)/fw, (xhi+0.5)/fw
	o.lo[1], o.hi[1] = (ylo+0.5)/fh, (yhi+0.5)/fh
	if fw*h0 == fh*w0 {
		// The level's diagonals are level 0's: u·W + v·H = k·(x + y + 1)
		// and u·W − v·H = k·(x − y).
		k := w0 / fw
		o.lo[2], o.hi[2] = k*(slo+1), k*(shi+1)
		o.lo[3], o.hi[3] = k*dlo, k*dhi
	} else {
		// A level whose sides no longer halve together: its box.
		o.lo[2], o.hi[2] = float64(w0*o.lo[0])+float64(h0*o.lo[1]), float64(w0*o.hi[0])+float64(h0*o.hi[1])
		o.lo[3], o.hi[3] = float64(w0*o.lo[0])-float64(h0*o.hi[1]), float64(w0*o.hi[0])-float64(h0*o.lo[1])
	}
	return o
}

// hullRuleOf returns what empties a fragment of a batch drawn with st
// (hullAlpha, hullRGB), 0 when a fragment always counts.
func hullRuleOf(st *State) uint8 {
	var r uint8
	if st.AlphaTest && st.AlphaRef > 0 {
		r |= hullAlpha
	}
	if !st.DepthWrite {
		switch st.Blend {
		case BlendOver:
			r |= hullAlpha
		case BlendAdd:
			r |= hullAlpha | hullRGB
		}
	}
	return r
}

// prepareHulls cuts every large triangle of a batch that can leave
// fragments out to the octagons of the levels it reads: it marks the
// triangles that lie outside one (hull −1) and keeps the sides that
// cross the others in t.sides (hull is 1 + the first, nHull how many).
// The octagons of a texture's levels are worked out once per Draw, for
// the levels some triangle reads.
func (t *Target) prepareHulls(lodBias float32) {
	t.hulls, t.sides = t.hulls[:0], t.sides[:0]
	some := false
	for bi := range t.batches {
		b := &t.batches[bi]
		b.hullRule = hullRuleOf(&b.st)
		if b.big == 0 || b.mip == 0 || b.shader != nil || b.hullRule == 0 {
			b.hull = -1
		}
		some = some || b.hull == 0
	}
	if !some {
		return
	}
	for i := range t.tris {
		tr := &t.tris[i]
		b := &t.batches[tr.batch]
		if b.hull < 0 || !tr.big {
			continue
		}
		if b.hull == 0 {
			t.startHulls(b)
			if b.hull < 0 {
				continue
			}
		}
		var s [8]hullSide
		n, drawn := t.hullSides(tr, b, lodBias, &s)
		switch {
		case !drawn:
			tr.hull = -1
		case n > 0:
			tr.hull, tr.nHull = int32(len(t.sides))+1, uint8(n)
			t.sides = append(t.sides, s[:n]...)
		}
	}
}

// startHulls sets b.hull: 1 + the index in t.hulls of its texture's
// level 0, shared with an earlier batch of the same texture, or −1 when
// no level of the texture bounds anything.
func (t *Target) startHulls(b *batchInfo) {
	tex := b.tex.(*Texture)
	for k := range t.batches {
		if o := &t.batches[k]; o != b && o.hull > 0 && o.tex == b.tex {
			b.hull = o.hull
			return
		}
	}
	b.hull = int32(len(t.hulls)) + 1
	for range tex.Levels {
		t.hulls = append(t.hulls, levelHull{})
	}
	// A texture with no empty texels on any level (or none that can be
	// told apart: too large, held nowhere) gives no triangle a side; its
	// levels are scanned once here, mostly two rows each, rather than
	// bounding every large triangle's level of detail for nothing.
	for l := range tex.Levels {
		if h := t.levelHull(b, l); !b.ruleOctagon(&h.alpha, &h.rgb).whole() {
			return
		}
	}
	b.hull = -1
}

// ruleOctagon returns the region where a fragment of b can change the
// picture, from the unions of the levels' alpha and colour octagons.
func (b *batchInfo) ruleOctagon(alpha, rgb *octagon) octagon {
	o := fullOctagon
	if b.hullRule&hullAlpha != 0 {
		o.intersect(alpha)
	}
	if b.hullRule&hullRGB != 0 {
		o.intersect(rgb)
	}
	return o
}

// whole reports whether o bounds nothing.
func (o octagon) whole() bool { return o == fullOctagon }

// levelHull returns the octagons of level l of b's texture.
func (t *Target) levelHull(b *batchInfo, l int) *levelHull {
	h := &t.hulls[int(b.hull)-1+l]
	if !h.done {
		*h = hullOf(&t.mips[b.mip-1].levels[l], float64(b.texW), float64(b.texH))
	}
	return h
}

// bounded reports whether every value lies within ±k (and is not NaN).
func bounded(vs []float32, k float32) bool {
	for _, v := range vs {
		if !(v >= -k && v <= k) {
			return false
		}
	}
	return true
}

// hullSide is a side of a triangle's octagon in the screen: the
// fragments at pixel x of a row where e0·k[0] + e1·k[1] + e2·k[2] ≥ 0, eᵢ
// being the triangle's edge values there; step is its change from one
// pixel to the next.
type hullSide struct {
	k         [3]float64
	step, inv float64 // inv = −1/step
}

// hullSides works out the sides of the octagons of the levels tr reads
// that cut off enough of it to pay for their arithmetic, into s; it
// returns how many, and false when no fragment of tr can change the
// picture.
func (t *Target) hullSides(tr *tri, b *batchInfo, lodBias float32, s *[8]hullSide) (int, bool) {
	tex := b.tex.(*Texture)
	var maxUV float64
	for k := range 3 {
		a := &tr.attr[k]
		if !bounded(a[0:2], hullUV) {
			return 0, true
		}
		if q := float64(tr.q[k]); !(q > 0 && q < inf) {
			return 0, true
		}
		maxUV = max(maxUV, math.Abs(float64(a[0])), math.Abs(float64(a[1])))
		// On a repeating axis the octagons hold for coordinates in 0..1.
		if tex.RepeatU && !(a[0] >= 0 && a[0] <= 1) || tex.RepeatV && !(a[1] >= 0 && a[1] <= 1) {
			return 0, true
		}
	}
	lo, hi := t.hullLevels(tr, b, lodBias)
	oa, oc := emptyOctagon, emptyOctagon
	for l := lo; l <= hi; l++ {
		h := t.levelHull(b, l)
		oa.union(&h.alpha)
		oc.union(&h.rgb)
	}
	o := b.ruleOctagon(&oa, &oc)
	if o.empty() {
		return 0, false
	}
	// The margin, in units of each f_d, is some 2⁸ times the rounding of
	// the interpolated coordinates (a few float32 ulps of the largest)
	// and of the sides' float64 sums.
	mu := (1 + maxUV) / (1 << 12)
	w0, h0 := float64(b.texW), float64(b.texH)
	coef := [4][2]float64{{1, 0}, {0, 1}, {w0, h0}, {w0, -h0}}
	n := 0
	for d := range 4 {
		m := float64((math.Abs(coef[d][0]) + math.Abs(coef[d][1])) * mu)
		var f [3]float64
		for v := range 3 {
			f[v] = float64(coef[d][0]*float64(tr.attr[v][0])) + float64(coef[d][1]*float64(tr.attr[v][1]))
		}
		span := max(f[0], f[1], f[2]) - min(f[0], f[1], f[2])
		for side := range 2 {
			// g ≥ 0 on the side's inside: f_d − (lo − m), or (hi + m) − f_d.
			sign, c := 1.0, -(o.lo[d] - m)
			if side == 1 {
				sign, c = -1, o.hi[d]+m
			}
			if math.IsInf(c, 0) {
				continue
			}
			var k [3]float64
			var gmin, gmax float64 = inf, -inf
			for v := range 3 {
				g := float64(sign*f[v]) + c
				gmin, gmax = min(gmin, g), max(gmax, g)
				k[v] = float64(tr.q[v]) * g
			}
			if gmax < 0 {
				return 0, false
			}
			// A side that cuts off less than a sixteenth of the
			// triangle's extent along f_d is left out.
			if gmin >= 0 || -gmin < span/16 {
				continue
			}
			step := (float64(k[0]*float64(tr.e[0].a)) + float64(k[1]*float64(tr.e[1].a)) + float64(k[2]*float64(tr.e[2].a))) * subOne
			s[n] = hullSide{k: k, step: step, inv: -1 / step}
			n++
		}
	}
	return n, true
}

// hullLevels returns the range of levels the fragments of tr can read, by
// the bounds on their λ.
func (t *Target) hullLevels(tr *tri, b *batchInfo, lodBias float32) (lo, hi int) {
	n := len(t.mips[b.mip-1].levels)
	sx, sy := float64(b.texW), float64(b.texH)
	hi = n - 1
	if l := triLODMax(tr, sx, sy) + float64(lodBias) + lodMargin; l <= 0 {
		hi = 0
	} else if l < float64(n-1) {
		hi = int(math.Ceil(l))
	}
	// The finest level is the one a lazy texture decodes from, for this
	// triangle's bound alone.
	lb := LODBound{rho2: triLOD(tr, sx, sy), sx: sx, sy: sy, bias: lodBias}
	return min(lb.Level(int(b.texW), int(b.texH)), hi), hi
}

// cutSpan narrows the span xl..xr of a row to the pixels inside the
// sides s, the triangle's edge values at pixel xl being w0, w1 and w2; it
// returns xl > xr when no pixel is left. Each bound keeps a pixel more
// than the arithmetic asks, and a NaN leaves the span as it is.
func cutSpan(s []hullSide, xl, xr, w0, w1, w2 int64) (int64, int64) {
	f0, f1, f2 := float64(w0), float64(w1), float64(w2)
	// The pixels kept, as offsets from xl.
	lo, hi := 0.0, float64(xr-xl)
	for i := range s {
		sd := &s[i]
		e := float64(sd.k[0]*f0) + float64(sd.k[1]*f1) + float64(sd.k[2]*f2)
		// The side holds at offset o where e + o·step ≥ 0.
		switch t := float64(e * sd.inv); {
		case sd.step > 0:
			if t-1 > lo {
				lo = t - 1
			}
		case sd.step < 0:
			if t+1 < hi {
				hi = t + 1
			}
		case e < 0:
			return xr + 1, xr
		}
	}
	if !(lo <= hi) {
		return xr + 1, xr
	}
	return xl + int64(math.Ceil(lo)), xl + int64(math.Floor(hi))
}
