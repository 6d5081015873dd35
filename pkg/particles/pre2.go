package particles

import (
	"math"
	"strconv"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// PRE2 node flags (docs/particles.md#record-and-flags).
const (
	flagUnshaded    = 0x8000
	flagLineEmitter = 0x20000
	flagModelSpace  = 0x80000
	flagXYQuad      = 0x100000
)

// pre2RateFactor is the reference viewer's SETTING_PARTICLES_HIGH: it
// multiplies the static PRE2 emission rate (not a KP2E track value).
const pre2RateFactor = 2

// maxLivePerEmitter bounds one PRE2 emitter's live particles. The viewer
// has none; a hostile rate or lifespan must not become an unbounded
// allocation or loop. Real effects stay far below (the corpus' busiest
// emitter has a few hundred).
const maxLivePerEmitter = 20000

// pre2Emitter simulates one PRE2 emitter as mdx-m3-viewer 5.12.0 does
// (docs/particles.md#pre2-emitters).
type pre2Emitter struct {
	m *mdx.Model
	e *mdx.ParticleEmitter2
	emitterNode
	pivot [3]float64

	head, tail bool
	life       float64 // lifespan in seconds as the viewer holds it (mdlSeconds)
	rate       float32 // static emission rate × pre2RateFactor
	acc        float64 // currentEmission; negative after a ceil burst
	lastKey    int     // lastEmissionKey for squirt
	// emits is the price (budget.go) of one emission.
	emits int64
	// objects are the live particles in the viewer's emitter.objects order
	// (a dead one is replaced by the last live one), which is draw order.
	objects []*particle2
	pool    []*particle2
}

// particle2 is one PRE2 particle. Location and velocity are float32, as in
// the viewer's Float32Array vectors; health is a float64 JS number.
type particle2 struct {
	em       *pre2Emitter
	index    int // position in em.objects
	tail     bool
	health   float64
	gravity  float64
	location [3]float32
	velocity [3]float32
	scale    [3]float32 // node world scale at birth
	facing   float64    // XYQuad
}

// updater is the scene's EmittedObjectUpdater for PRE2 particles: every
// live particle in birth order, a dead one replaced by the last one.
type updater struct {
	list []*particle2
}

func (u *updater) update(dt float64) {
	for i := 0; i < len(u.list); i++ {
		o := u.list[i]
		o.update(dt)
		if o.health <= 0 {
			last := len(u.list) - 1
			o.em.kill(o)
			if i != last {
				u.list[i] = u.list[last]
				i--
			}
			u.list[last] = nil
			u.list = u.list[:last]
		}
	}
}

func newPRE2Emitters(s *Sim) []emitter {
	m := s.m
	base := len(m.Bones) + len(m.Lights) + len(m.Helpers) + len(m.Attachments) + len(m.ParticleEmitters)
	var out []emitter
	for k := range m.ParticleEmitters2 {
		e := &m.ParticleEmitters2[k]
		pe := &pre2Emitter{m: m, e: e, emitterNode: emitterNode{idx: base + k}, lastKey: -1}
		if id := int(e.ObjectID); id >= 0 && id < len(m.PivotPoints) {
			pv := m.PivotPoints[id]
			pe.pivot = [3]float64{float64(pv[0]), float64(pv[1]), float64(pv[2])}
		}
		pe.head = e.HeadOrTail == 0 || e.HeadOrTail == 2
		pe.tail = e.HeadOrTail == 1 || e.HeadOrTail == 2
		pe.rate = float32(float64(e.EmissionRate) * pre2RateFactor)
		pe.life = viewerFloat(m, e.LifeSpan)
		pe.steps = trackPrice(e.Visibility) + trackPrice(e.EmissionRateTrack)
		if e.Squirt != 0 && e.EmissionRateTrack != nil {
			pe.steps += priceSquirtKey * int64(len(e.EmissionRateTrack.Keys))
		}
		pe.emits = priceEmitPRE2 + trackPrice(e.WidthTrack) + trackPrice(e.LengthTrack) + trackPrice(e.LatitudeTrack) +
			trackPrice(e.VariationTrack) + trackPrice(e.SpeedTrack) + trackPrice(e.GravityTrack)
		out = append(out, pe)
	}
	return out
}

func (e *pre2Emitter) reset() {
	e.acc = 0
	e.lastKey = -1
	for _, o := range e.objects {
		e.pool = append(e.pool, o)
	}
	e.objects = e.objects[:0]
}

// step is the viewer's ParticleEmitter2.update: skipped while the node is
// invisible; emission accumulates rate·dt (squirt: the whole KP2E value
// when its key changes) and, once ≥ 1, emits ceil(accumulator) times.
// Aging happens in the Sim's updater afterwards.
func (e *pre2Emitter) step(s *Sim, p *pose.Pose, dt float64, spawn bool) {
	c := s.Clock()
	if pose.Float(e.m, e.e.Visibility, c, 1, 1, true) <= 0 {
		return
	}
	if spawn {
		rate := pose.Float(e.m, e.e.EmissionRateTrack, c, e.rate, 0, false)
		if e.e.Squirt != 0 {
			key := keyIndex(e.m, e.e.EmissionRateTrack, c)
			if key != e.lastKey {
				e.acc += float64(rate)
			}
			e.lastKey = key
		} else {
			e.acc += float64(rate) * dt
		}
	}
	n := e.acc
	if n < 1 || math.IsNaN(n) {
		return
	}
	if !e.head && !e.tail {
		// A head-or-tail value other than 0-2: the viewer's loop runs and
		// emits nothing, and its accumulator never decreases.
		return
	}
	for i := 0; float64(i) < n; i++ {
		if len(e.objects) >= maxLivePerEmitter || !s.particleRoom() || s.over() {
			e.acc = 0 // hostile rate (or past the work budget): drop the rest of this burst
			return
		}
		if e.head {
			e.emit(s, p, false)
		}
		if e.tail {
			e.emit(s, p, true)
		}
	}
}

// emit is Emitter.emitObject + Particle2.bind (docs/particles.md#spawning-a-particle): five
// random draws (four for a LineEmitter) in the viewer's order.
func (e *pre2Emitter) emit(s *Sim, p *pose.Pose, tail bool) {
	var o *particle2
	if n := len(e.pool); n > 0 {
		o = e.pool[n-1]
		e.pool = e.pool[:n-1]
		*o = particle2{}
	} else {
		o = &particle2{}
	}
	s.spend(e.emits)
	o.em = e
	o.index = len(e.objects)
	e.objects = append(e.objects, o)
	e.acc--
	s.p2.list = append(s.p2.list, o)

	m, pe, c := e.m, e.e, s.Clock()
	width := float64(pose.Float(m, pe.WidthTrack, c, pe.Width, 0, false)) * 0.5
	length := float64(pose.Float(m, pe.LengthTrack, c, pe.Length, 0, false)) * 0.5
	latitude := float64(pose.Float(m, pe.LatitudeTrack, c, pe.Latitude, 0, false)) * math.Pi / 180
	variation := float64(pose.Float(m, pe.VariationTrack, c, pe.Variation, 0, false))
	speed := float64(pose.Float(m, pe.SpeedTrack, c, pe.Speed, 0, false))
	gravity := float64(pose.Float(m, pe.GravityTrack, c, pe.Gravity, 0, false))

	w := p.World(e.idx)
	rot, scale := decompose(w)
	modelSpace := pe.Flags&flagModelSpace != 0

	o.health = e.life
	o.tail = tail
	o.gravity = gravity * float64(float32(scale[2]))
	o.scale = f32v(scale)

	loc := [3]float64{
		e.pivot[0] + s.RandomInRange(-width, width),
		e.pivot[1] + s.RandomInRange(-length, length),
		e.pivot[2],
	}
	loc = f64v(f32v(loc))
	if !modelSpace {
		loc = point(w, loc)
	}
	o.location = f32v(loc)

	// q = Rz(π/2)·Ry(θ)[·Rx(φ)] applied to +Z.
	theta := s.RandomInRange(-latitude, latitude)
	phi := 0.0
	if pe.Flags&flagLineEmitter == 0 {
		phi = s.RandomInRange(-latitude, latitude)
	}
	dir := [3]float64{math.Sin(phi), math.Cos(phi) * math.Sin(theta), math.Cos(phi) * math.Cos(theta)}
	if !modelSpace {
		dir = mulMat3(&rot, dir)
	}
	k := speed * (1 + s.RandomInRange(-variation, variation))
	vel := [3]float64{dir[0] * k, dir[1] * k, dir[2] * k}
	if !modelSpace {
		vel = f64v(f32v(vel))
		s32 := f64v(o.scale)
		vel = [3]float64{vel[0] * s32[0], vel[1] * s32[1], vel[2] * s32[2]}
	}
	o.velocity = f32v(vel)
	if pe.Flags&flagXYQuad != 0 {
		o.facing = math.Atan2(float64(o.velocity[1]), float64(o.velocity[0])) - math.Pi + math.Pi/8
	}
}

// viewerFloat returns a static float field as the reference viewer holds
// it in a JS number: the float32 of an MDX file exactly, but for MDL text
// the decimal as written (its MDL parser keeps doubles), which we recover
// as the shortest decimal of the float32. It matters for lifespans:
// 0.3 s of 1/60 s steps ends exactly at 0 in the viewer and the particle
// dies, where float32(0.3) would live one step longer.
func viewerFloat(m *mdx.Model, v float32) float64 {
	if m.HasFileDetails() {
		return float64(v)
	}
	d, err := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
	if err != nil {
		return float64(v)
	}
	return d
}

// kill is Emitter.kill: the last live object takes the dead one's slot.
func (e *pre2Emitter) kill(o *particle2) {
	last := len(e.objects) - 1
	other := e.objects[last]
	e.objects[o.index] = other
	other.index = o.index
	e.objects[last] = nil
	e.objects = e.objects[:last]
	o.index = -1
	e.pool = append(e.pool, o)
}

// update is Particle2.update: semi-implicit Euler after the gravity term.
func (o *particle2) update(dt float64) {
	o.health -= dt
	if o.health > 0 {
		o.velocity[2] = float32(float64(o.velocity[2]) - o.gravity*dt)
		for i := 0; i < 3; i++ {
			o.location[i] = float32(float64(o.location[i]) + float64(o.velocity[i])*dt)
		}
	}
}

// decompose splits a world matrix's 3×3 part into a rotation (columns)
// and per-axis scale, which is the viewer's worldRotation/worldScale
// whenever scales are uniform or unrotated (pkg/pose keeps those private).
func decompose(w fauxgl.Matrix) (rot [9]float64, scale [3]float64) {
	for c, col := range [3][3]float64{{w.X00, w.X10, w.X20}, {w.X01, w.X11, w.X21}, {w.X02, w.X12, w.X22}} {
		x, y, z := col[0], col[1], col[2]
		l := math.Sqrt(x*x + y*y + z*z)
		scale[c] = l
		if l > 0 {
			rot[c*3], rot[c*3+1], rot[c*3+2] = x/l, y/l, z/l
		}
	}
	// A mirroring matrix: put the reflection into the z scale.
	det := rot[0]*(rot[4]*rot[8]-rot[7]*rot[5]) - rot[3]*(rot[1]*rot[8]-rot[7]*rot[2]) + rot[6]*(rot[1]*rot[5]-rot[4]*rot[2])
	if det < 0 {
		scale[2] = -scale[2]
		rot[6], rot[7], rot[8] = -rot[6], -rot[7], -rot[8]
	}
	return rot, scale
}

// point transforms the point v by the world matrix w.
func point(w fauxgl.Matrix, v [3]float64) [3]float64 {
	r := w.MulPosition(fauxgl.Vector{X: v[0], Y: v[1], Z: v[2]})
	return [3]float64{r.X, r.Y, r.Z}
}

// mulMat3 applies a column-major 3×3 matrix.
func mulMat3(r *[9]float64, v [3]float64) [3]float64 {
	return [3]float64{
		r[0]*v[0] + r[3]*v[1] + r[6]*v[2],
		r[1]*v[0] + r[4]*v[1] + r[7]*v[2],
		r[2]*v[0] + r[5]*v[1] + r[8]*v[2],
	}
}

func f32v(v [3]float64) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }
func f64v(v [3]float32) [3]float64 {
	return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
}

// keyIndex is the key index mdx-m3-viewer's SdSequence.getValue returns
// for a scalar track at clock c: −1 without a track, sequence, keys in
// range, or for a constant track or a frame before the sequence start;
// otherwise the index of the key interpolated from (the last one when
// wrapping). Squirt emitters fire when it changes.
func keyIndex(m *mdx.Model, tr *mdx.Track[float32], c pose.Clock) int {
	if tr == nil {
		return -1
	}
	var start, end, frame float64
	global := false
	if gs := tr.GlobalSeqID; gs >= 0 && int(gs) < len(m.GlobalSequences) {
		d := float64(m.GlobalSequences[gs])
		start, end, global = 0, d, true
		if d > 0 {
			frame = math.Mod(c.Global, d)
			if frame < 0 {
				frame += d
			}
		}
	} else {
		if c.Sequence < 0 || c.Sequence >= len(m.Sequences) {
			return -1
		}
		iv := m.Sequences[c.Sequence].Interval
		start, end, frame = float64(iv[0]), float64(iv[1]), c.Frame
	}
	var idx []int // keys in range, file order
	for i, k := range tr.Keys {
		f := float64(k.Frame)
		if (start <= f && f <= end) || (global && i == 0 && f > end) {
			idx = append(idx, i)
		}
	}
	if len(idx) <= 1 || frame < start {
		return -1
	}
	constant := true
	for _, i := range idx[1:] {
		if tr.Keys[i].Value != tr.Keys[idx[0]].Value {
			constant = false
			break
		}
	}
	if constant {
		return -1
	}
	n := len(idx)
	if frame < float64(tr.Keys[idx[0]].Frame) || frame >= float64(tr.Keys[idx[n-1]].Frame) {
		return n - 1
	}
	for j := 1; j < n; j++ {
		if float64(tr.Keys[idx[j]].Frame) > frame {
			return j - 1
		}
	}
	return -1
}

// appendMeshes draws every live particle as a quad (docs/particles.md#drawing-particles;
// mdx-m3-viewer's particles.vert): segment colour, alpha and scale by age,
// the sprite-sheet cell of the head or tail interval.
func (e *pre2Emitter) appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh {
	if len(e.objects) == 0 {
		return out
	}
	s.spend(priceQuad * int64(len(e.objects)))
	pe := e.e
	mesh := Mesh{
		Kind: KindParticle2, Node: e.idx, Filter: pe.FilterMode,
		TextureID: int(pe.TextureID), ReplaceableID: pe.ReplaceableID,
		Material: -1, PriorityPlane: int(pe.PriorityPlane),
		Unshaded: pe.Flags&flagUnshaded != 0,
	}
	if pe.ReplaceableID != 0 {
		mesh.TextureID = -1
	}
	mesh.Vertices = make([]Vertex, 0, 4*len(e.objects))
	mesh.Indices = make([]uint32, 0, 6*len(e.objects))

	cols, rows := float64(pe.Columns), float64(pe.Rows)
	if cols < 1 {
		cols = 1
	}
	if rows < 1 {
		rows = 1
	}
	life := float64(float32(pe.LifeSpan))
	tm := float64(pe.Time)
	var colors [3][4]float64
	for i := 0; i < 3; i++ {
		sc := pe.SegmentColors[i]
		colors[i] = [4]float64{float64(sc[0]), float64(sc[1]), float64(sc[2]), float64(pe.SegmentAlphas[i]) / 255}
	}
	intervals := [4][3]uint32{pe.HeadIntervals, pe.HeadDecayIntervals, pe.TailIntervals, pe.TailDecayIntervals}
	teamColored := pe.ReplaceableID == 1 || pe.ReplaceableID == 2
	modelSpace := pe.Flags&flagModelSpace != 0
	xy := pe.Flags&flagXYQuad != 0
	w := p.World(e.idx)
	camZ := [3]float64{-cam.Forward.X, -cam.Forward.Y, -cam.Forward.Z}
	// The viewer's corner vectors (−1,−1), (−1,1), (1,1), (1,−1) in
	// camera space (billboarded) or in the world XY plane (XYQuad).
	var corners [4][3]float64
	for i, cv := range [4][2]float64{{-1, -1}, {-1, 1}, {1, 1}, {1, -1}} {
		if xy {
			corners[i] = [3]float64{cv[0], cv[1], 0}
		} else {
			r, u := cam.Right, cam.Up
			corners[i] = [3]float64{cv[0]*r.X + cv[1]*u.X, cv[0]*r.Y + cv[1]*u.Y, cv[0]*r.Z + cv[1]*u.Z}
		}
	}

	for _, o := range e.objects {
		health := float64(float32(o.health))
		x := (life - health) / life
		seg := 0
		var f float64
		if x < tm {
			f = x / tm
		} else {
			seg = 1
			f = (x - tm) / (1 - tm)
		}
		f = math.Min(f, 1)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0
		}
		sc := float64(pe.SegmentScaling[seg]) + (float64(pe.SegmentScaling[seg+1])-float64(pe.SegmentScaling[seg]))*f
		var col [4]float32
		for k := 0; k < 4; k++ {
			col[k] = float32(colors[seg][k] + (colors[seg+1][k]-colors[seg][k])*f)
		}
		cell := 0.0
		if !teamColored {
			iv := intervals[seg]
			if o.tail {
				iv = intervals[seg+2]
			}
			cell = spriteCell(iv, f, cols, rows)
		}
		left := math.Floor(math.Mod(cell, cols))
		top := math.Floor(cell / cols)
		l, r := float32(left/cols), float32((left+1)/cols)
		t, b := float32(top/rows), float32((top+1)/rows)
		uvs := [4][2]float32{{r, t}, {l, t}, {l, b}, {r, b}}

		var pos [4][3]float64
		if !o.tail {
			loc := f64v(o.location)
			if modelSpace {
				loc = f64v(f32v(point(w, loc)))
			}
			cs, sn := 1.0, 0.0
			if xy {
				cs, sn = math.Cos(o.facing), math.Sin(o.facing)
			}
			for i, v := range corners {
				fv := [3]float64{v[0]*cs - v[1]*sn, v[0]*sn + v[1]*cs, v[2]}
				pos[i] = [3]float64{loc[0] + fv[0]*sc, loc[1] + fv[1]*sc, loc[2] + fv[2]*sc}
			}
		} else {
			end := f64v(o.location)
			vel := f64v(o.velocity)
			tl := float64(pe.TailLength)
			start := [3]float64{end[0] - tl*vel[0], end[1] - tl*vel[1], end[2] - tl*vel[2]}
			if modelSpace {
				start, end = point(w, start), point(w, end)
			}
			d := [3]float64{end[0] - start[0], end[1] - start[1], end[2] - start[2]}
			dl := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
			if !(dl > 0) || math.IsInf(dl, 0) {
				continue // normalize(0) is NaN in the shader: nothing drawn
			}
			d = [3]float64{d[0] / dl, d[1] / dl, d[2] / dl}
			nrm := [3]float64{camZ[1]*d[2] - camZ[2]*d[1], camZ[2]*d[0] - camZ[0]*d[2], camZ[0]*d[1] - camZ[1]*d[0]}
			k := sc * float64(o.scale[0])
			bd := [3]float64{nrm[0] * k, nrm[1] * k, nrm[2] * k}
			for i := 0; i < 3; i++ {
				pos[0][i] = start[i] - bd[i]
				pos[1][i] = end[i] - bd[i]
				pos[2][i] = end[i] + bd[i]
				pos[3][i] = start[i] + bd[i]
			}
		}
		base := uint32(len(mesh.Vertices))
		for i := 0; i < 4; i++ {
			mesh.Vertices = append(mesh.Vertices, Vertex{Pos: f32v(pos[i]), UV: uvs[i], Color: col})
		}
		mesh.Indices = append(mesh.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	if len(mesh.Indices) == 0 {
		return out
	}
	return append(out, mesh)
}

// spriteCell is the shader's getCell: with end > start the cell runs
// through [start, end) repeat times over the segment, capped at the last
// cell of the sheet; otherwise it is start.
func spriteCell(iv [3]uint32, f, cols, rows float64) float64 {
	start, end, repeat := float64(iv[0]), float64(iv[1]), float64(iv[2])
	n := end - start
	if n > 0 {
		return math.Min(start+glmod(math.Floor(n*repeat*f), n), cols*rows-1)
	}
	return start
}

// glmod is GLSL mod: x − y·floor(x/y).
func glmod(x, y float64) float64 { return x - y*math.Floor(x/y) }
