package particles

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Prices of the simulation's work (docs/particles.md#work-units), in
// sixteenths of a unit of the budget.SimulationWork limit. A unit is meant
// to take 10-20 ns, so that the default 200 M units stop any simulation
// within 2-4 s of CPU: each price is what its piece of work measured on
// the machine docs/particles.md names (BenchmarkSimulate and
// BenchmarkMeshes report every path's nanoseconds per unit), rounded up.
// Sampling a track scans all of its keys (pose.Float and its siblings, and
// keyIndex, follow the viewer's per-sequence key lists), so a sampled
// track costs priceTrack plus priceKey per key: a track of a million keys
// makes a node or an emission that much dearer.
const (
	sixteenths = 16

	// Sampling.
	priceTrack     = 64 // one track sampled, before its keys
	priceKey       = 4  // one key of a sampled track scanned
	priceSquirtKey = 6  // one key scanned for a squirt's key index

	// Each step.
	priceNode    = 136 // a node of the model posed (its tracks come on top)
	priceEmitter = 64  // an emitter stepped (its tracks come on top)
	pricePRE2    = 6   // a live PRE2 particle aged and moved
	priceEdge    = 6   // a live ribbon edge aged
	pricePREM    = 8   // a live spawned model aged and moved
	priceWoW     = 12  // a live WoW particle aged and moved

	// Each emission.
	priceEmitPRE2    = 184 // a PRE2 particle born (its tracks on top)
	priceEmitRibbon  = 64  // a ribbon's edges of one step made (tracks on top)
	priceEdgeBorn    = 4   // each of those edges copied in
	priceEmitPREM    = 128 // a spawned model born (its tracks on top)
	priceEmitWoW     = 224 // a WoW particle born (its tracks on top)
	priceSplinePoint = 2   // a spline point looked at by a WoW spline emission

	// Each frame's geometry (Sim.Meshes).
	priceMeshEmitter   = 6    // an emitter looked at
	priceQuad          = 224  // a PRE2 particle's quad
	priceRibbonQuad    = 160  // a ribbon quad
	priceWoWQuad       = 720  // a WoW particle's head and tail quads
	priceWoWRibbonQuad = 384  // a WoW ribbon quad of one layer
	priceDrawSpawned   = 32   // a spawned model put in draw order
	priceGeoset        = 400  // a geoset of a spawned model posed and meshed
	priceGroup         = 32   // a matrix group of it skinned
	priceVertex        = 90   // a vertex of it skinned and meshed
	priceFace          = 30   // a triangle of it checked
	priceGeosetAnimOf  = 1    // a geoset animation looked at for a geoset's colour
	priceSpawnedModel  = 1024 // a spawned model's pose begun
)

// trackPrice is the price of sampling tr once.
func trackPrice[T mdx.TrackValue](tr *mdx.Track[T]) int64 {
	if tr == nil {
		return 0
	}
	return priceTrack + priceKey*int64(len(tr.Keys))
}

// nodePrice is the price of posing nd once.
func nodePrice(nd *mdx.Node) int64 {
	return priceNode + trackPrice(nd.Translation) + trackPrice(nd.Rotation) + trackPrice(nd.Scaling)
}

// posePrice is the price of posing every node of m once.
func posePrice(m *mdx.Model) int64 {
	var p int64
	for _, nd := range m.Nodes() {
		p += nodePrice(nd)
	}
	return p
}

// spawnedPrice is the price of one instance of a spawned model in a
// frame: posing its nodes, skinning every geoset and meshing it (the
// colour of each geoset looks at every geoset animation).
func spawnedPrice(m *mdx.Model) int64 {
	p := int64(priceSpawnedModel) + posePrice(m)
	// The colour of a geoset comes from the last animation naming it.
	anim := make([]int, len(m.Geosets))
	for gi := range anim {
		anim[gi] = -1
	}
	for i := range m.GeosetAnims {
		if gi := int(m.GeosetAnims[i].GeosetID); gi >= 0 && gi < len(anim) {
			anim[gi] = i
		}
	}
	for gi := range m.Geosets {
		g := &m.Geosets[gi]
		p += priceGeoset + priceGroup*int64(len(g.MatrixGroups)) + priceVertex*int64(len(g.Vertices)) + priceFace*int64(len(g.Faces)/3)
		p += priceGeosetAnimOf * int64(len(m.GeosetAnims))
		if i := anim[gi]; i >= 0 {
			p += trackPrice(m.GeosetAnims[i].AlphaTrack) + trackPrice(m.GeosetAnims[i].ColorTrack)
		}
	}
	return p
}

// caps are the live-count limits of the Sim's meter, as ints.
type caps struct {
	particles, edges, spawnedVertices int
}

func capsOf(l budget.Limits) caps {
	c := func(k budget.Kind) int { return int(min(l.Get(k), math.MaxInt32)) }
	return caps{c(budget.Particles), c(budget.RibbonEdges), c(budget.SpawnedVertices)}
}

// liveCounts are the model-wide live counts the budgets cap, taken at the
// start of each update and raised by each emission during it (deaths count
// from the next update on, which keeps the caps conservative and the
// result the same whatever the emitters' order).
type liveCounts struct {
	wow           int // WoW particles
	edges         int // ribbon edges
	spawned       int // PREM instances
	spawnedVertex int // their models' sizes (premEmitter.size)
}

// recount refreshes the live counts from the emitters.
func (s *Sim) recount() {
	s.live = liveCounts{}
	for _, e := range s.ribbons {
		s.live.edges += len(e.(*ribbonEmitter).edges)
	}
	for _, e := range s.wow {
		s.live.wow += len(e.(*wowEmitter).parts)
	}
	for _, e := range s.wowRibbons {
		s.live.edges += len(e.(*wowRibbon).edges)
	}
	for _, e := range s.prem {
		p := e.(*premEmitter)
		s.live.spawned += len(p.parts)
		s.live.spawnedVertex += len(p.parts) * p.size
	}
}

// budgetWarning names the budgets that have capped emission, so each is
// reported once.
type budgetWarning uint8

const (
	warnParticles budgetWarning = 1 << iota
	warnEdges
	warnSpawned
)

// capped reports a live-count budget that held emission back, once.
func (s *Sim) capped(w budgetWarning, k budget.Kind, format string, n int) {
	if s.warned&w != 0 {
		return
	}
	s.warned |= w
	s.warnf(format+" (the %s limit); emission was held back there, so the picture shows fewer than the model asks for", n, k)
}

// particleRoom reports whether one more PRE2 or WoW particle or spawned
// model may be born.
func (s *Sim) particleRoom() bool {
	if m := s.caps.particles; len(s.p2.list)+s.live.wow+s.live.spawned >= m {
		s.capped(warnParticles, budget.Particles, "particle budget reached: %d live particles and spawned models", m)
		return false
	}
	return true
}

// edgeRoom returns how many of k ribbon edges may be born.
func (s *Sim) edgeRoom(k int) int {
	m := s.caps.edges
	if room := max(m-s.live.edges, 0); room < k {
		s.capped(warnEdges, budget.RibbonEdges, "ribbon budget reached: %d live ribbon edges", m)
		return room
	}
	return k
}

// spawnRoom reports whether one more spawned model of size n (see
// premEmitter.size) may be born.
func (s *Sim) spawnRoom(n int) bool {
	if !s.particleRoom() {
		return false
	}
	if m := s.caps.spawnedVertices; s.live.spawnedVertex+n > m {
		s.capped(warnSpawned, budget.SpawnedVertices, "spawned-model budget reached: %d vertices of live spawned models", m)
		return false
	}
	return true
}

// spend adds n sixteenths of a unit to the work not yet charged.
func (s *Sim) spend(n int64) { s.pending += n }

// over reports whether the work not yet charged is more than the meter
// had left at the last settle: the simulation stops at the next settle,
// so whatever can be skipped until then is.
func (s *Sim) over() bool { return s.pending > s.left }

// settle charges the work spent since the last settle to the meter, in
// whole units rounded up (the rest of the last unit is a credit towards
// the next settle), and refreshes what is left. A refusal becomes the
// Sim's error, its What saying where the simulation stopped (where()).
func (s *Sim) settle(where func() string) error {
	if s.pending > 0 {
		units := (s.pending + sixteenths - 1) / sixteenths
		if err := s.meter.Charge(budget.SimulationWork, units, "", ""); err != nil {
			var be *budget.Error
			if errors.As(err, &be) {
				be.What = where()
			}
			s.err = err
			return err
		}
		s.pending -= units * sixteenths
		s.work += units
	}
	if left := s.meter.Left(budget.SimulationWork); left >= math.MaxInt64/sixteenths {
		s.left = math.MaxInt64
	} else {
		s.left = left * sixteenths
	}
	return nil
}

// stepWhere describes where a step's simulation stopped.
func (s *Sim) stepWhere() string {
	return fmt.Sprintf("particle simulation stopped after %d steps (pre-roll included) of %d emitters, with %d live particles, %d ribbon edges and %d spawned models",
		s.updates, len(s.emitters), len(s.p2.list)+s.live.wow, s.live.edges, s.live.spawned)
}

// Work returns the simulation work this Sim has charged to its meter
// since New, in units of the budget.SimulationWork limit (about 10-20 ns
// each; docs/particles.md#work-units).
func (s *Sim) Work() int64 { return s.work }

// interrupted returns why the simulation must stop: a budget error, or
// the context's error.
func (s *Sim) interrupted(ctx context.Context) error {
	if s.err != nil {
		return s.err
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("particles: stopped after %d steps: %w", s.updates, context.Cause(ctx))
	default:
		return nil
	}
}
