package particles

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// maxPREMParticles bounds one PREM emitter's live spawned models. Each is
// a whole model instance to pose and draw; the viewer has no bound, a
// hostile rate or lifespan must not make one.
const maxPREMParticles = 256

// spawnedNodeVertices is what a node of a spawned model counts against
// the SpawnedVertices limit.
const spawnedNodeVertices = 32

// Finder finds and reads a file a model refers to, as pkg/render does
// with its texture resolver (the model's own folder, then the search
// roots), charging what it reads to the model's budget. It returns the
// contents; a name for the file, which becomes Mesh.SourcePath; the
// candidates tried in order (for warnings); and an error wrapping
// fs.ErrNotExist when nothing matched. particles does not import
// pkg/texture; render passes a Finder in.
type Finder interface {
	ReadFile(path string) (data []byte, name string, tried []string, err error)
}

// ModelLoader returns the model a PREM emitter's Path names and the name
// of the file it came from ("" when it is not a file), which becomes
// Mesh.SourcePath.
type ModelLoader func(path string) (*mdx.Model, string, error)

// FileModelLoader returns a ModelLoader that finds a spawned model with f
// and loads it (model.Load: any format, by content) within l's geometry
// limits. The path
// is tried as written, then with .mdl and .mdx swapped: the viewer asks
// for the .mdx of a .mdl path, and a folder of converted models may hold
// either.
func FileModelLoader(f Finder, l budget.Limits) ModelLoader {
	return func(path string) (*mdx.Model, string, error) {
		var tried []string
		for _, cand := range spawnPathVariants(path) {
			b, name, t, err := f.ReadFile(cand)
			tried = append(tried, t...)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, "", err
			}
			mf, err := model.Load(b, name, l)
			if err != nil {
				return nil, name, err
			}
			return mf.Model, name, nil
		}
		if len(tried) == 0 {
			return nil, "", fmt.Errorf("not found: %w", fs.ErrNotExist)
		}
		return nil, "", fmt.Errorf("not found (looked for %s): %w", strings.Join(tried, ", "), fs.ErrNotExist)
	}
}

// spawnPathVariants lists the names to look a spawned model up by.
func spawnPathVariants(p string) []string {
	ext := strings.ToLower(filepath.Ext(strings.ReplaceAll(p, `\`, "/")))
	stem := p[:len(p)-len(ext)]
	switch ext {
	case ".mdl":
		return []string{p, stem + ".mdx"}
	case ".mdx":
		return []string{p, stem + ".mdl"}
	case "":
		return []string{p + ".mdx", p + ".mdl"}
	}
	return []string{p}
}

// LoadSpawnedModels resolves the model of every PREM emitter with load
// (each distinct path once) so that those emitters emit; call it after
// New and before Start. An emitter whose model does not resolve, or that
// spawns a texture rather than a model, emits nothing and adds a warning,
// as the viewer's emitter stays "not ok" when its model fails to load.
func (s *Sim) LoadSpawnedModels(load ModelLoader) {
	// One pose per model: every emitter that spawns it poses its
	// instances one at a time (Meshes), so they can share it.
	type result struct {
		m     *mdx.Model
		file  string
		err   error
		pose  *pose.Pose
		price int64
	}
	cache := map[string]result{}
	for _, em := range s.prem {
		e := em.(*premEmitter)
		e.tried = true
		path := e.e.Path
		// The viewer ignores the EmitterUsesMDL/EmitterUsesTGA flags and
		// loads any path as a model; a texture path is what we cannot draw.
		if isTexturePath(path) {
			s.warnf("particle emitter %q spawns texture %q: texture particles of the old emitter are not drawn", e.e.Name, path)
			continue
		}
		if strings.TrimSpace(path) == "" {
			s.warnf("particle emitter %q has no model path: skipped", e.e.Name)
			continue
		}
		r, ok := cache[path]
		if !ok {
			r.m, r.file, r.err = load(path)
			if r.err == nil && r.m == nil {
				r.err = errors.New("loader returned no model")
			}
			if r.err == nil {
				r.pose, r.err = pose.New(r.m)
				r.price = spawnedPrice(r.m)
			}
			cache[path] = r
		}
		if r.err != nil {
			s.warnf("particle emitter %q: spawned model %q: %v; emitter skipped", e.e.Name, path, r.err)
			continue
		}
		e.setModel(r.m, r.file, r.pose, r.price)
	}
}

func isTexturePath(p string) bool {
	switch strings.ToLower(filepath.Ext(strings.ReplaceAll(p, `\`, "/"))) {
	case ".blp", ".tga", ".dds", ".png", ".jpg":
		return true
	}
	return false
}

// premEmitter simulates one PREM (ParticleEmitter) record as
// mdx-m3-viewer 5.12.0 does (docs/particles.md#prem-model-emitters): each
// emission spawns an instance of the emitter's model that plays its
// sequence 0 from birth, moving from the emitter with its own velocity.
//
// Not reproduced: the spawned model's own emitters (the viewer runs them;
// their particles are not simulated here), frustum culling of spawned
// instances (the viewer freezes a culled instance's animation), and the
// spawned instance's global-sequence counter across pool reuse (here it
// starts at 0 at each birth). Hostile input: at most maxPREMParticles live
// instances per emitter; particles at non-finite positions are not drawn.
type premEmitter struct {
	m *mdx.Model
	e *mdx.ParticleEmitter
	emitterNode
	tried bool

	spawned     *mdx.Model
	spawnedPath string
	sp          *pose.Pose // the spawned model's pose, updated per particle at draw time
	// size is what one instance counts against the SpawnedVertices limit:
	// the model's vertices and spawnedNodeVertices per node.
	size int
	// price is what one instance's geometry costs in a frame and emits
	// one emission (budget.go).
	price, emits int64
	// The static fields the viewer reads as doubles (viewerFloat).
	rate, life, gravity, speed, latitude float64

	acc     float64
	parts   []premParticle
	emitted int

	// geom holds the meshes of every live instance for the Sim's state
	// gen: those of parts[i] are geom[at[i]:at[i+1]].
	geom []Mesh
	at   []int
	gen  uint64
}

// premParticle is one spawned model instance.
type premParticle struct {
	loc     [3]float32 // instance location (a Float32Array in the viewer)
	rotZ    float64    // instance rotation about world Z, radians
	scale   [3]float32 // the emitter node's world scale at spawn
	vel     [3]float32
	gravity float64
	health  float64
	born    int // emission number, for draw-order ties
	// The spawned instance's own animation clock (its updateAnimations).
	seq            int
	frame, counter float64
}

func newPREMEmitters(s *Sim) []emitter {
	m := s.m
	if len(m.ParticleEmitters) == 0 {
		return nil
	}
	// Model.Nodes() order.
	base := len(m.Bones) + len(m.Lights) + len(m.Helpers) + len(m.Attachments)
	out := make([]emitter, 0, len(m.ParticleEmitters))
	for k := range m.ParticleEmitters {
		e := &m.ParticleEmitters[k]
		p := &premEmitter{m: m, e: e, emitterNode: emitterNode{idx: base + k}}
		p.rate, p.life, p.gravity = viewerFloat(m, e.EmissionRate), viewerFloat(m, e.LifeSpan), viewerFloat(m, e.Gravity)
		p.speed, p.latitude = viewerFloat(m, e.Speed), viewerFloat(m, e.Latitude)
		p.steps = trackPrice(e.Visibility) + trackPrice(e.EmissionRateTrack)
		p.emits = priceEmitPREM + trackPrice(e.LifeSpanTrack) + trackPrice(e.GravityTrack) + trackPrice(e.SpeedTrack)
		out = append(out, p)
	}
	return out
}

// setModel makes the emitter spawn sm (read from file), posed with p
// and costing price a frame.
func (e *premEmitter) setModel(sm *mdx.Model, file string, p *pose.Pose, price int64) {
	e.spawned, e.spawnedPath, e.sp, e.price = sm, file, p, price
	e.size = spawnedNodeVertices * len(sm.Nodes())
	for i := range sm.Geosets {
		e.size += len(sm.Geosets[i].Vertices)
	}
}

// geometryPrice is what posing and meshing the live instances costs.
func (e *premEmitter) geometryPrice() int64 {
	if e.spawned == nil {
		return 0
	}
	return e.price * int64(len(e.parts))
}

func (e *premEmitter) reset() {
	e.acc = 0
	e.parts = e.parts[:0]
	e.geom, e.at = nil, nil
}

func (e *premEmitter) step(s *Sim, p *pose.Pose, dt float64, spawn bool) {
	if e.spawned == nil && !e.tried {
		e.tried = true
		s.warnf("particle emitter %q: no model loader given (Sim.LoadSpawnedModels); model %q not spawned", e.e.Name, e.e.Path)
	}
	c := p.Clock()
	// The viewer updates the emitter only while KPEV > 0 and only once
	// its model has loaded (emitterObject.ok).
	if e.spawned != nil && e.idx >= 0 && pose.Float(e.m, e.e.Visibility, c, 1, 1, true) > 0 {
		if spawn {
			// KPEE or the static rate; PREM rates are not doubled.
			e.acc += viewerScalar(e.m, e.e.EmissionRateTrack, c, e.rate, 0) * dt
		}
		if e.acc >= 1 {
			n := math.Ceil(e.acc)
			e.acc = subtractOnes(e.acc, n)
			// Once one is refused so are the rest: the live counts only
			// grow within a step.
			for i := 0; i < int(min(n, maxPREMParticles)) && e.emit(s, p); i++ {
			}
		}
	}
	e.update(dt)
}

// emit spawns one instance (Particle.bind) and reports whether it did.
// Random draws, in order: the direction's turn about Z in [−π, π], its
// tilt about Y in [−lat, lat], the instance's own turn about Z in [0, 2π].
func (e *premEmitter) emit(s *Sim, p *pose.Pose) bool {
	if len(e.parts) >= maxPREMParticles || !s.spawnRoom(e.size) || s.over() {
		return false // deviation: the viewer has no bound (no random draws either)
	}
	s.spend(e.emits)
	s.live.spawned++
	s.live.spawnedVertex += e.size
	e.emitted++
	c := p.Clock()
	// The viewer looks the latitude track up as 'KPLTV', a name no track
	// has, so KPLT never animates it. Latitude is used as radians.
	lat := e.latitude
	life := viewerScalar(e.m, e.e.LifeSpanTrack, c, e.life, 0)
	grav := viewerScalar(e.m, e.e.GravityTrack, c, e.gravity, 0)
	speed := viewerScalar(e.m, e.e.SpeedTrack, c, e.speed, 0)
	w := p.World(e.idx)
	rot, scl := pose.RotationOf(w), columnLengths(w)
	loc := p.WorldLocation(e.idx)

	a := s.RandomInRange(-math.Pi, math.Pi)
	b := s.RandomInRange(-lat, lat)
	// (Rz(a)·Ry(b))·ẑ, then the node's world rotation, speed and scale.
	d := rot.Apply(fauxgl.Vector{X: math.Sin(b) * math.Cos(a), Y: math.Sin(b) * math.Sin(a), Z: math.Cos(b)})
	v := [3]float64{d.X, d.Y, d.Z}
	for k := range v {
		v[k] = float64(float32(v[k]*speed)) * scl[k]
	}
	turn := s.RandomInRange(0, 2*math.Pi)

	pt := premParticle{
		loc:     [3]float32{float32(loc.X), float32(loc.Y), float32(loc.Z)},
		rotZ:    turn,
		scale:   [3]float32{float32(scl[0]), float32(scl[1]), float32(scl[2])},
		vel:     [3]float32{float32(v[0]), float32(v[1]), float32(v[2])},
		gravity: grav * scl[2],
		health:  life,
		born:    e.emitted,
		seq:     -1,
	}
	// setSequence(0): the spawned model plays its first sequence.
	if len(e.spawned.Sequences) > 0 {
		pt.seq = 0
		pt.frame = float64(e.spawned.Sequences[0].Interval[0])
	}
	e.parts = append(e.parts, pt)
	return true
}

// update advances every spawned instance: its animation first (the scene
// updates instances before the emitted-object updater; a new instance is
// updated in the step it is born), then Particle.update: age, gravity on
// the velocity, move; at health ≤ 0 the instance hides.
func (e *premEmitter) update(dt float64) {
	n := 0
	for i := range e.parts {
		pt := &e.parts[i]
		if pt.seq >= 0 {
			sq := &e.spawned.Sequences[pt.seq]
			ft := dt * 1000
			pt.frame += ft
			pt.counter += ft
			if end := float64(sq.Interval[1]); pt.frame >= end {
				if sq.NonLooping() {
					pt.frame = end
					pt.counter -= ft
				} else {
					pt.frame = float64(sq.Interval[0]) // overshoot dropped, as for the main instance
				}
			}
		}
		pt.health -= dt
		if !(pt.health > 0) {
			continue
		}
		pt.vel[2] = float32(float64(pt.vel[2]) - pt.gravity*dt)
		for k := 0; k < 3; k++ {
			pt.loc[k] = float32(float64(pt.loc[k]) + float64(float32(float64(pt.vel[k])*dt)))
		}
		if n != i {
			e.parts[n] = *pt
		}
		n++
	}
	e.parts = e.parts[:n]
}

// appendMeshes appends the meshes of every live instance (geometry),
// back to front for cam.
func (e *premEmitter) appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh {
	if e.spawned == nil || len(e.parts) == 0 {
		return out
	}
	if e.gen != s.gen || len(e.at) != len(e.parts)+1 {
		if s.reserved != s.gen {
			s.spend(e.geometryPrice())
		}
		e.geometry(s)
		e.gen = s.gen
	}
	s.spend(priceDrawSpawned * int64(len(e.parts)))
	for _, i := range e.drawOrder(cam) {
		out = append(out, e.geom[e.at[i]:e.at[i+1]]...)
	}
	return out
}

// geometry poses the spawned model of every live particle at its own
// clock and keeps one KindModel mesh per visible geoset, in world space.
// None of it depends on the camera, so the Meshes calls of one state
// (framing and drawing a frame) pose each instance once.
func (e *premEmitter) geometry(s *Sim) {
	sm := e.spawned
	view := s.view.Rotation
	if view == (pose.Rotation{}) {
		view = pose.Rotation{0, 0, 0, 1}
	}
	e.geom, e.at = e.geom[:0], append(e.at[:0], 0)
	for i := range e.parts {
		pt := &e.parts[i]
		r := pose.Rotation{0, 0, math.Sin(pt.rotZ / 2), math.Cos(pt.rotZ / 2)}
		// Billboarded nodes of the spawned model must face the camera in
		// world space after the instance's turn: pose them for the view
		// rotation composed with that turn.
		e.sp.Update(pose.Clock{Sequence: pt.seq, Frame: pt.frame, Global: pt.counter}, pose.View{Rotation: view.Mul(r)})
		for gi := range sm.Geosets {
			if ms, ok := e.geosetMesh(pt, r, gi); ok {
				e.geom = append(e.geom, ms)
			}
		}
		e.at = append(e.at, len(e.geom))
	}
}

// drawOrder lists the live particles back to front. The viewer draws
// each spawned model as an instance of its own: instances are sorted by
// the depth of their location (a stable sort, ties in the order they were
// registered, i.e. birth order) and their translucent layers drawn in
// reverse, farthest first, so of two models born at the same place in one
// step the first-born ends on top.
func (e *premEmitter) drawOrder(cam Camera) []int {
	order := make([]int, len(e.parts))
	depth := make([]float64, len(e.parts))
	f := cam.Forward
	for i := range e.parts {
		order[i] = i
		l := e.parts[i].loc
		depth[i] = float64(l[0])*f.X + float64(l[1])*f.Y + float64(l[2])*f.Z
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case depth[a] > depth[b]:
			return -1
		case depth[a] < depth[b]:
			return 1
		}
		return cmp.Compare(e.parts[b].born, e.parts[a].born)
	})
	return order
}

func (e *premEmitter) geosetMesh(pt *premParticle, r pose.Rotation, gi int) (Mesh, bool) {
	sm := e.spawned
	g := &sm.Geosets[gi]
	col := e.sp.GeosetColor(gi)
	// The viewer skips a batch whose geoset alpha is ≤ 0.01.
	if !(col[3] > 0.01) || len(g.Faces) < 3 {
		return Mesh{}, false
	}
	pos, nrm := e.sp.Vertices(gi)
	var uvs []mdx.Vec2
	if len(g.UVSets) > 0 {
		uvs = g.UVSets[0]
	}
	ms := Mesh{
		Kind:       KindModel,
		Node:       e.idx,
		TextureID:  -1,
		Material:   int(g.MaterialID),
		Source:     sm,
		SourcePath: e.spawnedPath,
		Vertices:   make([]Vertex, len(pos)),
		Normals:    make([][3]float32, len(pos)),
	}
	if int(g.MaterialID) < len(sm.Materials) {
		ms.PriorityPlane = int(sm.Materials[g.MaterialID].PriorityPlane)
	}
	for v, q := range pos {
		w := r.Apply(fauxgl.Vector{X: float64(q[0]) * float64(pt.scale[0]), Y: float64(q[1]) * float64(pt.scale[1]), Z: float64(q[2]) * float64(pt.scale[2])})
		vx := Vertex{
			Pos:   [3]float32{float32(w.X + float64(pt.loc[0])), float32(w.Y + float64(pt.loc[1])), float32(w.Z + float64(pt.loc[2]))},
			Color: col,
		}
		if v < len(uvs) {
			vx.UV = [2]float32(uvs[v])
		}
		ms.Vertices[v] = vx
		n := r.Apply(fauxgl.Vector{X: float64(nrm[v][0]), Y: float64(nrm[v][1]), Z: float64(nrm[v][2])})
		ms.Normals[v] = [3]float32{float32(n.X), float32(n.Y), float32(n.Z)}
	}
	nv := uint32(len(pos))
	ms.Indices = make([]uint32, 0, len(g.Faces)/3*3)
	for t := 0; t+2 < len(g.Faces); t += 3 {
		a, b, c := uint32(g.Faces[t]), uint32(g.Faces[t+1]), uint32(g.Faces[t+2])
		if a >= nv || b >= nv || c >= nv {
			continue // a face naming a missing vertex is dropped
		}
		if !finite3(ms.Vertices[a].Pos) || !finite3(ms.Vertices[b].Pos) || !finite3(ms.Vertices[c].Pos) {
			continue // NaN speed, scale or animation: not drawable
		}
		ms.Indices = append(ms.Indices, a, b, c)
	}
	if len(ms.Indices) == 0 {
		return Mesh{}, false
	}
	return ms, true
}

// columnLengths is the per-axis scale of a node's world matrix. The
// viewer keeps worldRotation and worldScale as separate products down the
// hierarchy; column lengths and pose.RotationOf agree with them whenever
// no non-uniform scale sits above a rotation, which is what emitter nodes
// do.
func columnLengths(w fauxgl.Matrix) [3]float64 {
	return [3]float64{
		math.Sqrt(w.X00*w.X00 + w.X10*w.X10 + w.X20*w.X20),
		math.Sqrt(w.X01*w.X01 + w.X11*w.X11 + w.X21*w.X21),
		math.Sqrt(w.X02*w.X02 + w.X12*w.X12 + w.X22*w.X22),
	}
}
