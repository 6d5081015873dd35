package raster

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"
)

// On amd64 with AVX2 the fixed rule's passes have vector kernels
// (vec_amd64.s): the depth test and perspective weights of a row span
// (pass1x8), the texture coordinates and level of detail (uvLOD8) and the
// texture lookup (sampleMulN) eight fragments at a time, the replace,
// over and add blends four or eight fragments at a time, then each one's
// four channels, two pixels at once where they are consecutive (blend4),
// and Resolve's conversion to straight colour (resolveStraight). Each is
// there because a whole thumbnail takes at least 10 % more CPU time
// without it (vec_amd64.s gives each one's figure); kernels for the
// lighting, for small triangles' boxes and for the supersampled resolve's
// box filter saved less and were removed. Each does the float32
// operations of its Go loop in the same order, so the pictures have the
// same bits (TestVecSample, TestVecPasses, TestVecFrames,
// TestVecRandomScenes, TestVecResolve, FuzzVecSample, FuzzVecScene). Go
// may fuse a multiply and an add (GOAMD64=v3 and up, arm64 and others),
// which would give the Go loops other bits: the package rounds every
// product first (see interp), and TestNoFusedMultiplyAdd holds it to
// that, so the kernels are built at every amd64 level.
//
// The texture kernel takes the common case only: eight fragments that all
// start on the same held mip level (and read the next), or on two
// neighbouring ones, of a texture whose held levels each clamp or repeat
// over a power of two. A group whose lanes start on levels further apart
// goes through it once per level (sampleSplit); any other group takes the
// Go loop.

// vecLevel is a mip level as the kernel reads it; the offsets of its
// fields are fixed in vec_amd64.s.
type vecLevel struct {
	pix        *uint8  // 0: texel (0, 0); nil for a level without texels
	fw, fh     float32 // 8, 12: width and height
	xmax, ymax int32   // 16, 20: width−1 and height−1
	stride     int32   // 24
	wrapU      int32   // 28: −1 to repeat u (masking with xmax), 0 to clamp
	wrapV      int32   // 32: the same for v
	qstride    int32   // 36: bytes from a row of quads to the next
	quads      *uint32 // 40: the level as quads (buildQuads), or nil
}

// A level the kernel reads as quads holds, for each place a sample can
// fall, the four texels bilinear weighs there (x0 y0, x1 y0, x0 y1, x1 y1,
// after the wrap or clamp), so that a fragment's texels are one 16-byte
// load instead of four gathered ones: the gathers were about 40 % of the
// kernel's time. A quad is four times the level's bytes, built per Draw,
// so only small levels get them: a magnified texture (a team glow, a
// 64² decal) is read at level 0 by thousands of fragments a texel.
//
// Quad (qx, qy) is at qx·16 + qy·qstride. Along an axis that repeats, qx
// is the texel index i masked to the level and its pair is qx+1 masked;
// along one that clamps, qx = clamp(i+1, 0, w): column 0 is the pair
// (0, 0) every i < 0 reads, column w the pair (w−1, w−1) of i ≥ w−1.
const maxQuads = 65 * 65

// quadLevels is how many held levels of a texture, from its finest, get
// quads: the finest is where a magnified texture is read, and the next
// the second level of trilinear filtering there.
const quadLevels = 2

// prepareQuads gives the first n held levels of m (Draw asks for
// quadLevels) that are small enough their quads, in buffers tg keeps
// between Draws.
func (tg *Target) prepareQuads(m *mipTex, n int) {
	held := 0
	for i := range m.vec {
		v, l := &m.vec[i], &m.levels[i]
		if v.pix == nil {
			continue
		}
		if held++; held > n {
			return
		}
		qw, qh := quadCount(l.w, l.repU), quadCount(l.h, l.repV)
		if qw*qh > maxQuads {
			continue
		}
		if tg.nQuads == len(tg.quads) {
			tg.quads = append(tg.quads, nil)
		}
		q := tg.quads[tg.nQuads]
		if cap(q) < 4*qw*qh {
			q = make([]uint32, 4*qw*qh)
			tg.quads[tg.nQuads] = q
		}
		tg.nQuads++
		buildQuads(l, qw, qh, q)
		v.quads, v.qstride = &q[0], int32(16*qw)
	}
}

// quadCount is the number of quads along an axis of n texels.
func quadCount(n int, repeat bool) int {
	if repeat {
		return n
	}
	return n + 1
}

// quadPair is the pair of texels of quad c along an axis of n texels:
// the pair bilinear reads at texel index c where the axis repeats (over
// a power of two, masked as bilinear masks it), and at c−1 where it
// clamps.
func quadPair(c, n int, repeat bool) (int, int) {
	if repeat {
		return c, (c + 1) & (n - 1)
	}
	return clampPair(c-1, n)
}

// buildQuads fills q with the qw×qh quads of l, a row of quads from two
// rows of texels.
func buildQuads(l *mipLevel, qw, qh int, q []uint32) {
	q = q[:4*qw*qh]
	w := l.w
	for qy := range qh {
		y0, y1 := quadPair(qy, l.h, l.repV)
		r0, r1 := l.pix[y0*l.stride:][:4*w], l.pix[y1*l.stride:][:4*w]
		d := q[4*qw*qy:][:4*qw]
		for qx := range qw {
			x0, x1 := quadPair(qx, w, l.repU)
			e := d[4*qx:][:4:4]
			e[0], e[1] = binary.LittleEndian.Uint32(r0[4*x0:]), binary.LittleEndian.Uint32(r0[4*x1:])
			e[2], e[3] = binary.LittleEndian.Uint32(r1[4*x0:]), binary.LittleEndian.Uint32(r1[4*x1:])
		}
	}
}

// vecTex is a texture's level chain as the kernel reads it.
type vecTex struct {
	levels *vecLevel // 0
	nm1    int32     // 8: the index of the last level
	nm1f   float32   // 12: the same as a float
}

// maxVecPix bounds a level the kernel reads: it addresses texels with
// 32-bit offsets.
const maxVecPix = 1<<31 - 1

// prepareVec fills tg's vector-kernel arena with the levels of m and
// reports whether the kernel can sample it.
func (tg *Target) prepareVec(m *mipTex) bool {
	if !haveVec || m.n == 0 {
		return false
	}
	start := len(tg.vecLevels)
	held := false
	for i := range m.levels {
		l := &m.levels[i]
		if !l.ok {
			// A group that reads this level goes to the Go loop (the
			// kernel sees no texels); a texture decoded from its bound
			// down has its finer levels empty, and nothing reads them.
			tg.vecLevels = append(tg.vecLevels, vecLevel{})
			continue
		}
		if len(l.pix) > maxVecPix || (l.repU && !l.pow2U) || (l.repV && !l.pow2V) {
			tg.vecLevels = tg.vecLevels[:start]
			return false
		}
		held = true
		v := vecLevel{pix: unsafe.SliceData(l.pix), fw: l.fw, fh: l.fh,
			xmax: int32(l.w - 1), ymax: int32(l.h - 1), stride: int32(l.stride)}
		if l.repU {
			v.wrapU = -1
		}
		if l.repV {
			v.wrapV = -1
		}
		tg.vecLevels = append(tg.vecLevels, v)
	}
	if !held {
		tg.vecLevels = tg.vecLevels[:start]
		return false
	}
	m.vec = tg.vecLevels[start:len(tg.vecLevels):len(tg.vecLevels)]
	m.vt = vecTex{nm1: int32(m.n - 1), nm1f: float32(m.n - 1)}
	return true
}

// smArgs is what sampleMulN reads; the offsets of its fields are fixed
// in vec_amd64.s.
type smArgs struct {
	t          *vecTex     // 0
	u, v, lod  *float32    // 8, 16, 24: the first group's
	r, g, b, a *float32    // 32, 40, 48, 56
	c          *[4]float32 // 64
	n          int         // 72: groups of eight
	lod0       int32       // 80: 1 when every fragment samples level 0 alone (λ ≤ 0)
}

// sampleMul multiplies the colours (r, g, b, a) of the fragments at
// texture coordinates (u, v) and level of detail lod by the texel the
// texture gives there, eight at a time through the kernel where it can.
// With c the fragments' colours are all c, and r, g, b and a, not yet
// written, receive the products: the kernel reads c instead of arrays
// filled with it. lod0 says that every λ is 0 (uvLOD8's lod0): the kernel
// then reads level 0 without picking levels.
func (m *mipTex) sampleMul(u, v, lod, r, g, b, a []float32, c *[4]float32, lod0 bool) {
	n := len(u)
	v, lod, r, g, b, a = v[:n], lod[:n], r[:n], g[:n], b[:n], a[:n]
	i := 0
	if m.vec != nil {
		vt := m.vt
		vt.levels = &m.vec[0]
		groups := n / 8
		if k := n - 8*groups; k > 1 && min(cap(u), cap(v), cap(lod), cap(r), cap(g), cap(b), cap(a)) >= 8*groups+8 {
			// The last fragments as a group of eight, the lanes past them
			// (room the caller left) copies of the last one: the lanes do
			// not mix, and the copies read its level.
			u8, v8, l8 := u[n-k:n-k+8], v[n-k:n-k+8], lod[n-k:n-k+8]
			for j := k; j < 8; j++ {
				u8[j], v8[j], l8[j] = u8[k-1], v8[k-1], l8[k-1]
			}
			groups++
		}
		for i < 8*groups {
			sa := smArgs{t: &vt, u: &u[i], v: &v[i], lod: &lod[i],
				r: &r[i], g: &g[i], b: &b[i], a: &a[i], c: c, n: groups - i/8}
			if lod0 {
				sa.lod0 = 1
			}
			if i += 8 * sampleMulN(&sa); i >= 8*groups {
				break
			}
			// The group the kernel left: a level at a time if its lanes
			// read different levels, else through the Go loop.
			if !lod0 && sampleSplit(&vt, u[i:i+8], v[i:i+8], lod[i:i+8], r[i:i+8], g[i:i+8], b[i:i+8], a[i:i+8], c) {
				i += 8
				continue
			}
			e := min(i+8, n)
			fillColor(c, r[i:e], g[i:e], b[i:e], a[i:e])
			m.sampleMulGo(u[i:e], v[i:e], lod[i:e], r[i:e], g[i:e], b[i:e], a[i:e])
			i += 8
		}
		if i >= n {
			return
		}
	}
	fillColor(c, r[i:], g[i:], b[i:], a[i:])
	m.sampleMulGo(u[i:], v[i:], lod[i:], r[i:], g[i:], b[i:], a[i:])
}

// sampleSplit is sampleMul for one group of eight fragments whose lanes
// read different levels, which the kernel takes only all alike: the
// kernel samples the group once per level, the lanes of other levels
// given a copy of a lane of that level. Nothing is written unless the
// kernel takes every level's group; false means it did not.
func sampleSplit(vt *vecTex, u, v, lod, r, g, b, a []float32, c *[4]float32) bool {
	u, v, lod, r, g, b, a = u[:8], v[:8], lod[:8], r[:8], g[:8], b[:8], a[:8]
	// The level each lane reads first, as the kernel picks it.
	var lv [8]int32
	for j, l := range lod {
		l0, _, _ := mipPick(int(vt.nm1)+1, l)
		lv[j] = int32(l0)
	}
	if lv == [8]int32{lv[0], lv[0], lv[0], lv[0], lv[0], lv[0], lv[0], lv[0]} {
		return false // refused for another reason
	}
	var out [4][8]float32
	for done := uint8(0); done != 0xff; {
		first := bits.TrailingZeros8(^done)
		var gu, gv, gl [8]float32
		var gc [4][8]float32
		for j := range 8 {
			s := j
			if lv[j] != lv[first] {
				s = first
			}
			gu[j], gv[j], gl[j] = u[s], v[s], lod[s]
			gc[0][j], gc[1][j], gc[2][j], gc[3][j] = r[s], g[s], b[s], a[s]
		}
		sa := smArgs{t: vt, u: &gu[0], v: &gv[0], lod: &gl[0],
			r: &gc[0][0], g: &gc[1][0], b: &gc[2][0], a: &gc[3][0], c: c, n: 1}
		if sampleMulN(&sa) != 1 {
			return false
		}
		for j := range 8 {
			if lv[j] == lv[first] {
				out[0][j], out[1][j], out[2][j], out[3][j] = gc[0][j], gc[1][j], gc[2][j], gc[3][j]
				done |= 1 << j
			}
		}
	}
	copy(r, out[0][:])
	copy(g, out[1][:])
	copy(b, out[2][:])
	copy(a, out[3][:])
	return true
}

// fillColor sets the colours r, g, b, a to c, when there is a c.
func fillColor(c *[4]float32, r, g, b, a []float32) {
	if c == nil {
		return
	}
	n := len(r)
	g, b, a = g[:n], b[:n], a[:n]
	for i := range r {
		r[i], g[i], b[i], a[i] = c[0], c[1], c[2], c[3]
	}
}

// sampleMulGo is sampleMul one fragment at a time.
func (m *mipTex) sampleMulGo(u, v, lod, r, g, b, a []float32) {
	n := len(u)
	v, lod, r, g, b, a = v[:n], lod[:n], r[:n], g[:n], b[:n], a[:n]
	for i := range u {
		tr, tg, tb, ta := m.sample(u[i], v[i], lod[i])
		r[i], g[i], b[i], a[i] = r[i]*tr, g[i]*tg, b[i]*tb, a[i]*ta
	}
}

// uvConsts is what uvLOD8 reads besides the triangle (its vertices' u
// and v, their gradients).
type uvConsts struct {
	texW, texH, lodBias float32
	lod0                int32 // 1 to write λ 0 instead (every fragment samples level 0)
}

// uvFor is what uvLOD8 reads for a triangle of batch b with the Draw's
// λ bias; lod0: every fragment samples level 0.
func (b *batchInfo) uvFor(lodBias float32, lod0 bool) uvConsts {
	c := uvConsts{texW: b.texW, texH: b.texH, lodBias: lodBias}
	if lod0 {
		c.lod0 = 1
	}
	return c
}

// blendArgs is what blend4 reads; the offsets of its fields are fixed in
// vec_amd64.s.
type blendArgs struct {
	pix           *int32   // 0
	z, r, g, b, a *float32 // 8, 16, 24, 32, 40
	color, depth  *float32 // 48, 56: the target's buffers
	n             int      // 64
	ref           float32  // 72: the alpha reference, −∞ without the test
	depthWrite    int32    // 76: 1 to write depth
	op            int32    // 80: the BlendOp (BlendReplace 0, BlendOver 1, BlendAdd 2)
}

// p1Args is what pass1x8 reads; the offsets of its fields are fixed in
// vec_amd64.s.
type p1Args struct {
	x, xr      int64          // 0, 8: the span
	o0, o1, o2 [8]int64       // 16, 80, 144: lane j's edge values less lane 0's, j steps
	s0, s1, s2 [4]int64       // 208, 240, 272: eight steps of each
	inv        float32        // 304
	z, q       [3]float32     // 308, 320
	depthTest  int32          // 332
	row        *float32       // 336: the depth of pixel (0, y)
	pixBase    int64          // 344: the index of pixel (0, y)
	pix        *int32         // 352: where the fragments go
	zs, iq     *float32       // 360, 368
	p0, p1, p2 *float32       // 376, 384, 392
	lanes      *[256][8]int32 // 400: compactLanes
	w0, w1, w2 int64          // 408, 416, 424: the edge values at x
	// narrow is 1 when every edge value of the rows' pixels fits in an
	// int32: the kernel then steps eight values in one register and
	// converts them in one instruction, where int64 values take two
	// registers and seven instructions. It reads e32 in place of o0..o2
	// and s0..s2, and the low halves of w0..w2.
	narrow int32    // 432
	e32    [3]int32 // 436: each edge's step, modulo 2³²
}

// setupPass1 sets pa to pass1x8's arguments for the rows ys..ye of tr,
// everything but the row's own fields; false when the edge values could
// be too large for the kernel.
func setupPass1(pa *p1Args, tr *tri, ys, ye int, depthTest bool) bool {
	m := tr.edgeMax(ys, ye)
	if m > maxVecEdge {
		return false
	}
	// The row's own fields are set for each row; only the ones for the
	// chosen width are set here.
	pa.inv, pa.z, pa.q, pa.lanes = tr.invArea, tr.z, tr.q, &compactLanes
	pa.depthTest = 0
	if depthTest {
		pa.depthTest = 1
	}
	pa.setEdges(tr, m <= math.MaxInt32)
	return true
}

// setEdges sets pa's lane offsets and steps for tr's edges, as int32s
// when narrow.
func (pa *p1Args) setEdges(tr *tri, narrow bool) {
	s0, s1, s2 := tr.e[0].a*subOne, tr.e[1].a*subOne, tr.e[2].a*subOne
	if narrow {
		// The kernel works the lanes' offsets and eight steps out from
		// these modulo 2³². The lanes past the span may wrap around, but
		// they are masked out; every lane in it holds its exact value,
		// since the value fits.
		pa.narrow = 1
		pa.e32 = [3]int32{int32(s0), int32(s1), int32(s2)}
		return
	}
	pa.narrow = 0
	for j := range 4 {
		pa.s0[j], pa.s1[j], pa.s2[j] = 8*s0, 8*s1, 8*s2
	}
	for j := range int64(8) {
		pa.o0[j], pa.o1[j], pa.o2[j] = j*s0, j*s1, j*s2
	}
}

// compactLanes lists, for each 8-bit mask, the lanes whose bits are set,
// in order: the permutation that packs them to the front.
var compactLanes = func() (t [256][8]int32) {
	for m := range t {
		k := 0
		for j := range 8 {
			if m&(1<<j) != 0 {
				t[m][k] = int32(j)
				k++
			}
		}
	}
	return t
}()

// maxVecEdge bounds the edge values pass1x8 takes: it converts them to
// float64 by adding 1.5·2⁵², exact below 2⁵¹.
const maxVecEdge = 1 << 50
