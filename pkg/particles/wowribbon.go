package particles

import (
	"math"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// wowRibbon simulates one World of Warcraft (M2) ribbon emitter
// (docs/particles.md#world-of-warcraft-ribbons) as the game client does
// in WebWowViewerCpp's reimplementation: edgesPerSecond (rounded up) edges
// a second, placed along the path the emitter moved during the step, each
// spanning heightAbove and heightBelow along the emitter's Y axis and
// coloured at birth; a last edge always at the emitter's current place;
// edges live lifespan seconds (at least 0.25) and rise by gravity·age².
// The strip shows one cell of the texture, stretched from the newest
// edge (u at the cell's left) to the oldest.
type wowRibbon struct {
	m           *mdx.Model
	e           *mdx.WoWRibbonEmitter
	emitterNode // on the emitter's bone
	// eps and life are the edges a second and the lifespan in seconds, as
	// the client rounds and bounds them.
	eps, life float64
	start     float64 // fraction of an edge carried to the next step
	posSet    bool    // prev holds the emitter's place at the last step
	prev, cur wowEdge // the emitter's edge at the last step and now
	edges     []wowEdge
	// live is whether the current edge is drawn (the emitter is visible
	// and has a place).
	live  bool
	emits int64
}

// wowEdge is one edge of a WoW ribbon, in world space.
type wowEdge struct {
	above, below [3]float64
	age          float64
	color        [4]float32
}

// maxWoWEdgeRate bounds a WoW ribbon's edges a second: a hostile rate
// must not make a step emit more edges than one emitter may hold.
const maxWoWEdgeRate = maxRibbonEdges * 60

func newWoWRibbons(s *Sim) []emitter {
	m := s.m
	var out []emitter
	for k := range m.WoWRibbonEmitters {
		e := &m.WoWRibbonEmitters[k]
		if e.Bone < 0 || int(e.Bone) >= len(m.Bones) {
			s.warnf("WoW ribbon emitter %d: bone %d of %d; emitter skipped", k, e.Bone, len(m.Bones))
			continue
		}
		if len(e.Layers) == 0 {
			s.warnf("WoW ribbon emitter %d: no texture to draw; emitter skipped", k)
			continue
		}
		r := &wowRibbon{m: m, e: e, emitterNode: emitterNode{idx: int(e.Bone)}}
		r.eps = math.Min(math.Ceil(finite(float64(e.EdgesPerSecond))), maxWoWEdgeRate)
		r.life = math.Min(math.Max(finite(float64(e.LifeSpan)), 0.25), maxWoWLife)
		r.steps = trackPrice(e.VisibilityTrack) + trackPrice(e.ColorTrack) + trackPrice(e.AlphaTrack) +
			trackPrice(e.TextureSlotTrack)
		r.emits = priceEmitRibbon + trackPrice(e.HeightAboveTrack) + trackPrice(e.HeightBelowTrack)
		out = append(out, r)
	}
	return out
}

func (r *wowRibbon) reset() {
	r.start, r.posSet, r.live = 0, false, false
	r.edges = r.edges[:0]
}

// place returns the emitter's current edge: its world position ± the
// heights along its world Y axis (scaled with the bone), with the current
// colour and alpha.
func (r *wowRibbon) place(p *pose.Pose, c pose.Clock) wowEdge {
	w := p.World(r.idx)
	pv := r.e.Position
	pos := point(w, [3]float64{float64(pv[0]), float64(pv[1]), float64(pv[2])})
	y := linear(w, [3]float64{0, 1, 0})
	above := finite(wowFloat(r.m, r.e.HeightAbove, r.e.HeightAboveTrack, c))
	below := finite(wowFloat(r.m, r.e.HeightBelow, r.e.HeightBelowTrack, c))
	col := pose.Vec3(r.m, r.e.ColorTrack, c, r.e.Color, mdx.Vec3{})
	alpha := wowFloat(r.m, r.e.Alpha, r.e.AlphaTrack, c)
	return wowEdge{
		above: add(pos, scaled(y, above)),
		below: add(pos, scaled(y, -below)),
		// Colours are blue, green, red; vertex colours RGB.
		color: [4]float32{col[2], col[1], col[0], float32(clamp01(alpha))},
	}
}

func (r *wowRibbon) step(s *Sim, p *pose.Pose, dt float64, spawn bool) {
	c := s.Clock()
	dt = math.Min(math.Max(dt, 0), r.life)
	// Edges that would pass their lifespan in this step go first.
	old := 0
	for old < len(r.edges) && r.edges[old].age+dt > r.life {
		old++
	}
	r.edges = append(r.edges[:0], r.edges[old:]...)
	visible := spawn && wowFloat(r.m, r.e.Visibility, r.e.VisibilityTrack, c) > 0
	if !visible {
		// A hidden ribbon starts afresh where it shows again.
		r.posSet, r.live = false, false
	} else {
		s.spend(r.emits)
		r.cur = r.place(p, c)
		if !r.posSet {
			r.prev, r.start, r.posSet = r.cur, 0, true
		}
		acc := dt*r.eps + r.start
		n := math.Floor(acc)
		if n >= 1 && finite3d(r.cur.above) && finite3d(r.cur.below) {
			k := s.edgeRoom(int(math.Min(n, maxRibbonEdges)))
			s.spend(priceEdgeBorn * int64(k))
			s.live.edges += k
			for i := 1; i <= k; i++ {
				// Edge i of the step lies where the emitter was a fraction
				// t of the way from its last place, and is (1−t)·dt old
				// once the step has aged it.
				t := (float64(i) - r.start) / (acc - r.start)
				e := wowEdge{color: r.cur.color, age: -t * dt}
				for j := range 3 {
					e.above[j] = r.prev.above[j] + (r.cur.above[j]-r.prev.above[j])*t
					e.below[j] = r.prev.below[j] + (r.cur.below[j]-r.prev.below[j])*t
				}
				r.edges = append(r.edges, e)
			}
			if over := len(r.edges) - maxRibbonEdges; over > 0 {
				r.edges = append(r.edges[:0], r.edges[over:]...) // the oldest go
			}
		}
		r.start = acc - n
		r.prev, r.live = r.cur, true
	}
	g := finite(float64(r.e.Gravity))
	for i := range r.edges {
		e := &r.edges[i]
		dz := g * (2*e.age*dt + dt*dt)
		e.above[2] += dz
		e.below[2] += dz
		e.age += dt
	}
}

// appendMeshes draws the strip once per layer: quads joining consecutive
// edges, oldest first, then the current edge.
func (r *wowRibbon) appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh {
	strip := r.edges
	if r.live {
		strip = append(strip[:len(strip):len(strip)], r.cur)
	}
	n := len(strip) - 1
	if n < 1 {
		return out
	}
	s.spend(priceWoWRibbonQuad * int64(n) * int64(len(r.e.Layers)))
	c := p.Clock()
	cols, rows := float64(max(r.e.Columns, 1)), float64(max(r.e.Rows, 1))
	slot := float64(pose.Uint(r.m, r.e.TextureSlotTrack, c, r.e.TextureSlot, 0))
	minU := math.Floor(math.Mod(slot, cols)) / cols
	minV := math.Floor(slot/cols) / rows
	du, dv := 1/cols, 1/rows
	base := Mesh{Vertices: make([]Vertex, 0, 4*n), Indices: make([]uint32, 0, 6*n)}
	for k := 0; k < n; k++ {
		a, b := &strip[k], &strip[k+1]
		if !finite3d(a.above) || !finite3d(a.below) || !finite3d(b.above) || !finite3d(b.below) {
			continue
		}
		ua := float32(minU + du*clamp01(a.age/r.life))
		ub := float32(minU + du*clamp01(b.age/r.life))
		v0, v1 := float32(minV), float32(minV+dv)
		i := uint32(len(base.Vertices))
		base.Vertices = append(base.Vertices,
			Vertex{Pos: f32v(a.below), UV: [2]float32{ua, v0}, Color: a.color},
			Vertex{Pos: f32v(a.above), UV: [2]float32{ua, v1}, Color: a.color},
			Vertex{Pos: f32v(b.above), UV: [2]float32{ub, v1}, Color: b.color},
			Vertex{Pos: f32v(b.below), UV: [2]float32{ub, v0}, Color: b.color},
		)
		base.Indices = append(base.Indices, i, i+1, i+2, i, i+2, i+3)
	}
	if len(base.Indices) == 0 {
		return out
	}
	for li := range r.e.Layers {
		l := &r.e.Layers[li]
		mode := l.FilterMode
		if mode == mdx.FilterNone {
			mode = mdx.FilterBlend // ribbons are at least alpha-blended, as the client draws them
		}
		ms := base
		ms.Kind, ms.Node, ms.Filter, ms.LayerFlags = KindWoW, r.idx, uint32(mode), l.Flags|mdx.LayerUnshaded
		ms.TextureID, ms.Material = int(l.TextureID), -1
		out = append(out, ms)
	}
	return out
}
