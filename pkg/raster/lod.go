package raster

import "math"

// LODBound is what Draw knows, before it shades a fragment, about the
// levels of detail a batch samples at: a lower bound on λ over every
// fragment of the batch, worked out per triangle when the triangles are
// set up. A texture whose levels are costly to get ready (decoded from a
// file, say) uses it to prepare only the levels a picture can reach: a
// 2048² texture on a model drawn 200 pixels wide is never read finer than
// level 3.
type LODBound struct {
	// rho2 bounds GL's ρ² (the larger squared length of the UV
	// derivatives along x and y, in texels of a sx×sy texture) from below
	// over every fragment; 0 when nothing is known.
	rho2   float64
	sx, sy float64
	bias   float32
}

// lodMargin absorbs the float32 rounding of the per-fragment λ (ρ⁴ and
// its bits, the bias) that the bound, worked out in float64, does not
// share.
const lodMargin = 1.0 / 1024

// Min returns a λ that no fragment of the batch samples a w×h texture
// below (DrawOptions.LODBias included), or −Inf when none is known.
func (b LODBound) Min(w, h int) float32 {
	if !(b.rho2 > 0) || b.sx <= 0 || b.sy <= 0 {
		return float32(math.Inf(-1))
	}
	// Scaling a texture by (kx, ky) scales every derivative by at least
	// min(kx, ky).
	k := min(float64(max(w, 1))/b.sx, float64(max(h, 1))/b.sy)
	r2 := b.rho2 * k * k
	// The fragments' λ is a piecewise-linear log2 of ρ⁴ (see lambda):
	// increasing, so a bound on ρ² bounds it; it stops at 32 where ρ⁴
	// leaves the float32 range.
	l := min(plog2(r2*r2)/4, 32)
	return float32(l + float64(b.bias) - lodMargin)
}

// plog2 is the piecewise-linear log2 of lambda: e + (m − 1) for
// x = m·2^e, 1 ≤ m < 2.
func plog2(x float64) float64 {
	frac, exp := math.Frexp(x) // x = frac·2^exp, ½ ≤ frac < 1
	return float64(exp-1) + 2*frac - 1
}

// Level returns the finest mip level of a w×h texture that a sampler
// filtering linearly between the two levels around λ (and reading level 0
// for λ ≤ 0, as GL does) can read for the batch: ⌊Min(w, h)⌋, at least 0.
// The caller clamps it to the levels it has.
func (b LODBound) Level(w, h int) int {
	l := b.Min(w, h)
	if !(l > 0) {
		return 0
	}
	return int(min(l, 64))
}

// LazySampler is a Sampler whose mip levels are made ready per Draw:
// after setting up the triangles, Draw calls ForLOD once for every batch
// that has the sampler as its Texture and a triangle to draw, and samples
// that batch through the Sampler it returns. A batch whose triangles are
// all culled or off-screen never calls it.
type LazySampler interface {
	Sampler
	// ForLOD returns a Sampler that samples exactly as this one at every
	// λ ≥ b.Min(Width(), Height()). It is called from the goroutine that
	// called Draw, before any fragment is shaded.
	ForLOD(b LODBound) Sampler
}

// SettledSampler is a LazySampler that can tell when a bound would spare
// it no work: when Settled reports true at the start of a Draw (its levels
// are all ready, say), Draw does not work out the bound, which costs some
// arithmetic per triangle, and calls ForLOD with the zero LODBound, whose
// Level is 0.
type SettledSampler interface {
	LazySampler
	Settled() bool
}

// LazyShader is a Shader that prepares its textures per Draw, as a
// LazySampler does: Draw calls ForLOD once for every batch that has it as
// its Shader and a triangle to draw, with a bound on the λ that
// Fragment.LOD returns for every fragment of the batch, and shades the
// batch with the Shader it returns.
type LazyShader interface {
	Shader
	ForLOD(b LODBound) Shader
}

// triLOD returns a lower bound on ρ² over the fragments of a set-up
// triangle, for a texture of sx×sy texels. With the perspective-correct
// u = U/Q (U and Q affine in the screen), the rasteriser computes
// ∂u/∂x = (∂U/∂x − u·∂Q/∂x)/Q = (∂U/∂x·Q − U·∂Q/∂x)/Q², whose numerator N
// is affine in the screen too. So over the triangle |(∂u/∂x, ∂v/∂x)| is
// at least the distance from the origin to the triangle of the vertices'
// (N, M), over the largest Q². A slack for float32 rounding (per fragment
// the numerator is a difference that can cancel) is taken off first.
func triLOD(tr *tri, sx, sy float64) float64 {
	t, ok := newLODTri(tr)
	if !ok || !(t.qmax > 0) {
		return 0 // the fragments' λ is NaN or infinite: level 0 or anything
	}
	best := 0.0
	for d := range 2 {
		px, py, slack := t.numerators(d, sx, sy)
		dist := math.Sqrt(originDist2(px, py)) - slack
		if !(dist > 0) {
			continue // also NaN: nothing known along this axis
		}
		best = max(best, dist*dist)
	}
	q2 := t.qmax * t.qmax * (1 + lodEps)
	return best / (q2 * q2)
}

// triLODMax returns an upper bound on λ (before any bias) over the
// fragments of a set-up triangle, for a texture of sx×sy texels, or +Inf
// when nothing is known. It mirrors triLOD: the numerator (N, M) of the
// UV derivatives along an axis is affine in the screen, so its length is
// largest at a vertex, and Q is smallest at one; the same slack is added
// for float32 rounding, and Q is shrunk by it.
func triLODMax(tr *tri, sx, sy float64) float64 {
	t, ok := newLODTri(tr)
	if !ok || !(t.qmin > 0) {
		return math.Inf(1)
	}
	worst := 0.0
	for d := range 2 {
		px, py, slack := t.numerators(d, sx, sy)
		far := 0.0
		for k := range 3 {
			far = max(far, float64(px[k]*px[k])+float64(py[k]*py[k]))
		}
		l := math.Sqrt(far) + slack
		worst = max(worst, l*l)
	}
	q2 := t.qmin * t.qmin * (1 - lodEps)
	r2 := worst / (q2 * q2)
	switch {
	case r2 == 0:
		return math.Inf(-1) // ρ² is 0 everywhere: λ is −32
	case !finite(r2):
		return math.Inf(1)
	}
	return plog2(r2*r2) / 4
}

// lodEps is the relative slack of triLOD and triLODMax: 2^-16, some
// twenty times the error of the float32 interpolation of u, v and 1/w at
// a pixel and of the difference in the numerator.
const lodEps = 1.0 / (1 << 16)

// lodTri is a set-up triangle as triLOD and triLODMax read it, in
// float64: its vertices' 1/w, u and v, their extremes, and the gradients
// of 1/w, u/w and v/w.
type lodTri struct {
	q, u, v                [3]float64
	dq, du, dv             [2]float64
	qmin, qmax, umax, vmax float64
}

// newLODTri returns tr as a lodTri, and false when one of its values is
// not finite.
func newLODTri(tr *tri) (t lodTri, ok bool) {
	t.qmin = math.Inf(1)
	for k := range 3 {
		t.q[k], t.u[k], t.v[k] = float64(tr.q[k]), float64(tr.attr[k][0]), float64(tr.attr[k][1])
		t.qmin, t.qmax = min(t.qmin, t.q[k]), max(t.qmax, t.q[k])
		t.umax, t.vmax = max(t.umax, math.Abs(t.u[k])), max(t.vmax, math.Abs(t.v[k]))
	}
	ok = !math.IsInf(t.qmax, 0) && finite(t.umax) && finite(t.vmax)
	for d := range 2 {
		t.dq[d], t.du[d], t.dv[d] = float64(tr.dq[d]), float64(tr.du[d]), float64(tr.dv[d])
		ok = ok && finite(t.dq[d]) && finite(t.du[d]) && finite(t.dv[d])
	}
	return t, ok
}

// numerators returns the vertices' numerators (N, M) of the UV
// derivatives along axis d (0 for x, 1 for y), in texels of an sx×sy
// texture, and the slack for the float32 rounding of a fragment's.
func (t *lodTri) numerators(d int, sx, sy float64) (px, py [3]float64, slack float64) {
	du, dv, dq := t.du[d], t.dv[d], t.dq[d]
	for k := range 3 {
		px[k] = t.q[k] * (du - float64(t.u[k]*dq)) * sx
		py[k] = t.q[k] * (dv - float64(t.v[k]*dq)) * sy
	}
	slack = lodEps * t.qmax * (float64((math.Abs(du)+float64(t.umax*math.Abs(dq)))*sx) + float64((math.Abs(dv)+float64(t.vmax*math.Abs(dq)))*sy))
	return px, py, slack
}

// originDist2 is the squared distance from the origin to the triangle
// (x[k], y[k]): 0 when it contains the origin. A triangle without area
// (the three points on a line, or one point: the UV derivatives of a
// triangle mapped without perspective are the same at every vertex) is
// its edges.
func originDist2(x, y [3]float64) float64 {
	// Inside when the origin is on the same side of all three edges.
	var pos, neg bool
	for k := range 3 {
		j := (k + 1) % 3
		c := float64(x[k]*y[j]) - float64(y[k]*x[j]) // cross((p_k − 0), (p_j − 0)) sign = side of edge k→j
		pos = pos || c > 0
		neg = neg || c < 0
	}
	area := float64((x[1]-x[0])*(y[2]-y[0])) - float64((x[2]-x[0])*(y[1]-y[0]))
	if area != 0 && !(pos && neg) {
		return 0
	}
	best := math.Inf(1)
	for k := range 3 {
		j := (k + 1) % 3
		best = min(best, segDist2(x[k], y[k], x[j], y[j]))
	}
	return best
}

// segDist2 is the squared distance from the origin to segment a–b.
func segDist2(ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l2 := float64(dx*dx) + float64(dy*dy); l2 > 0 {
		t = min(max(-(float64(ax*dx)+float64(ay*dy))/l2, 0), 1)
	}
	ax += float64(t * dx) // the nearest point
	ay += float64(t * dy)
	return float64(ax*ax) + float64(ay*ay)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
