package particles

import (
	"context"
	"fmt"
)

// Default budgets (Options.MaxParticles, MaxRibbonEdges,
// MaxSpawnedVertices, MaxWork). The viewer has none; these keep a hostile
// model to a few seconds of simulation and tens of megabytes, and sit far
// above what real models do: the busiest model of the corpus the tests
// run over has 1,382 live particles, 2,904 live ribbon edges, no spawned
// models, and needs 44 million work units for 30 s of its longest
// sequence after a pre-roll of 222 s (13,411 steps). The particle counts
// also bound what there is to draw, but not its cost: ten thousand quads
// that each fill the picture take seconds to rasterise.
const (
	DefaultMaxParticles       = 10_000
	DefaultMaxRibbonEdges     = 20_000
	DefaultMaxSpawnedVertices = 1 << 20
	DefaultMaxWork            = 200_000_000
)

// Work units, calibrated on the time each takes: a live particle, ribbon
// edge or spawned model aged by one step costs one; a node posed costs
// nodeWork (it samples its tracks and multiplies matrices), an emitter
// stepped emitterWork (visibility and rate tracks) and an emission
// emitWork (half a dozen tracks, random draws, the node's transform); the
// ribbon edges born in one step are made once and copied, for emitWork
// and one per edge.
const (
	nodeWork    = 32
	emitterWork = 8
	emitWork    = 16
)

// BudgetError reports a simulation stopped by Options.MaxWork. The model
// may be valid: raising the budget lets it run to the end.
type BudgetError struct {
	Budget string // "MaxWork"
	Limit  int64
	Value  int64  // the work spent when it stopped
	What   string // where the simulation stopped
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("particles: %s: %d work units spent, more than the %s budget of %d", e.What, e.Value, e.Budget, e.Limit)
}

func (o *Options) maxParticles() int   { return orDefault(o.MaxParticles, DefaultMaxParticles) }
func (o *Options) maxRibbonEdges() int { return orDefault(o.MaxRibbonEdges, DefaultMaxRibbonEdges) }
func (o *Options) maxSpawnedVertices() int {
	return orDefault(o.MaxSpawnedVertices, DefaultMaxSpawnedVertices)
}

func (o *Options) maxWork() int64 {
	if o.MaxWork <= 0 {
		return DefaultMaxWork
	}
	return o.MaxWork
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// liveCounts are the model-wide live counts the budgets cap, taken at the
// start of each update and raised by each emission during it (deaths count
// from the next update on, which keeps the caps conservative and the
// result the same whatever the emitters' order).
type liveCounts struct {
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
func (s *Sim) capped(w budgetWarning, format string, args ...any) {
	if s.warned&w != 0 {
		return
	}
	s.warned |= w
	s.warnf(format+"; emission was held back there, so the picture shows fewer than the model asks for", args...)
}

// particleRoom reports whether one more PRE2 particle or spawned model may
// be born.
func (s *Sim) particleRoom() bool {
	if m := s.opt.maxParticles(); len(s.p2.list)+s.live.spawned >= m {
		s.capped(warnParticles, "particle budget reached: %d live particles and spawned models (Options.MaxParticles)", m)
		return false
	}
	return true
}

// edgeRoom returns how many of k ribbon edges may be born.
func (s *Sim) edgeRoom(k int) int {
	m := s.opt.maxRibbonEdges()
	if room := max(m-s.live.edges, 0); room < k {
		s.capped(warnEdges, "ribbon budget reached: %d live ribbon edges (Options.MaxRibbonEdges)", m)
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
	if m := s.opt.maxSpawnedVertices(); s.live.spawnedVertex+n > m {
		s.capped(warnSpawned, "spawned-model budget reached: %d vertices of live spawned models (Options.MaxSpawnedVertices)", m)
		return false
	}
	return true
}

// charge adds n work units, recording a *BudgetError (which stops the
// simulation) when they pass Options.MaxWork.
func (s *Sim) charge(n int64) {
	s.work += n
	if m := s.opt.maxWork(); s.work > m && s.err == nil {
		s.err = &BudgetError{Budget: "MaxWork", Limit: m, Value: s.work,
			What: fmt.Sprintf("stopped after %d steps (pre-roll included) of %d emitters, with %d live particles, %d ribbon edges and %d spawned models",
				s.updates, len(s.emitters), len(s.p2.list), s.live.edges, s.live.spawned)}
	}
}

// Work returns the simulation work since Start, in the units of
// Options.MaxWork: one per live particle, ribbon edge or spawned model
// aged by a step, and more for a node posed, an emitter stepped and an
// emission (about one unit per 10-20 ns on a current CPU).
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
