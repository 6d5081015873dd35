package particles

import (
	"fmt"
	"math"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// settingParticlesHigh is the reference viewer's particle-detail factor:
// it doubles the static emission rate of ribbon (and PRE2) emitters
// (docs/particles.md#emission).
const settingParticlesHigh = 2

// maxRibbonEdges bounds one ribbon emitter's live edges. The viewer has no
// limit; a hostile emission rate (u32, up to 4·10⁹ a second) or lifespan
// must not turn into an unbounded allocation. 4096 edges is ten times what
// a 60-edges-a-second ribbon living 6 seconds needs.
const maxRibbonEdges = 4096

// ribbonEmitter simulates one RIBB emitter as mdx-m3-viewer 5.12.0 does
// (docs/particles.md#ribbons): it appends one edge — a segment along the node's local Y from
// −heightBelow to +heightAbove, fixed in world space at spawn — per
// emission, and draws a quad strip joining consecutive live edges.
//
// The viewer's rules kept on purpose: the static u32 rate doubled
// (SETTING_PARTICLES_HIGH) with ceil bursts; alpha 0 hides the emitter
// whatever KRVS says; every edge takes the current KRCO/KRAL/KRTX (the
// static TextureSlot is ignored) stored as bytes; gravity·dt² off world Y;
// UVs packed into bytes and divided by columns twice (wrong past the first
// atlas row, a known fault of the viewer); the quad winding that makes one-sided layers
// cull (render draws the layer's cull state). Deliberate deviations, all
// for hostile input only: at most maxRibbonEdges live edges, columns or
// rows of 0 taken as 1, NaN lifespans die at once, quads with non-finite
// corners are not drawn, and a MaterialID without a layer skips the
// emitter with a warning (the viewer then fails to load the model).
type ribbonEmitter struct {
	m *mdx.Model
	e *mdx.RibbonEmitter
	emitterNode
	pivot [3]float64
	// mat indexes Model.Materials; the first layer chooses blend and
	// texture. ok is false when that layer does not exist: the viewer then
	// fails to load the whole model, we skip this emitter.
	mat int
	ok  bool

	// The static fields the viewer reads as doubles (viewerFloat).
	alpha0, above0, below0, life, gravity float64
	// emits is the price (budget.go) of one step's emission.
	emits int64

	rate  float64 // edges per second: static rate × settingParticlesHigh
	acc   float64 // emission accumulator; may go negative (ceil emission)
	edges []ribbonEdge
	// emitted counts edges since construction (tests and statistics).
	emitted int
}

// ribbonEdge is one emitted edge. Positions are float32 because the viewer
// keeps them in a Float32Array (gravity is subtracted in that precision);
// colour and texture slot are refreshed every step from the emitter's
// current tracks, so all edges share them, as in the viewer.
type ribbonEdge struct {
	above, below [3]float32
	health       float64 // seconds left
	color        [4]uint8
	slot         uint32
}

// newRibbonEmitters makes one emitter per RIBB record. Emitters whose
// material or first layer is missing are reported as warnings and left
// out of the simulation.
func newRibbonEmitters(s *Sim) []emitter {
	m := s.m
	if len(m.RibbonEmitters) == 0 {
		return nil
	}
	// Model.Nodes() order.
	base := len(m.Bones) + len(m.Lights) + len(m.Helpers) + len(m.Attachments) + len(m.ParticleEmitters) +
		len(m.ParticleEmitters2) + len(m.PopcornEmitters)
	var out []emitter
	for k := range m.RibbonEmitters {
		e := &m.RibbonEmitters[k]
		r := &ribbonEmitter{m: m, e: e, emitterNode: emitterNode{idx: base + k}}
		if id := int(e.ObjectID); id >= 0 && id < len(m.PivotPoints) {
			pv := m.PivotPoints[id]
			r.pivot = [3]float64{float64(pv[0]), float64(pv[1]), float64(pv[2])}
		}
		r.mat = int(e.MaterialID)
		if r.mat >= 0 && r.mat < len(m.Materials) && len(m.Materials[r.mat].Layers) > 0 {
			r.ok = true
		} else {
			s.warnf("ribbon emitter %q: material %d does not exist or has no layer; emitter skipped", e.Name, e.MaterialID)
			continue
		}
		r.rate = float64(e.EmissionRate) * settingParticlesHigh
		r.alpha0, r.above0, r.below0 = viewerFloat(m, e.Alpha), viewerFloat(m, e.HeightAbove), viewerFloat(m, e.HeightBelow)
		r.life, r.gravity = viewerFloat(m, e.LifeSpan), viewerFloat(m, e.Gravity)
		// visible samples KRAL and KRVS, update KRCO, KRAL again and KRTX.
		r.steps = 2*trackPrice(e.AlphaTrack) + trackPrice(e.Visibility) + trackPrice(e.ColorTrack) + trackPrice(e.TextureSlotTrack)
		r.emits = priceEmitRibbon + trackPrice(e.HeightAboveTrack) + trackPrice(e.HeightBelowTrack)
		out = append(out, r)
	}
	return out
}

func (r *ribbonEmitter) reset() {
	r.acc = 0
	r.edges = r.edges[:0]
}

// visible is the viewer's RibbonEmitterObject.getVisibility: an alpha of 0
// (KRAL, or the static alpha) hides the emitter whatever KRVS says.
func (r *ribbonEmitter) visible(p *pose.Pose) bool {
	c := p.Clock()
	if r.alpha(c) == 0 {
		return false
	}
	return pose.Float(r.m, r.e.Visibility, c, 1, 1, true) > 0
}

// alpha samples KRAL; a track without keys in the sequence gives 0, the
// viewer's default for KRAL.
func (r *ribbonEmitter) alpha(c pose.Clock) float64 {
	return viewerScalar(r.m, r.e.AlphaTrack, c, r.alpha0, 0)
}

// viewerScalar samples a scalar track as the viewer's getScalarValue
// does: without a track or a sequence it is the static field, which the
// viewer holds as a double when it read MDL text: static is that double
// (viewerFloat of the field, worked out once).
func viewerScalar(m *mdx.Model, tr *mdx.Track[float32], c pose.Clock, static float64, def float32) float64 {
	if tr == nil || c.Sequence < 0 || c.Sequence >= len(m.Sequences) {
		return static
	}
	return float64(pose.Float(m, tr, c, float32(static), def, false))
}

func (r *ribbonEmitter) step(s *Sim, p *pose.Pose, dt float64, spawn bool) {
	// The viewer updates an emitter (accumulate, then emit) only while its
	// node is visible; the accumulator keeps its value meanwhile.
	if r.idx >= 0 && r.visible(p) {
		if spawn {
			r.acc += r.rate * dt
		}
		if r.acc >= 1 {
			// Emitter.update: for (i = 0; i < acc; i++) emit(), each emit
			// subtracting 1, so ceil(acc) edges and a negative remainder.
			n := math.Ceil(r.acc)
			r.acc = subtractOnes(r.acc, n)
			// Edges born in one step lie on top of each other, so past
			// the bound only the count differs from the viewer; they are
			// made once and copied.
			if k := s.edgeRoom(int(min(n, maxRibbonEdges))); k > 0 {
				s.spend(r.emits + priceEdgeBorn*int64(k))
				s.live.edges += k
				if over := len(r.edges) + k - maxRibbonEdges; over > 0 {
					// Deliberate deviation from the unbounded viewer: the
					// oldest edges go.
					r.edges = append(r.edges[:0], r.edges[over:]...)
				}
				e := r.newEdge(p)
				for range k {
					r.edges = append(r.edges, e)
				}
				r.emitted += k
			}
		}
	}
	r.update(p, dt)
}

// subtractOnes is acc − n as the viewer computes it, one emission at a
// time (acc−−, n times, acc ≥ 1 and n = ceil(acc)): one subtraction is
// the same number. Each acc−− from acc ≥ 1 is exact (acc is a multiple
// of its ulp, which divides 1, and the difference is smaller), and the
// last one, from acc − (n−1) in (0, 1], rounds acc − n once, as the single
// subtraction does (TestSubtractOnes). A loop would cost a hostile rate
// up to 2¹⁶ iterations a step for nothing.
func subtractOnes(acc, n float64) float64 { return acc - n }

// newEdge returns an edge at the node's current world transform
// (Ribbon.bind).
func (r *ribbonEmitter) newEdge(p *pose.Pose) ribbonEdge {
	c := p.Clock()
	below := viewerScalar(r.m, r.e.HeightBelowTrack, c, r.below0, 0)
	above := viewerScalar(r.m, r.e.HeightAboveTrack, c, r.above0, 0)
	w := p.World(r.idx)
	x, y, z := r.pivot[0], r.pivot[1], r.pivot[2]
	// The viewer builds the local points in a Float32Array first.
	a := point(w, [3]float64{x, float64(float32(y + above)), z})
	b := point(w, [3]float64{x, float64(float32(y - below)), z})
	return ribbonEdge{
		above:  [3]float32{float32(a[0]), float32(a[1]), float32(a[2])},
		below:  [3]float32{float32(b[0]), float32(b[1]), float32(b[2])},
		health: r.life,
	}
}

// update ages every edge (Ribbon.update via the scene's updater), applies
// the viewer's gravity quirk (gravity·dt² off world Y) and refreshes
// colour, alpha and slot from the current tracks; dead edges leave.
func (r *ribbonEmitter) update(p *pose.Pose, dt float64) {
	if len(r.edges) == 0 {
		return
	}
	c := p.Clock()
	col := pose.Vec3(r.m, r.e.ColorTrack, c, r.e.Color, mdx.Vec3{})
	al := r.alpha(c)
	// KRTX's fallback is 0, not the static TextureSlot: the viewer ignores
	// the static field.
	slot := pose.Uint(r.m, r.e.TextureSlotTrack, c, 0, 0)
	g := r.gravity * dt * dt
	// Every edge takes the same colour: convert it once.
	color := [4]uint8{jsUint8(float64(col[0]) * 255), jsUint8(float64(col[1]) * 255), jsUint8(float64(col[2]) * 255), jsUint8(al * 255)}
	live := r.edges[:0]
	for _, e := range r.edges {
		e.health -= dt
		if !(e.health > 0) {
			// health ≤ 0 dies; so does NaN (from a NaN lifespan), which
			// the viewer would keep for ever.
			continue
		}
		e.above[1] = float32(float64(e.above[1]) - g)
		e.below[1] = float32(float64(e.below[1]) - g)
		e.color = color
		e.slot = slot
		live = append(live, e)
	}
	r.edges = live
}

// jsUint8 is JavaScript's ToUint8, what storing a number in a Uint8Array
// does: truncate toward zero, then wrap modulo 256; NaN and ±Inf give 0.
func jsUint8(x float64) uint8 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	m := math.Mod(math.Trunc(x), 256)
	if m < 0 {
		m += 256
	}
	return uint8(m)
}

func (r *ribbonEmitter) appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh {
	n := len(r.edges) - 1 // quads
	if n < 1 {
		return out
	}
	s.spend(priceRibbonQuad * int64(n))
	mat := &r.m.Materials[r.mat]
	ly := &mat.Layers[0]
	mesh := Mesh{
		Kind:          KindRibbon,
		Node:          r.idx,
		TextureID:     int(ly.TextureID),
		Material:      r.mat,
		PriorityPlane: int(mat.PriorityPlane),
		Unshaded:      true, // the particle shader has no lighting
		Vertices:      make([]Vertex, 0, 4*n),
		Indices:       make([]uint32, 0, 6*n),
	}
	cols, rows := float64(r.e.Columns), float64(r.e.Rows)
	if cols == 0 {
		cols = 1 // deviation: the viewer divides by zero (NaN UVs)
	}
	if rows == 0 {
		rows = 1
	}
	chain := 1 / float64(n)
	for k := 0; k < n; k++ {
		e, next := &r.edges[k], &r.edges[k+1]
		if !finite3(e.above) || !finite3(e.below) || !finite3(next.above) || !finite3(next.below) {
			continue // NaN heights or matrices: nothing sensible to draw
		}
		u0, u1, v0, v1 := ribbonUV(e.slot, k, chain, cols, rows)
		col := [4]float32{float32(e.color[0]) / 255, float32(e.color[1]) / 255, float32(e.color[2]) / 255, float32(e.color[3]) / 255}
		base := uint32(len(mesh.Vertices))
		mesh.Vertices = append(mesh.Vertices,
			Vertex{Pos: e.above, UV: [2]float32{u1, v0}, Color: col},
			Vertex{Pos: e.below, UV: [2]float32{u1, v1}, Color: col},
			Vertex{Pos: next.below, UV: [2]float32{u0, v1}, Color: col},
			Vertex{Pos: next.above, UV: [2]float32{u0, v0}, Color: col},
		)
		// The viewer's rectangle order, so that back-face culling of a
		// one-sided layer removes the same side.
		mesh.Indices = append(mesh.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	if len(mesh.Indices) == 0 {
		return out
	}
	return append(out, mesh)
}

func finite3(v [3]float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// ribbonUV returns the left/right u and top/bottom v of the quad that
// starts at edge k (0 = oldest) as the viewer computes them
// (bindRibbonEmitterBuffer and the ribbon() vertex shader): left, right
// and top are packed into bytes (×255, ToUint8) and divided by columns or
// rows a second time in the shader; bottom is top + 1 before that division.
// The newest edge ends at u≈0, the oldest at u≈1. Rows > 1 and slots past
// the first row come out wrong, as in the viewer (a known fault of it).
func ribbonUV(slot uint32, k int, chain, cols, rows float64) (left, right, top, bottom float32) {
	s := float64(slot)
	l := (math.Mod(s, cols) + (1 - float64(k)*chain - chain)) / cols
	rt := l + chain
	t := s / cols
	lb := float64(jsUint8(l*255)) / 255
	rb := float64(jsUint8(rt*255)) / 255
	tb := float64(jsUint8(t*255)) / 255
	return float32(lb / cols), float32(rb / cols), float32(tb / rows), float32((tb + 1) / rows)
}

// String describes the emitter for test failures.
func (r *ribbonEmitter) String() string {
	return fmt.Sprintf("ribbon %q (%d edges)", r.e.Name, len(r.edges))
}
