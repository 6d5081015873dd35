package particles

import (
	"math"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// maxWoWLife bounds a WoW particle's lifespan in seconds, as the
// automatic pre-roll is bounded: a hostile lifespan keeps particles for
// at most this long.
const maxWoWLife = MaxPrerollMs / 1000

// wowEmitter simulates one World of Warcraft (M2) particle emitter
// (docs/particles.md#world-of-warcraft-m2-emitters). The rules are those of
// the game client as WebWowViewerCpp reimplements it, read with the
// pre-Wrath record's fields: a plane, sphere or spline generator in the
// emitter's space, rate·dt emission, gravity, wind and drag, three-point
// ramps over the particle's age, twinkle, and camera-facing (or XY) head
// and tail quads. Draws come from the Sim's seeded generator in a fixed
// order, so a simulation is the same on every run.
type wowEmitter struct {
	m           *mdx.Model
	e           *mdx.WoWParticleEmitter
	emitterNode // on the emitter's bone
	// ok is false for a shape this package does not generate.
	ok bool
	// life is the lifespan in seconds at the last step, which ages every
	// live particle (the client reads it anew each step).
	life float64
	acc  float64 // emission accumulator
	// parts are the live particles in birth order, which is draw order.
	parts []wowParticle
	// flipbook is the cell every particle's cells are offset by (the
	// random flipbook start, drawn at the first emission: flipped);
	// cells is rows·columns.
	flipbook, cells uint32
	flipped         bool
	spline          splinePath
	emits           int64
}

// wowParticle is one live particle: in world space, or in the emitter's
// space with WoWParticleEmitterSpace.
type wowParticle struct {
	pos, vel [3]float64
	origin   [3]float64 // where it was born, in the same space as pos
	age      float64    // seconds since birth
	seed     uint32     // 16 random bits fixed at birth: twinkle, spin, cell
}

// twinkleTable holds the 128 random numbers twinkle looks up by age and
// seed (the client fills such a table once at start-up); here the
// reference generator seeded with 1 fills it, so it is the same on
// every run.
var twinkleTable = func() (t [128]float64) {
	var r RNG
	r.Reset(1)
	for i := range t {
		t[i] = r.Float64()
	}
	return t
}()

func newWoWEmitters(s *Sim) []emitter {
	m := s.m
	var out []emitter
	for k := range m.WoWParticleEmitters {
		e := &m.WoWParticleEmitters[k]
		if e.Bone < 0 || int(e.Bone) >= len(m.Bones) {
			s.warnf("WoW particle emitter %d: bone %d of %d; emitter skipped", k, e.Bone, len(m.Bones))
			continue
		}
		w := &wowEmitter{m: m, e: e, emitterNode: emitterNode{idx: int(e.Bone)}}
		switch e.EmitterType {
		case mdx.WoWEmitterPlane, mdx.WoWEmitterSphere:
			w.ok = true
		case mdx.WoWEmitterSpline:
			w.ok = true
			w.spline = newSplinePath(e.SplinePoints)
		default:
			s.warnf("WoW particle emitter %d: emitter type %d is not simulated (1 plane, 2 sphere and 3 spline are)", k, e.EmitterType)
		}
		w.cells = max(e.Rows, 1) * max(e.Columns, 1)
		w.steps = trackPrice(e.LifeSpanTrack) + trackPrice(e.VisibilityTrack) + trackPrice(e.EmissionRateTrack) + trackPrice(e.GravityTrack)
		w.emits = priceEmitWoW + trackPrice(e.SpeedTrack) + trackPrice(e.VariationTrack) + trackPrice(e.VerticalRangeTrack) +
			trackPrice(e.HorizontalRangeTrack) + trackPrice(e.AreaLengthTrack) + trackPrice(e.AreaWidthTrack) + trackPrice(e.ZSourceTrack)
		if w.spline.segments > 0 {
			w.emits += priceSplinePoint * int64(len(e.SplinePoints))
		}
		out = append(out, w)
	}
	return out
}

func (e *wowEmitter) reset() {
	e.acc = 0
	e.parts = e.parts[:0]
	e.flipbook, e.flipped = 0, false
}

// wowFloat samples a WoW emitter parameter: the static value without a
// track, else the track, 0 while the sequence has none of its keys.
func wowFloat(m *mdx.Model, static float32, tr *mdx.Track[float32], c pose.Clock) float64 {
	return float64(pose.Float(m, tr, c, static, 0, false))
}

// finite returns v, or 0 when it is NaN or infinite.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// frame returns the emitter's world matrix: its bone's, moved to the
// emitter's position.
func (e *wowEmitter) frame(p *pose.Pose) fauxgl.Matrix {
	pv := e.e.Position
	return p.World(e.idx).Mul(fauxgl.Translate(fauxgl.V(float64(pv[0]), float64(pv[1]), float64(pv[2]))))
}

// lifespan is the current lifespan, at least 1 ms (the client's floor)
// and at most maxWoWLife.
func (e *wowEmitter) lifespan(c pose.Clock) float64 {
	l := wowFloat(e.m, e.e.LifeSpan, e.e.LifeSpanTrack, c)
	if !(l >= 0.001) {
		return 0.001
	}
	return math.Min(l, maxWoWLife)
}

// step is the client's StepUpdate: every particle ages by dt and those
// past the current lifespan die; while the emitter is enabled (and a
// sequence plays) it emits rate·dt particles; then every particle moves
// under wind, gravity and drag.
func (e *wowEmitter) step(s *Sim, p *pose.Pose, dt float64, spawn bool) {
	c := s.Clock()
	e.life = e.lifespan(c)
	live := 0
	for i := range e.parts {
		q := &e.parts[i]
		q.age += dt
		if q.age <= e.life {
			if live != i {
				e.parts[live] = *q
			}
			live++
		}
	}
	e.parts = e.parts[:live]
	if e.ok && spawn && wowFloat(e.m, e.e.Visibility, e.e.VisibilityTrack, c) > 0 {
		if rate := finite(wowFloat(e.m, e.e.EmissionRate, e.e.EmissionRateTrack, c)); rate > 0 {
			e.acc += rate * dt
		}
		if e.acc > 1 {
			w := e.frame(p)
			for e.acc > 1 {
				if len(e.parts) >= maxLivePerEmitter || !s.particleRoom() || s.over() {
					e.acc = 0 // hostile rate, or past a budget: drop the rest
					break
				}
				e.emit(s, w, dt, c)
				e.acc--
			}
		}
	}
	if len(e.parts) == 0 {
		return
	}
	g := [3]float64{float64(e.e.Gravity[0]), float64(e.e.Gravity[1]), float64(e.e.Gravity[2])}
	if e.e.GravityTrack != nil {
		v := pose.Vec3(e.m, e.e.GravityTrack, c, e.e.Gravity, mdx.Vec3{})
		g = [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
	}
	drag := math.Min(finite(float64(e.e.Drag))*dt, 1)
	wind := [3]float64{float64(e.e.Wind[0]) * dt, float64(e.e.Wind[1]) * dt, float64(e.e.Wind[2]) * dt}
	for i := range e.parts {
		q := &e.parts[i]
		for k := range 3 {
			q.vel[k] += wind[k]
			d := q.vel[k] * dt
			q.vel[k] = (q.vel[k] + g[k]*dt) * (1 - drag)
			q.pos[k] += d + g[k]*dt*dt/2
		}
	}
}

// uniform is the client's Uniform: a random number in [−1, 1).
func uniform(s *Sim) float64 { return 2*s.Random() - 1 }

// emit makes one particle with the emitter's generator
// (docs/particles.md#wow-generators). Draws, in order: the birth offset
// within the step, the particle's seed, then the generator's own.
func (e *wowEmitter) emit(s *Sim, w fauxgl.Matrix, dt float64, c pose.Clock) {
	s.spend(e.emits)
	s.live.wow++
	m, pe := e.m, e.e
	q := wowParticle{}
	// A particle born during the step is up to dt old at its end.
	q.age = math.Mod(dt*s.Random(), e.life)
	q.seed = uint32(s.Random() * 65536)
	speed := finite(wowFloat(m, pe.Speed, pe.SpeedTrack, c))
	variation := finite(wowFloat(m, pe.Variation, pe.VariationTrack, c))
	vertical := finite(wowFloat(m, pe.VerticalRange, pe.VerticalRangeTrack, c))
	horizontal := finite(wowFloat(m, pe.HorizontalRange, pe.HorizontalRangeTrack, c))
	length := finite(wowFloat(m, pe.AreaLength, pe.AreaLengthTrack, c))
	width := finite(wowFloat(m, pe.AreaWidth, pe.AreaWidthTrack, c))
	zsource := finite(wowFloat(m, pe.ZSource, pe.ZSourceTrack, c))
	velocity := func() float64 { return speed * (1 + variation*uniform(s)) }
	fromZSource := func(pos [3]float64, v float64) ([3]float64, bool) {
		r := [3]float64{pos[0], pos[1], pos[2] - zsource}
		l := math.Sqrt(r[0]*r[0] + r[1]*r[1] + r[2]*r[2])
		if !(l > 1e-4) {
			return [3]float64{}, false
		}
		return [3]float64{r[0] / l * v, r[1] / l * v, r[2] / l * v}, true
	}
	switch pe.EmitterType {
	case mdx.WoWEmitterPlane:
		q.pos = [3]float64{uniform(s) * length / 2, uniform(s) * width / 2, 0}
		v := velocity()
		if zsource < 0.001 {
			polar, azimuth := vertical*uniform(s), horizontal*uniform(s)
			q.vel = [3]float64{math.Cos(azimuth) * math.Sin(polar) * v, math.Sin(azimuth) * math.Sin(polar) * v, math.Cos(polar) * v}
		} else {
			q.vel, _ = fromZSource(q.pos, v)
		}
	case mdx.WoWEmitterSphere:
		radius := length + (width-length)*s.Random()
		polar, azimuth := vertical*uniform(s), horizontal*uniform(s)
		dir := [3]float64{math.Cos(polar) * math.Cos(azimuth), math.Cos(polar) * math.Sin(azimuth), math.Sin(polar)}
		q.pos = [3]float64{dir[0] * radius, dir[1] * radius, dir[2] * radius}
		v := velocity()
		r := dir
		if pe.Flags&mdx.WoWParticleUp != 0 {
			r = [3]float64{0, 0, 1}
		}
		if zsource != 0 {
			if zv, ok := fromZSource(q.pos, 1); ok {
				r = zv
			} else {
				r = [3]float64{}
			}
		}
		q.vel = [3]float64{r[0] * v, r[1] * v, r[2] * v}
	case mdx.WoWEmitterSpline:
		lo, hi := clamp01(length), clamp01(width)
		t := lo + (hi-lo)*s.Random()
		q.pos = e.spline.at(t)
		v := velocity()
		switch {
		case zsource > 0.001:
			q.vel, _ = fromZSource(q.pos, v)
		case vertical != 0:
			// The tangent's direction, turned about itself by a random
			// angle, gives the Z axis the particle moves along.
			tan := norm(e.spline.tangent(t))
			z := rotateAbout([3]float64{0, 0, 1}, tan, vertical*uniform(s))
			q.vel = [3]float64{z[0] * v, z[1] * v, z[2] * v}
		default:
			q.vel = [3]float64{0, 0, v}
		}
	}
	if pe.Flags&mdx.WoWParticleEmitterSpace == 0 {
		q.pos = point(w, q.pos)
		q.vel = linear(w, q.vel)
		if pe.Flags&mdx.WoWParticleGroundClamp != 0 {
			q.pos[2] = 0
		}
	}
	q.origin = q.pos
	if pe.Flags&mdx.WoWParticleRandomFlipbook != 0 && !e.flipped {
		e.flipbook, e.flipped = uint32(s.Random()*float64(e.cells)), true
	}
	e.parts = append(e.parts, q)
}

func clamp01(v float64) float64 { return math.Min(math.Max(v, 0), 1) }

func norm(v [3]float64) [3]float64 {
	l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
	if !(l > 0) || math.IsInf(l, 0) {
		return [3]float64{}
	}
	return [3]float64{v[0] / l, v[1] / l, v[2] / l}
}

// rotateAbout turns v by angle radians about the unit axis a (Rodrigues).
func rotateAbout(v, a [3]float64, angle float64) [3]float64 {
	c, sn := math.Cos(angle), math.Sin(angle)
	cr := [3]float64{a[1]*v[2] - a[2]*v[1], a[2]*v[0] - a[0]*v[2], a[0]*v[1] - a[1]*v[0]}
	d := a[0]*v[0] + a[1]*v[1] + a[2]*v[2]
	var out [3]float64
	for k := range 3 {
		out[k] = v[k]*c + cr[k]*sn + a[k]*d*(1-c)
	}
	return out
}

// appendMeshes draws every live particle (docs/particles.md#wow-drawing):
// the three-point ramps by age, twinkle, the cell of the current segment,
// a head quad facing the camera (or in the XY plane, or along the
// velocity) and, for tails, a quad back along the velocity.
func (e *wowEmitter) appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh {
	if len(e.parts) == 0 {
		return out
	}
	pe := e.e
	head := pe.ParticleType == 0 || pe.ParticleType == 2
	tail := pe.ParticleType == 1 || pe.ParticleType == 2
	if !head && !tail {
		return out
	}
	s.spend(priceWoWQuad * int64(len(e.parts)))
	// Particles are drawn unlit from both sides, writing depth only when
	// opaque or alpha-keyed, as the client draws them.
	flags := uint32(mdx.LayerUnshaded | mdx.LayerTwoSided)
	if pe.FilterMode != mdx.FilterNone && pe.FilterMode != mdx.FilterTransparent {
		flags |= mdx.LayerNoDepthSet
	}
	mesh := Mesh{Kind: KindWoW, Node: e.idx, Filter: uint32(pe.FilterMode), LayerFlags: flags, TextureID: int(pe.TextureID),
		Material: -1, PriorityPlane: int(pe.PriorityPlane), Unshaded: true}
	quads := len(e.parts)
	if head && tail {
		quads *= 2
	}
	mesh.Vertices = make([]Vertex, 0, 4*quads)
	mesh.Indices = make([]uint32, 0, 6*quads)
	w := e.frame(p)
	emitterSpace := pe.Flags&mdx.WoWParticleEmitterSpace != 0
	inherited := math.Sqrt(dot(linear(w, [3]float64{1, 0, 0}), linear(w, [3]float64{1, 0, 0})))
	right := [3]float64{cam.Right.X, cam.Right.Y, cam.Right.Z}
	up := [3]float64{cam.Up.X, cam.Up.Y, cam.Up.Z}
	fwd := [3]float64{cam.Forward.X, cam.Forward.Y, cam.Forward.Z}
	// XY quads lie in the particles' space's XY plane: the world's, or the
	// emitter's without its scale.
	xAxis, yAxis := [3]float64{1, 0, 0}, [3]float64{0, 1, 0}
	if emitterSpace {
		xAxis = norm(linear(w, [3]float64{1, 0, 0}))
		yAxis = norm(linear(w, [3]float64{0, 1, 0}))
	}
	cols, rows := float64(max(pe.Columns, 1)), float64(max(pe.Rows, 1))
	life := e.life
	if life <= 0 {
		life = 0.001
	}
	vary := float64(pe.TwinkleScale[1] - pe.TwinkleScale[0])
	percent := float64(pe.TwinklePercent)
	for _, q := range e.parts {
		if !(q.age <= life) {
			continue
		}
		// Twinkle hides a particle for part of the time and, when the
		// scale range is not empty, scales it by a random factor in it.
		weight := 1.0
		idx := 0
		if percent < 1 || vary != 0 {
			idx = int(uint32(int64(q.age*float64(pe.TwinkleSpeed))+int64(q.seed)) & 127)
		}
		if percent < twinkleTable[idx] {
			continue
		}
		if vary != 0 {
			weight = vary*twinkleTable[idx] + float64(pe.TwinkleScale[0])
		}
		x := clamp01(q.age / life)
		seg, f := segmentOf(x, float64(pe.MiddleTime))
		var col [4]float32
		for k := range 3 {
			// SegmentColors are blue, green, red; vertex colours RGB.
			a, b := float64(pe.SegmentColors[seg][2-k]), float64(pe.SegmentColors[seg+1][2-k])
			col[k] = float32(a + (b-a)*f)
		}
		col[3] = float32((float64(pe.SegmentAlphas[seg]) + (float64(pe.SegmentAlphas[seg+1])-float64(pe.SegmentAlphas[seg]))*f) / 255)
		scale := (float64(pe.SegmentScaling[seg]) + (float64(pe.SegmentScaling[seg+1])-float64(pe.SegmentScaling[seg]))*f) * weight
		if pe.Flags&mdx.WoWParticleInheritScale != 0 {
			scale *= inherited
		}
		pos, vel, origin := q.pos, q.vel, q.origin
		if emitterSpace {
			pos, origin = point(w, pos), point(w, origin)
			vel = linear(w, vel)
		}
		if !finite3d(pos) || !finite3d(vel) || math.IsNaN(scale) || math.IsInf(scale, 0) {
			continue
		}
		if head {
			iv := pe.HeadIntervals
			if seg == 1 {
				iv = pe.HeadDecayIntervals
			}
			cell := e.cell(iv, f, cols, rows, q.seed)
			var m0, m1 [3]float64
			switch {
			case pe.Flags&mdx.WoWParticleXYQuads != 0:
				m0, m1 = scaled(xAxis, scale), scaled(yAxis, scale)
			case pe.Flags&mdx.WoWParticleVelocityQuads != 0 && dot(vel, vel) > 2.4e-7:
				// Stretched along the velocity as the camera sees it.
				d := norm([3]float64{-dot(vel, right), -dot(vel, up), -dot(vel, fwd)})
				m0 = add(add(scaled(right, d[0]*scale), scaled(up, d[1]*scale)), scaled(fwd, d[2]*scale))
				m1 = add(scaled(right, d[1]*scale), scaled(up, -d[0]*scale))
			default:
				m0, m1 = scaled(right, scale), scaled(up, scale)
			}
			if pe.Spin != 0 {
				// Pre-Wrath spin: turns per lifetime.
				theta := 2 * math.Pi * float64(pe.Spin) * x
				if pe.Flags&mdx.WoWParticleRandomSpin != 0 && q.seed&1 != 0 {
					theta = -theta
				}
				c, sn := math.Cos(theta), math.Sin(theta)
				m0, m1 = add(scaled(m0, c), scaled(m1, sn)), add(scaled(m1, c), scaled(m0, -sn))
			}
			mesh.addQuad(pos, m0, m1, cell, cols, rows, col)
		}
		if tail {
			iv := pe.TailIntervals
			if seg == 1 {
				iv = pe.TailDecayIntervals
			}
			cell := e.cell(iv, f, cols, rows, q.seed)
			// A tail runs back along the velocity for TailLength seconds;
			// a pinned one to where the particle was born (the client
			// takes min(age, TailLength) seconds of the current velocity,
			// which overshoots the birth point of a particle that sped up).
			back := scaled(vel, -float64(pe.TailLength))
			if pe.Flags&mdx.WoWParticlePinned != 0 && q.age < float64(pe.TailLength) {
				back = [3]float64{origin[0] - pos[0], origin[1] - pos[1], origin[2] - pos[2]}
			}
			// The tail's length runs back along the velocity; its width,
			// scale on each side, across it as the camera sees it.
			across := cross(fwd, back)
			var m0, m1 [3]float64
			if l := math.Sqrt(dot(across, across)); l > 1e-4 {
				m0 = scaled(back, 0.5)
				m1 = scaled(across, scale/l)
				pos = add(pos, m0)
			} else {
				m0, m1 = scaled(right, scale*0.05), scaled(up, scale*0.05)
			}
			mesh.addQuad(pos, m0, m1, cell, cols, rows, col)
		}
	}
	if len(mesh.Indices) == 0 {
		return out
	}
	return append(out, mesh)
}

// cell is the sprite-sheet cell of an interval at segment position f: the
// PRE2 rule (spriteCell), or a random cell of the sheet per particle with
// WoWParticleRandomCell, offset by the random flipbook start.
func (e *wowEmitter) cell(iv [3]uint32, f, cols, rows float64, seed uint32) float64 {
	var c float64
	if e.e.Flags&mdx.WoWParticleRandomCell != 0 {
		c = float64(uint64(seed) * uint64(e.cells) >> 16)
	} else {
		c = spriteCell(iv, f, cols, rows)
	}
	if e.flipbook != 0 {
		c = math.Mod(c+float64(e.flipbook), cols*rows)
	}
	return c
}

// segmentOf splits a particle's age fraction x at the middle time into a
// segment (0 or 1) and the position f in it, as PRE2 does.
func segmentOf(x, mid float64) (int, float64) {
	var seg int
	var f float64
	if x < mid {
		f = x / mid
	} else {
		seg = 1
		f = (x - mid) / (1 - mid)
	}
	f = math.Min(f, 1)
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		f = 0
	}
	return seg, f
}

// addQuad appends the quad centre ± m0 ± m1 showing cell cell of a
// cols×rows sheet upright: the corner −m0 + m1 (left, top) gets the
// cell's top-left texel.
func (ms *Mesh) addQuad(centre, m0, m1 [3]float64, cell, cols, rows float64, col [4]float32) {
	left := math.Floor(math.Mod(cell, cols))
	top := math.Floor(cell / cols)
	u0, u1 := float32(left/cols), float32((left+1)/cols)
	v0, v1 := float32(top/rows), float32((top+1)/rows)
	base := uint32(len(ms.Vertices))
	var a, b [3]float32 // centre − m0 ± m1, centre + m0 ± m1
	corner := func(sa, sb float64) [3]float32 {
		return [3]float32{float32(centre[0] + sa*m0[0] + sb*m1[0]), float32(centre[1] + sa*m0[1] + sb*m1[1]), float32(centre[2] + sa*m0[2] + sb*m1[2])}
	}
	a, b = corner(-1, 1), corner(-1, -1)
	ms.Vertices = append(ms.Vertices, Vertex{Pos: a, UV: [2]float32{u0, v0}, Color: col}, Vertex{Pos: b, UV: [2]float32{u0, v1}, Color: col})
	a, b = corner(1, -1), corner(1, 1)
	ms.Vertices = append(ms.Vertices, Vertex{Pos: a, UV: [2]float32{u1, v1}, Color: col}, Vertex{Pos: b, UV: [2]float32{u1, v0}, Color: col})
	ms.Indices = append(ms.Indices, base, base+1, base+2, base, base+2, base+3)
}

// linear applies the 3×3 part of w to v (fauxgl's MulDirection would
// normalise the result).
func linear(w fauxgl.Matrix, v [3]float64) [3]float64 {
	return [3]float64{
		w.X00*v[0] + w.X01*v[1] + w.X02*v[2],
		w.X10*v[0] + w.X11*v[1] + w.X12*v[2],
		w.X20*v[0] + w.X21*v[1] + w.X22*v[2],
	}
}
func dot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func add(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func scaled(a [3]float64, k float64) [3]float64 {
	return [3]float64{a[0] * k, a[1] * k, a[2] * k}
}
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func finite3d(v [3]float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// splinePath is a spline emitter's path: cubic Bézier segments through
// the points (3k, 3k+1, 3k+2, 3k+3), walked by arc length; fewer than
// four points make a polyline.
type splinePath struct {
	pts      [][3]float64
	segments int       // Bézier segments; 0 for a polyline
	cum      []float64 // cumulative length at the end of each segment (or polyline edge)
}

// splineSamples is how many chords approximate a segment's length.
const splineSamples = 16

func newSplinePath(points []mdx.Vec3) splinePath {
	sp := splinePath{}
	for _, v := range points {
		sp.pts = append(sp.pts, [3]float64{float64(v[0]), float64(v[1]), float64(v[2])})
	}
	if len(sp.pts) >= 4 {
		sp.segments = (len(sp.pts) - 1) / 3
	}
	total := 0.0
	if sp.segments > 0 {
		for k := 0; k < sp.segments; k++ {
			prev := sp.bezier(k, 0)
			for i := 1; i <= splineSamples; i++ {
				cur := sp.bezier(k, float64(i)/splineSamples)
				total += dist(prev, cur)
				prev = cur
			}
			sp.cum = append(sp.cum, total)
		}
	} else {
		for k := 1; k < len(sp.pts); k++ {
			total += dist(sp.pts[k-1], sp.pts[k])
			sp.cum = append(sp.cum, total)
		}
	}
	return sp
}

func dist(a, b [3]float64) float64 {
	d := [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]}
	return math.Sqrt(dot(d, d))
}

func (sp *splinePath) bezier(k int, t float64) [3]float64 {
	p := sp.pts[3*k : 3*k+4]
	u := 1 - t
	var out [3]float64
	for i := range 3 {
		out[i] = u*u*u*p[0][i] + 3*u*u*t*p[1][i] + 3*u*t*t*p[2][i] + t*t*t*p[3][i]
	}
	return out
}

func (sp *splinePath) bezierTangent(k int, t float64) [3]float64 {
	p := sp.pts[3*k : 3*k+4]
	u := 1 - t
	var out [3]float64
	for i := range 3 {
		out[i] = 3*u*u*(p[1][i]-p[0][i]) + 6*u*t*(p[2][i]-p[1][i]) + 3*t*t*(p[3][i]-p[2][i])
	}
	return out
}

// locate finds the piece (segment or edge) at arc-length fraction s and
// the parameter in it.
func (sp *splinePath) locate(s float64) (int, float64) {
	n := len(sp.cum)
	if n == 0 {
		return -1, 0
	}
	total := sp.cum[n-1]
	if !(total > 0) || math.IsInf(total, 0) {
		return 0, 0
	}
	target := clamp01(s) * total
	for k, c := range sp.cum {
		if target <= c || k == n-1 {
			start := 0.0
			if k > 0 {
				start = sp.cum[k-1]
			}
			if c > start {
				return k, clamp01((target - start) / (c - start))
			}
			return k, 0
		}
	}
	return n - 1, 1
}

// at returns the point at arc-length fraction s; the origin without
// points.
func (sp *splinePath) at(s float64) [3]float64 {
	k, t := sp.locate(s)
	switch {
	case len(sp.pts) == 0:
		return [3]float64{}
	case k < 0:
		return sp.pts[0]
	case sp.segments > 0:
		return sp.bezier(k, t)
	}
	a, b := sp.pts[k], sp.pts[k+1]
	return add(a, scaled([3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, t))
}

// tangent returns the path's direction at arc-length fraction s.
func (sp *splinePath) tangent(s float64) [3]float64 {
	k, t := sp.locate(s)
	switch {
	case k < 0:
		return [3]float64{}
	case sp.segments > 0:
		return sp.bezierTangent(k, t)
	}
	a, b := sp.pts[k], sp.pts[k+1]
	return [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
}

// longestLife is the longest lifespan the emitter's particles can have,
// for the automatic pre-roll: the static value or the track's largest key.
func (e *wowEmitter) longestLife() float64 {
	l := float64(e.e.LifeSpan)
	if tr := e.e.LifeSpanTrack; tr != nil {
		for _, k := range tr.Keys {
			l = math.Max(l, float64(k.Value))
		}
	}
	if !e.ok || math.IsNaN(l) {
		return 0
	}
	return math.Min(l, maxWoWLife)
}
