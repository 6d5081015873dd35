package raster

import (
	"math"
)

// The fragment loop works a row span of a triangle at a time, in passes:
// find the fragments that pass the depth test and their perspective
// weights, then colour, texture, light and blend them (or shade them with
// the batch's Shader), each pass a short loop over the span's arrays. Each
// pass keeps only a few values live, so the compiler keeps them in
// registers, and a texture is read without a call through the Sampler
// interface. The fixed rule's arithmetic is the one shadeSpanShader hands
// a Shader, term for term and in the same order, so a Shader that follows
// the fixed rule gets the same bits.

// spanBuf holds the fragments of a triangle's rows that are shaded
// together; one per band worker, reused.
type spanBuf struct {
	// pix is the fragment's pixel, y·Width + x.
	pix        []int32
	z, iq      []float32
	p0, p1, p2 []float32
	r, g, b, a []float32
	u, v, lod  []float32
	width      int
	// pass1 is pass1x8's arguments, kept here: on rasterTri's stack they
	// would be cleared at every call.
	pass1 p1Args
	// lod0: every fragment of the triangle being shaded samples level 0
	// alone (its λ is at most 0), so pass 3 leaves λ out.
	lod0 bool
	// culled counts the triangles and rows that the octagons of their
	// textures left out, for tests.
	culled int
	// drawn bounds the spans drawn since the Draw began (pixels [x0, x1)
	// of rows [y0, y1)): every pixel the Draw could write. Kept only for
	// a DrawOnly target.
	drawn struct{ x0, y0, x1, y1 int }
	// walk is rasterTri's, kept here: on its stack it would be cleared
	// at every call.
	walk spanWalk
}

// lod0Area is the bounding-box area from which rasterTri works out
// whether a triangle's fragments all sample level 0: the bound costs
// about as much as leaving λ out saves on a hundred fragments.
const lod0Area = 256

// getSpan and putSpan keep a Target's span buffers between bands and
// frames, so that steady-state frames do not allocate.
func (t *Target) getSpan() *spanBuf {
	t.spanMu.Lock()
	defer t.spanMu.Unlock()
	if n := len(t.spans); n > 0 {
		s := t.spans[n-1]
		t.spans = t.spans[:n-1]
		return s
	}
	s := new(spanBuf)
	s.resetDrawn(t.Width, t.Height)
	return s
}

func (t *Target) putSpan(s *spanBuf) {
	t.spanMu.Lock()
	t.spans = append(t.spans, s)
	t.spanMu.Unlock()
}

// resetDrawn empties drawn for a w×h target: addDrawn's minima start
// past its right and bottom edges.
func (s *spanBuf) resetDrawn(w, h int) {
	s.drawn.x0, s.drawn.y0, s.drawn.x1, s.drawn.y1 = w, h, 0, 0
}

// addDrawn adds pixels [x0, x1) of rows [y0, y1) to what the Draw may
// have written (Target.DrawOnly).
func (s *spanBuf) addDrawn(x0, y0, x1, y1 int) {
	d := &s.drawn
	d.x0, d.y0, d.x1, d.y1 = min(d.x0, x0), min(d.y0, y0), max(d.x1, x1), max(d.y1, y1)
}

// grow makes room for n fragments.
func (s *spanBuf) grow(n int) {
	if s.width >= n {
		return
	}
	s.width = n
	for _, p := range []*[]float32{&s.z, &s.iq, &s.p0, &s.p1, &s.p2, &s.r, &s.g, &s.b, &s.a, &s.u, &s.v, &s.lod} {
		*p = make([]float32, n)
	}
	s.pix = make([]int32, n)
}

// shadeBatch is how many fragments rasterTri gathers, over as many rows of
// a triangle as it takes, before shading them: enough that the passes run long loops (eight at a time in the
// vector texture kernel) on triangles only a few pixels wide, few enough
// to stay in the first-level cache.
const shadeBatch = 128

// vecSpan is the shortest span pass1x8 takes; a shorter one costs less
// in the Go loop than the kernel's set-up. The Go loop takes about three
// times the kernel's instructions a pixel, and since the kernel's
// arguments stay in the span buffer its set-up is a few stores.
const vecSpan = 6

// mipLevel is a Texture level as the fragment loop reads it.
type mipLevel struct {
	pix    []uint8
	stride int
	w, h   int
	fw, fh float32
	// Addressing per axis: texel i maps to i&mask when the axis repeats
	// over a power of two (pow2), to i mod n when it repeats otherwise,
	// and is clamped to 0..n−1 when it does not repeat.
	repU, repV   bool
	pow2U, pow2V bool
	ok           bool // has texels; a level without samples white
}

// mipTex is a Texture prepared for one Draw.
type mipTex struct {
	levels []mipLevel
	n      int
	// vec is the level chain for the vector kernel, nil where it does
	// not sample this texture; vt describes it.
	vec []vecLevel
	vt  vecTex
}

// prepareTexture returns t ready for the fragment loop, its levels in
// tg's arena. A level that is not valid (Draw has refused a caller's
// Texture with one) samples as opaque white, as Texture.Sample does.
func (tg *Target) prepareTexture(t *Texture) mipTex {
	start := len(tg.mipLevels)
	for i := range t.Levels {
		tg.mipLevels = append(tg.mipLevels, t.mipLevel(i))
	}
	levels := tg.mipLevels[start:len(tg.mipLevels):len(tg.mipLevels)]
	return mipTex{levels: levels, n: len(levels)}
}

// mipLevel returns level i of t as the fragment loop reads it.
func (t *Texture) mipLevel(i int) mipLevel {
	lv := &t.Levels[i]
	return mipLevel{w: lv.Width, h: lv.Height, stride: lv.Stride, pix: lv.Pix,
		fw: float32(lv.Width), fh: float32(lv.Height), repU: t.RepeatU, repV: t.RepeatV,
		pow2U: lv.Width&(lv.Width-1) == 0, pow2V: lv.Height&(lv.Height-1) == 0,
		ok: lv.held()}
}

// mipPick returns the levels of an n-level chain (n ≥ 1) that a
// LINEAR_MIPMAP_LINEAR lookup at λ = lod reads, and the weight of the
// second: level 0 for λ ≤ 0 (and for a NaN λ), the last level past the
// end of the chain, else ⌊λ⌋ and, when λ has a fraction, the level after
// it; l1 is −1 when one level is read.
func mipPick(n int, lod float32) (l0, l1 int, f float32) {
	switch {
	case n == 1 || !(lod > 0):
		return 0, -1, 0
	case lod >= float32(n-1):
		return n - 1, -1, 0
	}
	l0 = int(lod)
	if f = lod - float32(l0); f == 0 {
		return l0, -1, 0
	}
	return l0, l0 + 1, f
}

// sample is Texture.Sample for a prepared texture.
func (m *mipTex) sample(u, v, lod float32) (float32, float32, float32, float32) {
	if m.n == 0 {
		return 1, 1, 1, 1
	}
	l0, l1, f := mipPick(m.n, lod)
	r, g, b, a := m.levels[l0].bilinear(u, v)
	if l1 < 0 {
		return r, g, b, a
	}
	r1, g1, b1, a1 := m.levels[l1].bilinear(u, v)
	r += float32((r1 - r) * f)
	g += float32((g1 - g) * f)
	b += float32((b1 - b) * f)
	a += float32((a1 - a) * f)
	return r, g, b, a
}

// bilinear filters the level at (u, v): the four texels around the
// sample point, weighted in straight alpha. It is the inner loop of every
// textured fragment, so it is written for the compiler: the addressing
// mode is a predictable branch, one bounds check per texel.
func (l *mipLevel) bilinear(u, v float32) (float32, float32, float32, float32) {
	if !l.ok || u != u || v != v {
		return 1, 1, 1, 1
	}
	ix, ax := texelPos(u, l.fw)
	iy, ay := texelPos(v, l.fh)
	var x0, x1, y0, y1 int
	switch {
	case l.repU && l.pow2U:
		x0, x1 = ix&(l.w-1), (ix+1)&(l.w-1)
	case l.repU:
		x0, x1 = repeatPair(ix, l.w)
	default:
		x0, x1 = clampPair(ix, l.w)
	}
	switch {
	case l.repV && l.pow2V:
		y0, y1 = iy&(l.h-1), (iy+1)&(l.h-1)
	case l.repV:
		y0, y1 = repeatPair(iy, l.h)
	default:
		y0, y1 = clampPair(iy, l.h)
	}
	pix := l.pix
	r0, r1 := y0*l.stride, y1*l.stride
	o00, o10, o01, o11 := r0+x0*4, r0+x1*4, r1+x0*4, r1+x1*4
	p00 := pix[o00 : o00+4 : o00+4]
	p10 := pix[o10 : o10+4 : o10+4]
	p01 := pix[o01 : o01+4 : o01+4]
	p11 := pix[o11 : o11+4 : o11+4]
	w00 := (1 - ax) * (1 - ay) / 255
	w10 := ax * (1 - ay) / 255
	w01 := (1 - ax) * ay / 255
	w11 := ax * ay / 255
	// Each product rounded before it is added (see interp).
	return float32(float32(p00[0])*w00) + float32(float32(p10[0])*w10) + float32(float32(p01[0])*w01) + float32(float32(p11[0])*w11),
		float32(float32(p00[1])*w00) + float32(float32(p10[1])*w10) + float32(float32(p01[1])*w01) + float32(float32(p11[1])*w11),
		float32(float32(p00[2])*w00) + float32(float32(p10[2])*w10) + float32(float32(p01[2])*w01) + float32(float32(p11[2])*w11),
		float32(float32(p00[3])*w00) + float32(float32(p10[3])*w10) + float32(float32(p01[3])*w01) + float32(float32(p11[3])*w11)
}

// clampPair returns i and i+1 clamped to 0..n−1.
func clampPair(i, n int) (int, int) {
	a, b := i, i+1
	if a < 0 {
		a = 0
	} else if a > n-1 {
		a = n - 1
	}
	if b < 0 {
		b = 0
	} else if b > n-1 {
		b = n - 1
	}
	return a, b
}

// rasterTri draws the rows ys..ye of a triangle of a batch; f is the
// Fragment a batch with a Shader is shaded through. The fragments of
// several rows are shaded together, the blend and depth writes included:
// a triangle covers a pixel once, so no fragment depends on another's
// writes.
func (t *Target) rasterTri(tr *tri, b *batchInfo, ys, ye int, lodBias float32, f *Fragment, sp *spanBuf) {
	if tr.hull < 0 {
		// No fragment can change the picture (hull.go).
		sp.culled++
		return
	}
	// Room for a row past shadeBatch, and for the vector kernels' last
	// group of eight.
	sp.grow(int(tr.maxX) - int(tr.minX) + 1 + shadeBatch + 8)
	sp.lod0 = boxArea(tr, ys, ye) >= lod0Area && b.level0(tr, lodBias)
	// pass1x8 takes the rows of at least vecSpan pixels, its arguments
	// set up at the first: most triangles of a model at thumbnail size
	// have none.
	p1 := &sp.pass1
	vec1, set1 := haveVec, false
	n := 0
	// A large triangle is cut to the octagons of its texture (hull.go).
	var sides []hullSide
	if tr.hull > 0 {
		sides = t.sides[tr.hull-1:][:tr.nHull]
	}
	if t.DrawOnly && len(sides) == 0 {
		// The rows' spans lie in the bounding box; a cut triangle's are
		// added row by row.
		sp.addDrawn(int(tr.minX), ys, int(tr.maxX)+1, ye+1)
	}
	st := &b.st
	e0, e1, e2 := tr.e[0], tr.e[1], tr.e[2]
	s0, s1, s2 := e0.a*subOne, e1.a*subOne, e2.a*subOne
	inv := tr.invArea
	z0, z1, z2 := tr.z[0], tr.z[1], tr.z[2]
	q0, q1, q2 := tr.q[0], tr.q[1], tr.q[2]
	depth := t.Depth
	W := t.Width
	depthTest := st.DepthTest
	wk := &sp.walk
	wk.start(tr, ys)
	for y := ys; y <= ye; y++ {
		xl, xr := wk.next()
		if xl > xr {
			continue
		}
		py := int64(y)*subOne + subOne/2
		pxl := xl*subOne + subOne/2
		w0 := e0.a*pxl + e0.b*py + e0.c
		w1 := e1.a*pxl + e1.b*py + e1.c
		w2 := e2.a*pxl + e2.b*py + e2.c
		if len(sides) > 0 {
			x0 := xl
			if xl, xr = cutSpan(sides, xl, xr, w0, w1, w2); xl > xr {
				sp.culled++
				continue
			}
			if t.DrawOnly {
				sp.addDrawn(int(xl), y, int(xr)+1, y+1)
			}
			if xl != x0 {
				pxl = xl*subOne + subOne/2
				w0 = e0.a*pxl + e0.b*py + e0.c
				w1 = e1.a*pxl + e1.b*py + e1.c
				w2 = e2.a*pxl + e2.b*py + e2.c
			}
		}
		// Pass 1: depth test and perspective weights.
		row := depth[y*W : (y+1)*W]
		pix, zs, iqs := sp.pix, sp.z, sp.iq
		p0s, p1s, p2s := sp.p0, sp.p1, sp.p2
		long := xr-xl >= vecSpan-1
		if long && vec1 && !set1 {
			set1 = setupPass1(p1, tr, ys, ye, depthTest)
			vec1 = set1
		}
		if long && set1 {
			p1.x, p1.xr, p1.w0, p1.w1, p1.w2 = xl, xr, w0, w1, w2
			p1.row, p1.pixBase = &row[0], int64(y*W)
			p1.pix, p1.zs, p1.iq = &pix[n], &zs[n], &iqs[n]
			p1.p0, p1.p1, p1.p2 = &p0s[n], &p1s[n], &p2s[n]
			n += pass1x8(p1)
		} else {
			for x := int(xl); x <= int(xr); x, w0, w1, w2 = x+1, w0+s0, w1+s1, w2+s2 {
				l0, l1, l2 := float32(w0)*inv, float32(w1)*inv, float32(w2)*inv
				z := interp(l0, l1, l2, z0, z1, z2)
				if depthTest && z > row[x] {
					continue
				}
				q := interp(l0, l1, l2, q0, q1, q2)
				iq := 1 / q
				pix[n], zs[n], iqs[n] = int32(y*W+x), z, iq
				p0s[n], p1s[n], p2s[n] = l0*q0*iq, l1*q1*iq, l2*q2*iq
				n++
			}
		}
		if n >= shadeBatch {
			t.shadeFragments(tr, b, n, lodBias, f, sp)
			n = 0
		}
	}
	if n > 0 {
		t.shadeFragments(tr, b, n, lodBias, f, sp)
	}
}

// level0 reports whether every fragment of tr, of batch b, samples
// level 0 alone (its λ is at most 0). It is worth working out for rows
// whose box has lod0Area pixels or more (boxArea).
func (b *batchInfo) level0(tr *tri, lodBias float32) bool {
	return b.mip > 0 && b.shader == nil && triLODMax(tr, float64(b.texW), float64(b.texH))+float64(lodBias) < -lodMargin
}

// boxArea is the area of tr's bounding box over rows ys..ye.
func boxArea(tr *tri, ys, ye int) int { return (int(tr.maxX) - int(tr.minX) + 1) * (ye - ys + 1) }

// shadeFragments shades and blends the n fragments rasterTri gathered.
func (t *Target) shadeFragments(tr *tri, b *batchInfo, n int, lodBias float32, f *Fragment, sp *spanBuf) {
	if b.shader != nil {
		t.shadeSpanShader(tr, b, n, lodBias, f, sp)
	} else {
		t.shadeSpan(tr, b, n, lodBias, sp)
	}
}

// shadeSpan colours, textures, lights and blends the n fragments that
// rasterTri found.
func (t *Target) shadeSpan(tr *tri, b *batchInfo, n int, lodBias float32, sp *spanBuf) {
	lod0 := t.shadePre(tr, b, n, lodBias, sp)
	t.shadePost(tr, b, n, lod0, sp)
}

// shadePre runs the passes up to the texture lookup for the first n
// fragments of sp: the batch and vertex colour (pass 2) and the texture
// coordinates and level of detail (pass 3's first half). It reports
// whether it wrote every λ as 0 (uvLOD8's lod0), which sampleMul may then
// rely on.
func (t *Target) shadePre(tr *tri, b *batchInfo, n int, lodBias float32, sp *spanBuf) bool {
	// A texture sampled through sampleMul takes a colour that is the same
	// for every fragment as it is (shadePost's cp), rather than arrays
	// filled with it.
	if b.tex == nil || b.mip == 0 || b.vertexColor {
		colorPass(tr, b, n, sp)
	}
	if b.tex == nil {
		return false
	}
	a0, a1, a2 := &tr.attr[0], &tr.attr[1], &tr.attr[2]
	// Pass 3: the texture coordinates and the level of detail of their
	// derivatives.
	if haveVec && n >= 2 && n+8 <= sp.width {
		// Whole groups of eight: the lanes past n compute values
		// nothing reads.
		c := b.uvFor(lodBias, sp.lod0)
		uvLOD8(tr, &c, &sp.p0[0], &sp.p1[0], &sp.p2[0], &sp.iq[0], &sp.u[0], &sp.v[0], &sp.lod[0], (n+7)/8)
		return sp.lod0
	}
	p0s, p1s, p2s := sp.p0[:n], sp.p1[:n], sp.p2[:n]
	us, vs, lods, iqs := sp.u[:n], sp.v[:n], sp.lod[:n], sp.iq[:n]
	du0, du1, dv0, dv1, dq0, dq1 := tr.du[0], tr.du[1], tr.dv[0], tr.dv[1], tr.dq[0], tr.dq[1]
	texW, texH := b.texW, b.texH
	for i := range us {
		p0, p1, p2 := p0s[i], p1s[i], p2s[i]
		u := float32(p0*a0[0]) + float32(p1*a1[0]) + float32(p2*a2[0])
		v := float32(p0*a0[1]) + float32(p1*a1[1]) + float32(p2*a2[1])
		iq := iqs[i]
		// d(u)/dx = (d(u/w)/dx − u·d(1/w)/dx)·w, in texels.
		dux := (du0 - float32(u*dq0)) * iq * texW
		dvx := (dv0 - float32(v*dq0)) * iq * texH
		duy := (du1 - float32(u*dq1)) * iq * texW
		dvy := (dv1 - float32(v*dq1)) * iq * texH
		rho2 := max(float32(dux*dux)+float32(dvx*dvx), float32(duy*duy)+float32(dvy*dvy))
		lod := float32(-32)
		if rho2 > 0 {
			lod = lambda(rho2) + lodBias
		}
		us[i], vs[i], lods[i] = u, v, lod
	}
	return false
}

// colorPass is pass 2 for the first n fragments of sp: the batch colour,
// times the vertex colour.
func colorPass(tr *tri, b *batchInfo, n int, sp *spanBuf) {
	rs, gs, bs, as := sp.r[:n], sp.g[:n], sp.b[:n], sp.a[:n]
	fillColor(&b.color, rs, gs, bs, as)
	if !b.vertexColor {
		return
	}
	a0, a1, a2 := &tr.attr[0], &tr.attr[1], &tr.attr[2]
	p0s, p1s, p2s := sp.p0[:n], sp.p1[:n], sp.p2[:n]
	for i := range rs {
		p0, p1, p2 := p0s[i], p1s[i], p2s[i]
		rs[i] *= float32(p0*a0[2]) + float32(p1*a1[2]) + float32(p2*a2[2])
		gs[i] *= float32(p0*a0[3]) + float32(p1*a1[3]) + float32(p2*a2[3])
		bs[i] *= float32(p0*a0[4]) + float32(p1*a1[4]) + float32(p2*a2[4])
		as[i] *= float32(p0*a0[5]) + float32(p1*a1[5]) + float32(p2*a2[5])
	}
}

// shadePost runs the passes from the texture lookup on for the first n
// fragments of sp, which shadePre has prepared: the texel (pass 3's
// second half), lighting (pass 4) and the blend. lod0 says every λ was
// written as 0.
func (t *Target) shadePost(tr *tri, b *batchInfo, n int, lod0 bool, sp *spanBuf) {
	st := &b.st
	rs, gs, bs, as := sp.r[:n], sp.g[:n], sp.b[:n], sp.a[:n]
	if b.tex != nil {
		us, vs, lods := sp.u[:n], sp.v[:n], sp.lod[:n]
		if b.mip > 0 {
			var cp *[4]float32
			if !b.vertexColor {
				cp = &b.color
			}
			t.mips[b.mip-1].sampleMul(us, vs, lods, rs, gs, bs, as, cp, lod0)
		} else {
			for i := range us {
				tx := b.tex.Sample(us[i], vs[i], lods[i])
				rs[i], gs[i], bs[i], as[i] = rs[i]*tx[0], gs[i]*tx[1], bs[i]*tx[2], as[i]*tx[3]
			}
		}
	}
	// Pass 4: lighting.
	if st.Lit {
		p0s, p1s, p2s := sp.p0[:n], sp.p1[:n], sp.p2[:n]
		for i := range rs {
			f := lightFactor(tr, st.Ambient, p0s[i], p1s[i], p2s[i])
			rs[i], gs[i], bs[i] = rs[i]*f, gs[i]*f, bs[i]*f
		}
	}
	t.blendSpan(st, n, sp)
}

// interp is p0·a0 + p1·a1 + p2·a2, in that order, an attribute
// interpolated with a fragment's weights.
//
// Here and in every float expression of the package, a product that is
// added to something is rounded first, float32(x*y): where Go may fuse
// a multiply and an add into one instruction (GOAMD64=v3 and up, arm64
// and others), an unrounded product would give other bits than the
// vector kernels, which round every product, and than the same code on
// another machine. TestNoFusedMultiplyAdd holds the package to it. Where
// the weights and attributes are loaded from memory the sums are written
// out rather than through interp: inlined, a helper's arguments are all
// loaded before its arithmetic, and the compiler spilled them.
func interp(p0, p1, p2, a0, a1, a2 float32) float32 {
	return float32(p0*a0) + float32(p1*a1) + float32(p2*a2)
}

// lightFactor is the lighting factor of the fragment of tr with weights
// p0, p1, p2: the interpolated normal and light vector's dot product, not
// below 0, plus amb, at most 1.
func lightFactor(tr *tri, amb, p0, p1, p2 float32) float32 {
	a0, a1, a2 := &tr.attr[0], &tr.attr[1], &tr.attr[2]
	nx := float32(p0*a0[6]) + float32(p1*a1[6]) + float32(p2*a2[6])
	ny := float32(p0*a0[7]) + float32(p1*a1[7]) + float32(p2*a2[7])
	nz := float32(p0*a0[8]) + float32(p1*a1[8]) + float32(p2*a2[8])
	lx := float32(p0*a0[9]) + float32(p1*a1[9]) + float32(p2*a2[9])
	ly := float32(p0*a0[10]) + float32(p1*a1[10]) + float32(p2*a2[10])
	lz := float32(p0*a0[11]) + float32(p1*a1[11]) + float32(p2*a2[11])
	return min(max(float32(nx*lx)+float32(ny*ly)+float32(nz*lz), 0)+amb, 1)
}

// blendSpan clamps the n fragments held in sp (pixel, z and the colour
// r, g, b, a), alpha-tests them, blends them into the colour buffer and
// writes their depth, as st says: the last step of both the fixed rule and
// a Shader's.
func (t *Target) blendSpan(st *State, n int, sp *spanBuf) {
	pix, zs := sp.pix[:n], sp.z[:n]
	rs, gs, bs, as := sp.r[:n], sp.g[:n], sp.b[:n], sp.a[:n]
	color, depth := t.Color, t.Depth
	alphaTest, ref, dw := st.AlphaTest, st.AlphaRef, st.DepthWrite
	op := st.Blend
	// blend4 does not check pixel indices: each lies in its triangle's
	// bounding box, which setupTri clips to the target, in a row of the
	// band (pass 1 slices that row of the depth buffer with checks).
	if haveVec && n > 0 && (op == BlendReplace || op == BlendOver || op == BlendAdd) {
		c := blendArgs{pix: &pix[0], z: &zs[0], r: &rs[0], g: &gs[0], b: &bs[0], a: &as[0],
			color: &color[0], depth: &depth[0], n: n, ref: ref, op: int32(op)}
		if !alphaTest || ref != ref {
			// a < NaN is false as a < −∞ is: the test passes every fragment.
			c.ref = float32(math.Inf(-1))
		}
		if dw {
			c.depthWrite = 1
		}
		blend4(&c)
		return
	}
	for i, x := range pix {
		r, g, bl, a := clamp01(rs[i]), clamp01(gs[i]), clamp01(bs[i]), clamp01(as[i])
		if alphaTest && a < ref {
			continue
		}
		c := color[4*x : 4*x+4 : 4*x+4]
		switch op {
		case BlendReplace:
			c[0], c[1], c[2], c[3] = r, g, bl, 1
		case BlendOver:
			k := 1 - a
			c[0] = clamp01(float32(r*a) + float32(c[0]*k))
			c[1] = clamp01(float32(g*a) + float32(c[1]*k))
			c[2] = clamp01(float32(bl*a) + float32(c[2]*k))
			c[3] = clamp01(a + float32(c[3]*k))
		case BlendAdd:
			c[0] = clamp01(c[0] + float32(r*a))
			c[1] = clamp01(c[1] + float32(g*a))
			c[2] = clamp01(c[2] + float32(bl*a))
		case BlendModulate:
			m := (r + g + bl) / 3
			c[0], c[1], c[2] = c[0]*r, c[1]*g, c[2]*bl
			c[3] = 1 - float32((1-c[3])*m)
		case BlendModulate2x:
			m := min(1, 2*(r+g+bl)/3)
			c[0], c[1], c[2] = clamp01(2*c[0]*r), clamp01(2*c[1]*g), clamp01(2*c[2]*bl)
			c[3] = 1 - float32((1-c[3])*m)
		}
		if dw {
			depth[x] = zs[i]
		}
	}
}

// edgeMax returns the largest magnitude of the edge values of the
// triangle's pixels in rows ys..ye, which pass1x8 needs bounded: they are
// largest at the corners of the bounding box.
func (tr *tri) edgeMax(ys, ye int) int64 {
	x0, x1 := int64(tr.minX)*subOne+subOne/2, int64(tr.maxX)*subOne+subOne/2
	y0, y1 := int64(ys)*subOne+subOne/2, int64(ye)*subOne+subOne/2
	return max(tr.e[0].max(x0, x1, y0, y1), tr.e[1].max(x0, x1, y0, y1), tr.e[2].max(x0, x1, y0, y1))
}

// max returns the largest magnitude of the edge's values over the box
// x0..x1 × y0..y1 (in subpixels): it is linear, so the extremes are at
// corners.
func (e *edge) max(x0, x1, y0, y1 int64) int64 {
	ax0, ax1, by0, by1 := e.a*x0, e.a*x1, e.b*y0, e.b*y1
	hi := max(ax0, ax1) + max(by0, by1) + e.c
	lo := min(ax0, ax1) + min(by0, by1) + e.c
	return max(hi, -lo)
}

// spanWalk steps a triangle's spans down its rows: the pixel columns of
// a row whose centres are inside all three edges, solved in integers, so
// no pixel outside is visited. Inside an edge is d·x + r ≥ 0, r growing
// by b·256 a row, so each edge's bound on x moves by the same quotient a
// row, and its remainder by the same remainder: only the first row
// divides, where a division per edge and row cost tens of cycles.
type spanWalk struct {
	// Per edge: kind 1 bounds x from below (x ≥ ⌈n/d⌉, n = −r, s = x·d
	// − n), −1 from above (x ≤ ⌊r/d⌋, s = r − x·d), 0 is horizontal (x
	// holds r; the row is out when r < 0). q and m are the quotient and
	// remainder of the step, b·256, by d.
	x, s, q, m, d [3]int64
	kind          [3]int8
	minX, maxX    int64
}

// start sets w to row y of tr.
func (w *spanWalk) start(tr *tri, y int) {
	py := int64(y)*subOne + subOne/2
	w.minX, w.maxX = int64(tr.minX), int64(tr.maxX)
	for k := range tr.e {
		e := &tr.e[k]
		r := e.b*py + e.c + e.bias + e.a*(subOne/2)
		step := e.b * subOne
		switch {
		case e.a > 0:
			d := e.a * subOne
			x := ceilDiv(-r, d)
			w.kind[k], w.d[k], w.x[k], w.s[k] = 1, d, x, x*d+r
			w.q[k], w.m[k] = floorDivMod(step, d)
		case e.a < 0:
			d := -e.a * subOne
			x := floorDiv(r, d)
			w.kind[k], w.d[k], w.x[k], w.s[k] = -1, d, x, r-x*d
			w.q[k], w.m[k] = floorDivMod(step, d)
		default:
			w.kind[k], w.x[k], w.q[k] = 0, r, step
		}
	}
}

// next returns the span of w's row, as span does, and moves w to the
// next row.
func (w *spanWalk) next() (xl, xr int64) {
	xl, xr = w.minX, w.maxX
	for k := range 3 {
		x, s := w.x[k], w.s[k]
		switch w.kind[k] {
		case 1:
			// n falls by the step: x by q, s grows by m, carried. The
			// carry is computed, not branched on: it comes and goes
			// from row to row as the slope's fraction does.
			xl = max(xl, x)
			s += w.m[k]
			c := (w.d[k] - 1 - s) >> 63 // −1 when s ≥ d
			x, s = x-w.q[k]+c, s-w.d[k]&c
		case -1:
			// r grows by the step: x by q, s by m, carried.
			xr = min(xr, x)
			s += w.m[k]
			c := (w.d[k] - 1 - s) >> 63
			x, s = x+w.q[k]-c, s-w.d[k]&c
		default:
			if x < 0 {
				xr = -1
			}
			x += w.q[k]
		}
		w.x[k], w.s[k] = x, s
	}
	return xl, xr
}

// floorDivMod returns ⌊a/b⌋ and a − b·⌊a/b⌋ (in 0..b−1) for b > 0.
func floorDivMod(a, b int64) (int64, int64) {
	q, m := a/b, a%b
	if m < 0 {
		q, m = q-1, m+b
	}
	return q, m
}
