package pose

import (
	"math"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Clock says where in the model's animation a sample is taken.
type Clock struct {
	// Sequence indexes Model.Sequences; -1 (or any index out of range) means
	// no sequence: tracks that follow the sequences give the object's static
	// value (docs/rendering.md#per-sequence-key-lists, last paragraph).
	Sequence int
	// Frame is the absolute animation frame in ms (sequence start + time).
	Frame float64
	// Global is the global-sequence counter in ms; each global sequence
	// plays at Global mod its duration. Thumbnails choose it explicitly.
	Global float64
}

// span is the interval a track is sampled in: a sequence, or [0, duration]
// of a global sequence.
type span struct {
	start, end float64
	frame      float64
	global     bool
	ok         bool // false: no sequence, use the static value
}

// spanFor picks the key range and frame for a track with the given global
// sequence id.
func spanFor(m *mdx.Model, c Clock, gs int32) span {
	if gs >= 0 {
		if int(gs) >= len(m.GlobalSequences) {
			// A dangling global sequence id: treat the track as following the
			// sequences, which is what a viewer without that entry would do.
			return seqSpan(m, c)
		}
		d := float64(m.GlobalSequences[gs])
		f := 0.0
		if d > 0 { // deliberate deviation: duration 0 is time 0 (docs/rendering.md#evaluation-and-wrap)
			f = math.Mod(c.Global, d)
			if f < 0 {
				f += d
			}
		}
		return span{start: 0, end: d, frame: f, global: true, ok: true}
	}
	return seqSpan(m, c)
}

func seqSpan(m *mdx.Model, c Clock) span {
	if c.Sequence < 0 || c.Sequence >= len(m.Sequences) {
		return span{}
	}
	iv := m.Sequences[c.Sequence].Interval
	return span{start: float64(iv[0]), end: float64(iv[1]), frame: c.Frame, ok: true}
}

// keyPair is the outcome of locating a frame in a per-sequence key list: the
// keys a and b to interpolate between with factor t, or a constant (b < 0).
type keyPair struct {
	a, b int
	t    float64
	none bool // no key in range: the per-tag default applies
}

// locate reproduces mdx-m3-viewer's SdSequence (docs/rendering.md#evaluation-and-wrap)
// without building the per-sequence list: a key belongs to the list when its
// frame lies in [start, end] (for a global sequence also the very first key
// when it lies after end).
func locate[T mdx.TrackValue](keys []mdx.Key[T], s span) keyPair {
	in := func(i int) bool {
		f := float64(keys[i].Frame)
		if s.start <= f && f <= s.end {
			return true
		}
		return s.global && i == 0 && f > s.end
	}
	first, last, n := -1, -1, 0
	constant := true
	for i := range keys {
		if !in(i) {
			continue
		}
		if first < 0 {
			first = i
		} else if constant && keys[i].Value != keys[first].Value {
			constant = false
		}
		last = i
		n++
	}
	if n == 0 {
		return keyPair{none: true}
	}
	f := s.frame
	if n == 1 || constant || f < s.start {
		return keyPair{a: first, b: -1}
	}
	k0, kN := float64(keys[first].Frame), float64(keys[last].Frame)
	if f >= k0 && f < kN {
		prev := first
		for i := first + 1; i <= last; i++ {
			if !in(i) {
				continue
			}
			ki := float64(keys[i].Frame)
			if ki > f {
				d := ki - float64(keys[prev].Frame)
				t := 0.0
				if d != 0 {
					t = (f - float64(keys[prev].Frame)) / d
				}
				return keyPair{a: prev, b: i, t: t}
			}
			prev = i
		}
		// Keys out of order in the file: fall through to the wrap pair.
	}
	// After the last key, or before the first one: interpolate from the last
	// key towards the first, wrapping round the sequence length. Before the
	// first key MV measures from k0, which gives a negative factor (docs/rendering.md#evaluation-and-wrap).
	wrap := (k0 - kN) + (s.end - s.start)
	from := kN
	if f < k0 {
		from = k0
	}
	t := 0.0
	if wrap != 0 {
		t = (f - from) / wrap
	}
	return keyPair{a: last, b: first, t: t}
}

// keysAt is where every sampler starts: with done set, the value when
// there is nothing to interpolate (static without a track or a sequence,
// def without a key in range, the key's value when one key is in force);
// otherwise the keys a and b to interpolate between with factor t.
func keysAt[T mdx.TrackValue](m *mdx.Model, tr *mdx.Track[T], c Clock, static, def T) (v T, a, b mdx.Key[T], t float64, done bool) {
	if tr == nil {
		return static, a, b, 0, true
	}
	s := spanFor(m, c, tr.GlobalSeqID)
	if !s.ok {
		return static, a, b, 0, true
	}
	p := locate(tr.Keys, s)
	if p.none {
		return def, a, b, 0, true
	}
	a = tr.Keys[p.a]
	if p.b < 0 {
		return a.Value, a, b, 0, true
	}
	return v, a, tr.Keys[p.b], p.t, false
}

func hermite(a, o, i, b, t float64) float64 {
	t2 := t * t
	return a*(2*t2*t-3*t2+1) + o*(t2*t-2*t2+t) + i*(t2*t-t2) + b*(-2*t2*t+3*t2)
}
func bezier(a, o, i, b, t float64) float64 {
	u := 1 - t
	return a*u*u*u + 3*o*t*u*u + 3*i*t*t*u + b*t*t*t
}

func interp1(kind mdx.Interpolation, a, o, i, b, t float64) float64 {
	switch kind {
	case mdx.DontInterp:
		return a
	case mdx.Hermite:
		return hermite(a, o, i, b, t)
	case mdx.Bezier:
		return bezier(a, o, i, b, t)
	}
	return a + t*(b-a)
}

// Float samples a scalar track. def is the per-tag default used when the
// sequence has no key in range; static is returned when there is no track or
// no sequence. step forces DontInterp (visibility tracks, docs/rendering.md#interpolation).
func Float(m *mdx.Model, tr *mdx.Track[float32], c Clock, static, def float32, step bool) float32 {
	v, a, b, t, done := keysAt(m, tr, c, static, def)
	if done {
		return v
	}
	kind := tr.Interpolation
	if step {
		kind = mdx.DontInterp
	}
	return float32(interp1(kind, float64(a.Value), float64(a.OutTan), float64(b.InTan), float64(b.Value), t))
}

// Uint samples an integer track (KMTF flipbook, KRTX) as a step track: the
// key in force, whatever the file's interpolation type (docs/rendering.md#interpolation).
func Uint(m *mdx.Model, tr *mdx.Track[uint32], c Clock, static, def uint32) uint32 {
	v, a, _, _, done := keysAt(m, tr, c, static, def)
	if done {
		return v
	}
	return a.Value
}

// Vec3 samples a vector track per component.
func Vec3(m *mdx.Model, tr *mdx.Track[mdx.Vec3], c Clock, static, def mdx.Vec3) mdx.Vec3 {
	v, a, b, t, done := keysAt(m, tr, c, static, def)
	if done {
		return v
	}
	var out mdx.Vec3
	for k := 0; k < 3; k++ {
		out[k] = float32(interp1(tr.Interpolation, float64(a.Value[k]), float64(a.OutTan[k]), float64(b.InTan[k]), float64(b.Value[k]), t))
	}
	return out
}

// Quat samples a rotation track: slerp for Linear, sqlerp for Hermite and
// Bezier (docs/rendering.md#interpolation), the start key for DontInterp.
func Quat(m *mdx.Model, tr *mdx.Track[mdx.Quat], c Clock, static, def mdx.Quat) mdx.Quat {
	v, a, b, t, done := keysAt(m, tr, c, static, def)
	if done {
		return v
	}
	switch tr.Interpolation {
	case mdx.DontInterp:
		return a.Value
	case mdx.Hermite, mdx.Bezier:
		return toQ32(sqlerp(q64(a.Value), q64(a.OutTan), q64(b.InTan), q64(b.Value), t))
	}
	return toQ32(slerp(q64(a.Value), q64(b.Value), t))
}

// Rotation is a rotation as a float64 quaternion (x, y, z, w), gl-matrix's
// layout: the one quaternion type of the packages that pose and draw a
// model (fauxgl, whose Vector and Matrix they share, has none).
type Rotation [4]float64

func q64(q mdx.Quat) Rotation {
	return Rotation{float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])}
}
func toQ32(q Rotation) mdx.Quat {
	return mdx.Quat{float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3])}
}

// slerp is gl-matrix's Rotation.slerp: shortest arc, sine weights unless the
// angle is tiny, no renormalisation.
func slerp(a, b Rotation, t float64) Rotation {
	cos := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	if cos < 0 {
		cos = -cos
		b = Rotation{-b[0], -b[1], -b[2], -b[3]}
	}
	var s0, s1 float64
	if 1-cos > 1e-6 {
		om := math.Acos(cos)
		sin := math.Sin(om)
		s0 = math.Sin((1-t)*om) / sin
		s1 = math.Sin(t*om) / sin
	} else {
		s0, s1 = 1-t, t
	}
	return Rotation{s0*a[0] + s1*b[0], s0*a[1] + s1*b[1], s0*a[2] + s1*b[2], s0*a[3] + s1*b[3]}
}

// sqlerp is gl-matrix's Rotation.sqlerp with the file's tangents as the inner
// control points: slerp(slerp(a, b, t), slerp(o, i, t), 2t(1−t)).
func sqlerp(a, o, i, b Rotation, t float64) Rotation {
	return slerp(slerp(a, b, t), slerp(o, i, t), 2*t*(1-t))
}
