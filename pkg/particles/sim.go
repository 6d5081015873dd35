package particles

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// Kind says what produced a Mesh and so which of its fields choose the
// blend state.
type Kind uint8

const (
	// KindParticle2 meshes come from a PRE2 emitter: Filter and TextureID
	// (or ReplaceableID) choose the blend and texture.
	KindParticle2 Kind = iota
	// KindRibbon meshes come from a RIBB emitter: the first layer of
	// Material chooses the blend, texture and depth flags.
	KindRibbon
	// KindModel meshes are geometry of a model spawned by a PREM emitter,
	// drawn with that model's own Material.
	KindModel
	// KindWoW meshes come from a World of Warcraft (M2) particle or ribbon
	// emitter and are drawn like a layer: Filter is an mdx.FilterMode,
	// LayerFlags the layer's shading flags, TextureID the texture.
	KindWoW
)

// Vertex is one corner of a particle quad or ribbon segment, in world space.
type Vertex struct {
	Pos   [3]float32
	UV    [2]float32
	Color [4]float32 // straight RGBA multiplier, 0..1
}

// Mesh is the geometry one emitter contributes to a frame. Meshes are
// returned in the emitters' draw-item order (see Sim.Meshes), and render
// joins them to the translucent pass by PriorityPlane.
type Mesh struct {
	Kind Kind
	// Node is the emitter's index in Model.Nodes().
	Node int
	// Filter is the PRE2 filter mode, as numbered in the record; for
	// KindWoW an mdx.FilterMode.
	Filter uint32
	// LayerFlags are the mdx.Layer shading flags of a KindWoW mesh.
	LayerFlags uint32
	// TextureID indexes Model.Textures; -1 for none.
	TextureID int
	// ReplaceableID is the PRE2 replaceable id (1 team colour, 2 team glow,
	// >2 a ReplaceableTextures table entry); 0 for none.
	ReplaceableID uint32
	// Material indexes Model.Materials for ribbons, and the spawned
	// model's Materials for KindModel meshes.
	Material int
	// Source is the spawned model a KindModel mesh's Material and
	// texture ids index, SourcePath its file (textures resolve relative to
	// its folder); nil and "" for other kinds.
	Source     *mdx.Model
	SourcePath string
	// Normals are world-space vertex normals of a KindModel mesh, for lit
	// layers; nil (other kinds, or unlit) draws every layer unlit.
	Normals       [][3]float32
	PriorityPlane int
	Unshaded      bool
	Vertices      []Vertex
	// Indices lists triangles, three indices each, into Vertices.
	Indices []uint32
}

// emitter is one simulated emitter of any kind. The Sim calls step once per
// fixed step, in the order of the emitters' nodes in the node hierarchy
// (parents first, as the reference viewer updates them), after the pose has
// been updated to the new frame; appendMeshes is called only when a frame
// is drawn.
type emitter interface {
	// nodeIdx returns the emitter's index in Model.Nodes(); the Sim orders
	// the step calls (and with them the random draws) by it.
	nodeIdx() int
	// step advances the emitter by dt seconds: emission, then every live
	// particle/edge. spawn reports whether emission is allowed at this time
	// (a sequence is playing and has not ended). dt may be 0: the reference
	// viewer's final update before drawing (squirt emitters fire then).
	step(s *Sim, p *pose.Pose, dt float64, spawn bool)
	// appendMeshes appends this emitter's geometry for the camera view,
	// spending what it costs (budget.go).
	appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh
	// stepPrice is what one step costs besides the live particles and
	// emissions: the tracks sampled every step (budget.go).
	stepPrice() int64
	// reset drops every live particle and the emission accumulator.
	reset()
}

// emitterNode is what every kind of emitter keeps for the Sim: the node
// it hangs on and the price of the tracks a step samples (budget.go).
// Embedding it gives the kinds nodeIdx and stepPrice.
type emitterNode struct {
	idx   int // index in Model.Nodes() and pose.World
	steps int64
}

func (n *emitterNode) nodeIdx() int { return n.idx }

func (n *emitterNode) stepPrice() int64 { return n.steps }

// Camera is what particle geometry needs from the camera: billboarded
// quads face it, tails are widened across its view direction. Vectors are
// world-space unit vectors; Forward points from the eye towards the target.
type Camera struct {
	Right, Up, Forward fauxgl.Vector
}

// Sim simulates every emitter of one model instance with the reference
// viewer's update loop: the frame advances by a fixed step, nodes are
// posed at the new frame, emitters emit in hierarchy order, then every
// live particle ages and moves.
type Sim struct {
	m   *mdx.Model
	opt Options

	// p is the Sim's own pose, of a copy of the model without geosets, so a
	// step poses nodes only; it always holds the Sim's current Clock.
	p    *pose.Pose
	view pose.View

	// emitters lists every emitter in step (hierarchy) order; pre2,
	// ribbons, prem, wow and wowRibbons each kind in model order, for
	// drawing.
	emitters            []emitter
	pre2, ribbons, prem []emitter
	wow, wowRibbons     []emitter
	rng                 RNG
	p2                  updater // live PRE2 particles in the viewer's update order

	warns []string

	// Budgets (budget.go): the meter and its live-count caps, the live
	// counts at the start of the update, the warnings given, the work
	// spent but not yet charged (sixteenths of a unit), the meter's work
	// left at the last settle (likewise), the units charged since New,
	// and the error that stopped the simulation (sticky until Start).
	meter   *budget.Meter
	caps    caps
	live    liveCounts
	warned  budgetWarning
	pending int64
	left    int64
	work    int64
	err     error
	// stepPrice is a step's price before live particles and emissions:
	// posing the nodes and stepping the emitters.
	stepPrice int64
	// gen counts the states the Sim has been in (each update, Start, a
	// new view): PREM emitters keep their spawned models' geometry for
	// one state; reserved is the state whose geometry is paid for.
	gen, reserved uint64

	seq        int
	frame      float64 // the viewer's instance.frame
	counter    float64 // the global-sequence counter in ms
	allowSpawn bool    // instance.allowParticleSpawn
	steps      int     // fixed steps since the sequence start (after pre-roll)
	updates    int     // every update since New, pre-roll and dt = 0 ones included
	started    bool
}

// Model returns the model the Sim simulates.
func (s *Sim) Model() *mdx.Model { return s.m }

// New builds the emitters of m: PRE2 (this package), ribbons and PREM
// (newRibbonEmitters, newPREMEmitters), and the WoW particle and ribbon
// emitters of an M2 (newWoWEmitters, newWoWRibbons). The Sim starts with
// no sequence; call Start.
func New(m *mdx.Model, opt Options) (*Sim, error) {
	if opt.StepMs == 0 {
		opt.StepMs = DefaultStepMs
	}
	if !(opt.StepMs > 0) || math.IsInf(opt.StepMs, 0) {
		return nil, fmt.Errorf("particles: step %v ms is not a positive number", opt.StepMs)
	}
	if math.IsNaN(opt.PrerollMs) || math.IsInf(opt.PrerollMs, 0) {
		return nil, fmt.Errorf("particles: pre-roll %v ms is not a number", opt.PrerollMs)
	}
	if opt.PrerollMs > MaxPrerollMs {
		return nil, fmt.Errorf("particles: pre-roll %v ms is longer than %v ms", opt.PrerollMs, float64(MaxPrerollMs))
	}
	if n := math.Ceil(opt.PrerollMs/opt.StepMs - 1e-6); n > MaxSteps {
		return nil, fmt.Errorf("particles: a pre-roll of %v ms at a %v ms step is %.0f steps, more than %d", opt.PrerollMs, opt.StepMs, n, MaxSteps)
	}
	// Nodes only: the copy shares every slice with m (so node pointers
	// are m's), but the Sim's pose skins no geoset at each step.
	nodesOnly := *m
	nodesOnly.Geosets = nil
	p, err := pose.New(&nodesOnly)
	if err != nil {
		return nil, fmt.Errorf("particles: %w", err)
	}
	s := &Sim{m: m, opt: opt, p: p, seq: -1, meter: opt.Budget}
	if s.meter == nil {
		s.meter = budget.NewMeter(budget.Limits{})
	}
	s.caps = capsOf(s.meter.Limits())
	s.pre2 = newPRE2Emitters(s)
	s.ribbons = newRibbonEmitters(s)
	s.prem = newPREMEmitters(s)
	s.wow = newWoWEmitters(s)
	s.wowRibbons = newWoWRibbons(s)
	for _, l := range [][]emitter{s.pre2, s.ribbons, s.prem, s.wow, s.wowRibbons} {
		s.emitters = append(s.emitters, l...)
	}
	s.sortEmitters()
	s.stepPrice = posePrice(&nodesOnly)
	for _, e := range s.emitters {
		s.stepPrice += priceEmitter + e.stepPrice()
	}
	s.rng.Reset(opt.Seed)
	return s, nil
}

// sortEmitters orders the emitters by their node's position in the node
// hierarchy walk (parents first, siblings in file order, a node with a
// missing parent as a root, as pkg/pose orders them), which is the order
// the reference viewer updates emitters in and so draws random numbers.
func (s *Sim) sortEmitters() {
	nodes := s.m.Nodes()
	n := len(nodes)
	children := make([][]int, n+1)
	for i, nd := range nodes {
		pid := int(nd.ParentID)
		if pid < 0 || pid >= n || pid == i || nd.ParentID == nd.ObjectID {
			pid = -1
		}
		children[pid+1] = append(children[pid+1], i)
	}
	rank := make([]int, n)
	for i := range rank {
		rank[i] = n // unreachable (cycle): last; pose.New rejects cycles anyway
	}
	next := 0
	// Pre-order walk: a node, then its children in file order.
	var walk func(pid int)
	walk = func(pid int) {
		for _, c := range children[pid+1] {
			if rank[c] != n {
				continue
			}
			rank[c] = next
			next++
			walk(c)
		}
	}
	walk(-1)
	es := s.emitters
	key := func(e emitter) int {
		if i := e.nodeIdx(); i >= 0 && i < n {
			return rank[i]
		}
		return n
	}
	slices.SortStableFunc(es, func(a, b emitter) int { return key(a) - key(b) })
}

// warnf records something the simulation goes on without (an emitter
// skipped, a missing spawned model).
func (s *Sim) warnf(format string, args ...any) {
	s.warns = append(s.warns, fmt.Sprintf(format, args...))
}

// Warnings returns what New skipped or could not resolve.
func (s *Sim) Warnings() []string { return s.warns }

// Empty reports whether the model has no emitter this package simulates.
func (s *Sim) Empty() bool { return len(s.emitters) == 0 }

// Options returns the options the Sim was built with (StepMs filled in).
func (s *Sim) Options() Options { return s.opt }

// Clock returns the clock the Sim's state belongs to: the viewer's frame
// (which trails start + time by the dropped overshoot of each loop) and
// the global-sequence counter. Render the model's geometry at this clock
// so geometry and particles agree.
func (s *Sim) Clock() pose.Clock {
	return pose.Clock{Sequence: s.seq, Frame: s.frame, Global: s.counter}
}

// Pose returns the Sim's own pose (nodes only, no skinned geosets) at
// Clock.
func (s *Sim) Pose() *pose.Pose { return s.p }

// Steps returns how many fixed steps have run since the sequence start
// (pre-roll not counted).
func (s *Sim) Steps() int { return s.steps }

// Updates returns how many viewer updates the Sim has run since New (fixed
// steps including pre-roll and restarts, and the dt = 0 update of each
// AdvanceTo): the cost of the simulation.
func (s *Sim) Updates() int { return s.updates }

// Live returns the number of live PRE2 and WoW particles.
func (s *Sim) Live() int {
	n := len(s.p2.list)
	for _, e := range s.wow {
		n += len(e.(*wowEmitter).parts)
	}
	return n
}

// Draws returns how many random numbers the simulation has drawn since
// Start.
func (s *Sim) Draws() int { return s.rng.Draws() }

// Random returns the next number of the seeded generator, in [0, 1).
// Emitters draw through it (or RandomInRange) in the viewer's order.
func (s *Sim) Random() float64 { return s.rng.Float64() }

// RandomInRange returns a + r·(b−a) for the next random r, the viewer's
// randomInRange.
func (s *Sim) RandomInRange(a, b float64) float64 { return a + s.rng.Float64()*(b-a) }

// SpawnAllowed reports the viewer's allowParticleSpawn: a sequence is
// playing and, if it does not loop, has not ended.
func (s *Sim) SpawnAllowed() bool { return s.allowSpawn }

// Start resets every emitter and the random generator (to Options.Seed),
// sets the frame to the start of sequence seq (−1 or out of range: no
// sequence, nothing is ever emitted) and runs the pre-roll. view is the
// camera rotation billboarded emitter nodes follow. A pre-roll the work
// budget does not allow stops there; the next AdvanceTo returns the
// error.
func (s *Sim) Start(seq int, view pose.View) {
	_ = s.StartContext(context.Background(), seq, view)
}

// StartContext is Start, checking ctx between steps of the pre-roll: when
// ctx is done it returns ctx's error (wrapped) and the next AdvanceTo
// starts over. It also returns the *budget.Error of a pre-roll the work
// budget does not allow.
func (s *Sim) StartContext(ctx context.Context, seq int, view pose.View) error {
	for _, e := range s.emitters {
		e.reset()
	}
	s.p2.list = s.p2.list[:0]
	s.rng.Reset(s.opt.Seed)
	s.view = view
	s.counter = 0
	s.allowSpawn = false
	s.steps = 0
	s.err = nil
	s.gen++
	s.started = true
	if err := s.settle(s.stepWhere); err != nil {
		return err
	}
	s.setSequence(seq)
	if pre := s.PrerollMs(); pre > 0 {
		n := int(math.Min(math.Ceil(pre/s.opt.StepMs-1e-6), MaxSteps)) // the harness's step count
		for i := 0; i < n; i++ {
			if err := s.interrupted(ctx); err != nil {
				s.started = s.err != nil // a budget error stays until Start
				return err
			}
			s.update(s.opt.StepMs)
			if err := s.settle(s.stepWhere); err != nil {
				return err // it stays until Start
			}
		}
		// The harness's pre-roll ends with setSequence(seq): the frame
		// jumps back to the start; live particles and the counter stay.
		s.setSequence(seq)
	}
	s.p.Update(s.Clock(), s.view)
	return nil
}

func (s *Sim) setSequence(seq int) {
	if seq < 0 || seq >= len(s.m.Sequences) {
		s.seq, s.frame, s.allowSpawn = -1, 0, false
		return
	}
	s.seq = seq
	s.frame = float64(s.m.Sequences[seq].Interval[0])
}

// PrerollMs returns the pre-roll Start runs for the current sequence:
// Options.PrerollMs when ≥ 0; when negative (automatic), the longest
// emitter lifetime for a looping sequence and 0 otherwise.
func (s *Sim) PrerollMs() float64 {
	if s.opt.PrerollMs >= 0 {
		return s.opt.PrerollMs
	}
	if s.seq < 0 || s.m.Sequences[s.seq].NonLooping() {
		return 0
	}
	return math.Min(s.longestLifeMs(), MaxPrerollMs)
}

func (s *Sim) longestLifeMs() float64 {
	life := 0.0
	for i := range s.m.ParticleEmitters2 {
		life = math.Max(life, float64(s.m.ParticleEmitters2[i].LifeSpan))
	}
	for i := range s.m.RibbonEmitters {
		life = math.Max(life, float64(s.m.RibbonEmitters[i].LifeSpan))
	}
	for i := range s.m.ParticleEmitters {
		life = math.Max(life, float64(s.m.ParticleEmitters[i].LifeSpan))
	}
	for _, e := range s.wow {
		life = math.Max(life, e.(*wowEmitter).longestLife())
	}
	for _, e := range s.wowRibbons {
		life = math.Max(life, e.(*wowRibbon).life)
	}
	if math.IsNaN(life) {
		return 0
	}
	// Lifespans are float32 seconds: 1.2 is 1.2000000477, which would
	// round the step count up by one; whole microseconds are plenty.
	return math.Round(life*1e6) / 1e3
}

// AdvanceTo steps the simulation to ms after the sequence start: the
// harness's n = ceil(ms/step − 1e-6) fixed steps in all, then the viewer's
// dt = 0 update that precedes drawing, and pays for the frame's spawned
// models, which Meshes poses. Successive calls with increasing ms
// continue one simulation (sprite sheets); a smaller ms than already
// reached restarts it from the sequence start. A time that needs more
// than MaxSteps steps is an error and changes nothing; a simulation the
// work budget does not allow stops with the meter's *budget.Error, which
// every AdvanceTo returns until Start.
func (s *Sim) AdvanceTo(ms float64) error {
	return s.AdvanceToContext(context.Background(), ms)
}

// AdvanceToContext is AdvanceTo, checking ctx before every step: when ctx
// is done it returns ctx's error (wrapped; errors.Is finds it) with the
// simulation where it stopped, and a later call goes on from there.
func (s *Sim) AdvanceToContext(ctx context.Context, ms float64) error {
	if math.IsNaN(ms) || ms < 0 {
		ms = 0
	}
	nf := math.Ceil(ms/s.opt.StepMs - 1e-6)
	if nf > MaxSteps {
		return fmt.Errorf("particles: %v ms at a %v ms step is %.0f steps, more than %d", ms, s.opt.StepMs, nf, MaxSteps)
	}
	if s.err != nil {
		return s.err
	}
	// Other simulations may have charged the meter since.
	if err := s.settle(s.stepWhere); err != nil {
		return err
	}
	n := max(int(nf), 0)
	if !s.started || n < s.steps {
		if err := s.StartContext(ctx, s.seq, s.view); err != nil {
			return err
		}
	}
	for s.steps < n {
		if err := s.interrupted(ctx); err != nil {
			return err
		}
		s.update(s.opt.StepMs)
		s.steps++
		if err := s.settle(s.stepWhere); err != nil {
			return err
		}
	}
	s.update(0)
	if err := s.settle(s.stepWhere); err != nil {
		return err
	}
	return s.reserveFrame()
}

// reserveFrame pays for the spawned models of the current state, which
// the next Meshes poses and skins once (they do not depend on the
// camera), so that a frame the budget does not allow is an error here
// rather than a picture without them.
func (s *Sim) reserveFrame() error {
	n := 0
	for _, e := range s.prem {
		p := e.(*premEmitter)
		s.spend(p.geometryPrice())
		n += len(p.parts)
	}
	s.reserved = s.gen
	return s.settle(func() string {
		return fmt.Sprintf("particle simulation stopped before posing the %d spawned models of the frame after %d steps (pre-roll included)", n, s.updates)
	})
}

// SetView changes the camera rotation billboarded emitter nodes follow
// from the next step on (and that spawned models face from the next
// Meshes on).
func (s *Sim) SetView(v pose.View) {
	if v != s.view {
		s.view = v
		s.gen++
	}
}

// update is one viewer.update(stepMs): updateAnimations, nodes and
// emitters, then the emitted-object updater.
func (s *Sim) update(stepMs float64) {
	s.updates++
	s.gen++
	s.recount()
	s.spend(s.stepPrice + pricePRE2*int64(len(s.p2.list)) + priceEdge*int64(s.live.edges) + pricePREM*int64(s.live.spawned) +
		priceWoW*int64(s.live.wow))
	if s.over() {
		return // past the budget: the settle that follows stops the simulation
	}
	dt := stepMs * 0.001 // the viewer hands seconds to the scene
	if s.seq >= 0 {
		sq := &s.m.Sequences[s.seq]
		frameTime := dt * 1000
		s.frame += frameTime
		s.counter += frameTime
		s.allowSpawn = true
		if end := float64(sq.Interval[1]); s.frame >= end {
			if !sq.NonLooping() {
				s.frame = float64(sq.Interval[0]) // the overshoot is dropped
			} else {
				s.frame = end
				s.counter -= frameTime
				s.allowSpawn = false
			}
		}
	}
	s.p.Update(s.Clock(), s.view)
	for _, e := range s.emitters {
		e.step(s, s.p, dt, s.allowSpawn)
	}
	s.p2.update(dt)
}

// Meshes returns the geometry of every live particle for a camera, one
// Mesh per emitter that has something to draw: PRE2 emitters, then
// ribbons, each in model order (the reference viewer's emitter list before
// its stable sort by priority plane), then PREM model particles, then WoW
// particle emitters and WoW ribbons (one Mesh per ribbon layer). The
// meshes of spawned models are shared by the calls between two steps: the
// caller must not change them. Its work is charged after it is done (one
// frame's geometry is bounded by the live-count caps, apart from the
// spawned models, which AdvanceTo pays for before): when it passes the
// budget, the next AdvanceTo returns the error. After the simulation
// stopped on an error, Meshes returns nil.
func (s *Sim) Meshes(cam Camera) []Mesh {
	if s.err != nil {
		return nil
	}
	var out []Mesh
	s.spend(priceMeshEmitter * int64(len(s.emitters)))
	for _, list := range [][]emitter{s.pre2, s.ribbons, s.prem, s.wow, s.wowRibbons} {
		for _, e := range list {
			out = e.appendMeshes(s, s.p, cam, out)
		}
	}
	_ = s.settle(func() string {
		return fmt.Sprintf("particle geometry of a frame after %d steps (pre-roll included): %d live particles, %d ribbon edges and %d spawned models",
			s.updates, len(s.p2.list)+s.live.wow, s.live.edges, s.live.spawned)
	})
	return out
}
