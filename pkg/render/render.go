// Package render turns a decoded Warcraft III model into a still image:
// it poses the model (pkg/pose), frames a camera by the reference harness's
// convention (pkg/raster), finds textures (pkg/texture) and rasterises one
// batch per geoset layer in the reference viewer's draw order.
package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// DefaultSSAA is the supersampling factor used when Options.SSAA is 0.
// Measured against the reference renders (README, "Rendering"): the
// reference viewer draws without antialiasing, so 1× matches its edges
// best; larger factors give smoother thumbnails at k² the cost.
const DefaultSSAA = 1

// DefaultLight is the reference viewer's point light (RENDERING.md §7).
var DefaultLight = [3]float64{0, 0, 10000}

// Fit box choices (Options.Fit).
const (
	FitVertices = "vertices" // the posed geometry (default)
	FitExtent   = "extent"   // the model's declared extent
	FitSequence = "sequence" // the sequence's declared extent
)

// Options describe one still render. Zero values mean the defaults of the
// reference harness (../shared/tools/peer/README.md).
type Options struct {
	Width, Height int // 0 means 256
	SSAA          int // supersampling factor; 0 means DefaultSSAA

	Yaw, Pitch float64 // degrees
	Fov        float64 // vertical, degrees; 0 means 45
	Distance   float64 // 0 means automatic
	Target     *[3]float64
	Near, Far  float64 // 0 means automatic
	Fit        string  // FitVertices (""), FitExtent or FitSequence
	Ortho      bool
	// Camera selects a portrait camera of the model (CAMS) by name or
	// index; "" uses the orbit camera above.
	Camera string

	// Sequence is a sequence name (exact, ignoring case, else prefix) or
	// index; "" means 0; "-1" means no sequence (bind pose).
	Sequence string
	Time     float64 // ms into the sequence; also the global-sequence phase
	Team     int

	// Background nil means transparent.
	Background *color.NRGBA
	// TextureRoots are searched before the model's own folder.
	TextureRoots []string
	// Light overrides DefaultLight.
	Light *[3]float64
	// Cache shares decoded textures between renders; nil uses a private one.
	Cache *texture.Cache
	// Resolver, when set, finds textures instead of one built from
	// TextureRoots, Team and Cache. A batch can reuse one per team so that
	// each folder is listed once.
	Resolver *texture.Resolver
	// Workers is the raster band worker count; 0 means GOMAXPROCS. It never
	// changes the output.
	Workers int

	// Particles draws PRE2 particles, ribbons and PREM model particles,
	// simulated from the sequence start to Time with the reference
	// viewer's update loop (pkg/particles); the model's geometry is then
	// posed at the simulation's frame, which trails start + Time by the
	// overshoot the viewer drops at each loop. Off by default (the
	// reference still renders in ../shared/reference/peer have none); the
	// CLI turns it on.
	Particles bool
	// Seed seeds the simulation's generator (the CLI default is
	// particles.DefaultSeed, 6; 0 is a valid seed).
	Seed uint32
	// StepMs is the fixed simulation step; 0 means particles.DefaultStepMs.
	StepMs float64
	// PrerollMs is simulated before the sequence start, as the reference
	// harness's --preroll-ms: 0 none (the harness default), > 0 that many
	// ms for any sequence, < 0 one longest emitter lifetime for looping
	// sequences only (the CLI default for thumbnails).
	PrerollMs float64
}

// ParticleOptions returns the simulation options o asks for.
func (o *Options) ParticleOptions() particles.Options {
	return particles.Options{Seed: o.Seed, StepMs: o.StepMs, PrerollMs: o.PrerollMs}
}

// Warning is something a render went on without (a missing texture, a
// skipped malformed geoset).
type Warning struct {
	Message string
}

func (w Warning) String() string { return w.Message }

// Render draws model m (read from modelPath, whose folder is searched for
// textures) with the given options. Warnings describe what was skipped; an
// error means no image.
func Render(m *mdx.Model, modelPath string, opt Options) (*image.NRGBA, []Warning, error) {
	return NewAnimator(m, modelPath).Render(opt)
}

// Animator renders successive frames of one model. With Options.Particles
// it keeps one particle simulation per sequence and view and steps it
// forward from frame to frame, so a sprite sheet costs one simulation of
// its longest time, not one per frame; a frame earlier than the previous
// one of the same sequence and view restarts that simulation. The images
// are identical to separate Render calls with the same options.
type Animator struct {
	m    *mdx.Model
	path string
	sims map[simKey]*particles.Sim
	// validated: the model's Validate warning is computed once.
	validated bool
	invalid   error
	target    *raster.Target // reused by frames of the same size
}

// simKey is what a simulation depends on besides the time: the sequence,
// the view (billboarded emitter nodes follow the camera) and the
// simulation options.
type simKey struct {
	seq        int
	yaw, pitch float64
	camera     string
	opt        particles.Options
}

// NewAnimator prepares frames of model m read from modelPath.
func NewAnimator(m *mdx.Model, modelPath string) *Animator {
	return &Animator{m: m, path: modelPath, sims: map[simKey]*particles.Sim{}}
}

// Render draws one frame; see the package function Render.
func (a *Animator) Render(opt Options) (*image.NRGBA, []Warning, error) {
	r, err := newFrame(a.m, a.path, &opt)
	if err != nil {
		return nil, nil, err
	}
	if !a.validated {
		a.validated, a.invalid = true, a.m.Validate()
	}
	if a.invalid != nil {
		// Drawing copes (inconsistent parts keep their rest position or
		// are skipped); say so, as the picture may be incomplete.
		r.warn("%v (drawing what is consistent)", a.invalid)
	}
	r.anim = a
	img, err := r.draw()
	return img, r.warns, err
}

// sim returns the simulation for seq and r's view, advanced to the
// frame's time, or nil when particles are off or the model has no
// emitter.
func (a *Animator) sim(r *frame, seq int, view pose.View) (*particles.Sim, error) {
	opt := r.opt
	if !opt.Particles {
		return nil, nil
	}
	k := simKey{seq: seq, camera: opt.Camera, opt: opt.ParticleOptions()}
	if opt.Camera == "" {
		k.yaw, k.pitch = opt.Yaw, opt.Pitch
	}
	s, ok := a.sims[k]
	if !ok {
		var err error
		s, err = particles.New(a.m, k.opt)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", a.path, err)
		}
		if s.Empty() {
			s = nil
		} else {
			// PREM emitters spawn models found like textures: the model's
			// folder, then the texture roots.
			s.LoadSpawnedModels(particles.FileModelLoader(r.res, r.dir))
			s.Start(seq, view)
		}
		a.sims[k] = s
	}
	if s == nil {
		return nil, nil
	}
	for _, w := range s.Warnings() {
		r.warn("%s", w)
	}
	s.SetView(view)
	if err := s.AdvanceTo(opt.Time); err != nil {
		return nil, fmt.Errorf("render %s: %w", a.path, err)
	}
	return s, nil
}

type frame struct {
	m     *mdx.Model
	opt   *Options
	dir   string
	p     *pose.Pose
	warns []Warning
	res   *texture.Resolver
	tex   map[texKey]raster.Sampler
	cam   raster.Camera // the camera of the last draw
	anim  *Animator
	sim   *particles.Sim // nil: no particles drawn
}

type texKey struct {
	id   int
	wrap uint32
}

func newFrame(m *mdx.Model, path string, opt *Options) (*frame, error) {
	if opt.Width == 0 {
		opt.Width = 256
	}
	if opt.Height == 0 {
		opt.Height = opt.Width
	}
	if opt.SSAA == 0 {
		opt.SSAA = DefaultSSAA
	}
	if opt.Width < 1 || opt.Height < 1 || opt.SSAA < 1 || opt.Width*opt.SSAA > raster.MaxSide || opt.Height*opt.SSAA > raster.MaxSide {
		return nil, fmt.Errorf("render: size %dx%d at ssaa %d is out of range (max side %d)", opt.Width, opt.Height, opt.SSAA, raster.MaxSide)
	}
	if opt.Fov < 0 || opt.Fov >= 180 {
		return nil, fmt.Errorf("render: field of view %v is out of range", opt.Fov)
	}
	p, err := pose.New(m)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", path, err)
	}
	res := opt.Resolver
	if res == nil {
		cache := opt.Cache
		if cache == nil {
			cache = texture.NewCache(0)
		}
		res = &texture.Resolver{Roots: opt.TextureRoots, Team: opt.Team, Cache: cache}
	}
	return &frame{
		m: m, opt: opt, dir: filepath.Dir(path), p: p,
		res: res,
		tex: map[texKey]raster.Sampler{},
	}, nil
}

func (r *frame) warn(format string, args ...any) {
	r.warns = append(r.warns, Warning{Message: fmt.Sprintf(format, args...)})
}

// SequenceIndex resolves a sequence option: "" is 0 (or −1 without
// sequences), an integer is an index (−1 = none), anything else a name,
// matched exactly ignoring case, else as a prefix.
func SequenceIndex(m *mdx.Model, s string) (int, error) {
	if s == "" {
		if len(m.Sequences) == 0 {
			return -1, nil
		}
		return 0, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < -1 || n >= len(m.Sequences) {
			return 0, fmt.Errorf("render: sequence %d out of range (model has %d)", n, len(m.Sequences))
		}
		return n, nil
	}
	for i := range m.Sequences {
		if strings.EqualFold(m.Sequences[i].Name, s) {
			return i, nil
		}
	}
	for i := range m.Sequences {
		if strings.HasPrefix(strings.ToLower(m.Sequences[i].Name), strings.ToLower(s)) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("render: no sequence named %q", s)
}

// CameraIndex resolves a portrait camera by index or name.
func CameraIndex(m *mdx.Model, s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= len(m.Cameras) {
			return 0, fmt.Errorf("render: camera %d out of range (model has %d)", n, len(m.Cameras))
		}
		return n, nil
	}
	for i := range m.Cameras {
		if strings.EqualFold(m.Cameras[i].Name, s) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("render: no camera named %q", s)
}

// drawn reports whether a geoset is drawn: LOD 0 or −1 only, as MV does.
func drawn(g *mdx.Geoset) bool { return g.LOD == 0 || g.LOD == math.MaxUint32 }

func (r *frame) draw() (*image.NRGBA, error) {
	opt, m := r.opt, r.m
	seq, err := SequenceIndex(m, opt.Sequence)
	if err != nil {
		return nil, err
	}
	clock := pose.ClockAt(m, seq, opt.Time)

	var cam raster.Camera
	if opt.Camera != "" {
		ci, err := CameraIndex(m, opt.Camera)
		if err != nil {
			return nil, err
		}
		// The camera's tracks need the clock; nodes don't affect it.
		r.p.Update(clock, pose.View{})
		cp := r.p.Camera(ci)
		cam = raster.Camera{
			Eye:    fauxgl.V(cp.Eye[0], cp.Eye[1], cp.Eye[2]),
			Target: fauxgl.V(cp.Target[0], cp.Target[1], cp.Target[2]),
			Up:     fauxgl.V(cp.Up[0], cp.Up[1], cp.Up[2]),
			Fov:    cp.FieldOfView * 180 / math.Pi,
			Near:   cp.Near, Far: cp.Far,
		}
		if opt.Fov > 0 {
			cam.Fov = opt.Fov
		}
		if opt.Near > 0 {
			cam.Near = opt.Near
		}
		if opt.Far > 0 {
			cam.Far = opt.Far
		}
		if cam.Fov <= 0 || cam.Fov >= 180 {
			cam.Fov = defaultFov
		}
		d := cam.Eye.Sub(cam.Target).Length()
		if cam.Near <= 0 || cam.Far <= cam.Near {
			cam.Near, cam.Far = math.Max(d/100, 0.01), d*4+1000
		}
		view := pose.View{Rotation: pose.LookRotation(cp.Eye, cp.Target, cp.Up)}
		if clock, err = r.simulate(seq, clock, view); err != nil {
			return nil, err
		}
		r.p.Update(clock, view)
	} else {
		// Billboards depend only on the view direction, which yaw and
		// pitch fix before the fit box is known.
		dir, view := r.orbitView()
		if clock, err = r.simulate(seq, clock, view); err != nil {
			return nil, err
		}
		r.p.Update(clock, view)
		f := framing{
			box: r.fitBox(seq, dir), yaw: opt.Yaw, pitch: opt.Pitch, fov: opt.Fov,
			distance: opt.Distance, near: opt.Near, far: opt.Far, ortho: opt.Ortho,
		}
		if opt.Target != nil {
			t := fauxgl.V(opt.Target[0], opt.Target[1], opt.Target[2])
			f.target = &t
		}
		cam, err = f.camera()
		if err != nil {
			return nil, err
		}
	}
	r.cam = cam
	vp := cam.ViewProjection(float64(opt.Width) / float64(opt.Height))
	light := DefaultLight
	if opt.Light != nil {
		light = *opt.Light
	}
	batches, err := r.batches(vp, light)
	if err != nil {
		return nil, err
	}
	k := opt.SSAA
	tg, err := r.target(opt.Width*k, opt.Height*k)
	if err != nil {
		return nil, err
	}
	if bg := opt.Background; bg != nil {
		tg.Clear([4]float32{float32(bg.R) / 255, float32(bg.G) / 255, float32(bg.B) / 255, 1})
	}
	if err := tg.Draw(batches, raster.DrawOptions{Workers: opt.Workers, LODBias: float32(math.Log2(float64(k)))}); err != nil {
		return nil, err
	}
	return tg.Resolve(k, opt.Background)
}

// orbitView returns the direction from the target to the eye of the orbit
// camera at the options' yaw and pitch (degrees; a flat model is seen from
// above, which sets the pitch, see flatFraming), and the view billboards
// are posed for.
func (r *frame) orbitView() ([3]float64, pose.View) {
	if r.flatFraming() {
		r.opt.Pitch = maxPitch
	}
	dir := orbitDir(r.opt.Yaw, r.opt.Pitch)
	return dir, pose.View{Rotation: pose.LookRotation(dir, [3]float64{}, [3]float64{0, 0, 1})}
}

// particleBounds returns the box of what the particle simulation draws at
// opt's sequence and time, seen from opt's yaw and pitch: the box a
// still of a model without geometry is framed on. ok is false when
// particles are off, the model has no emitter, opt names a model camera,
// or nothing visible is alive. It advances the Animator's simulation as
// Render does, so a caller that frames several frames before drawing them
// uses a separate Animator for this.
func (a *Animator) particleBounds(opt Options) (min, max [3]float64, ok bool, err error) {
	if opt.Camera != "" || !opt.Particles {
		return min, max, false, nil
	}
	r, err := newFrame(a.m, a.path, &opt)
	if err != nil {
		return min, max, false, err
	}
	r.anim = a
	seq, err := SequenceIndex(a.m, opt.Sequence)
	if err != nil {
		return min, max, false, err
	}
	dir, view := r.orbitView()
	if _, err := r.simulate(seq, pose.ClockAt(a.m, seq, opt.Time), view); err != nil {
		return min, max, false, err
	}
	b, ok := r.particleBox(dir)
	return [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}, ok, nil
}

// target returns a cleared w×h framebuffer: an Animator keeps its last
// one, so the frames of a sheet reuse its buffers (the rasteriser's
// per-triangle setup grows into them once instead of every frame).
func (r *frame) target(w, h int) (*raster.Target, error) {
	if a := r.anim; a != nil && a.target != nil && a.target.Width == w && a.target.Height == h {
		a.target.Clear([4]float32{})
		return a.target, nil
	}
	tg, err := raster.NewTarget(w, h)
	if err == nil && r.anim != nil {
		r.anim.target = tg
	}
	return tg, err
}

// simulate runs the particle simulation (when asked for) up to the
// frame's time and returns the clock to pose the geometry at: the
// simulation's own, so geometry and particles agree.
func (r *frame) simulate(seq int, clock pose.Clock, view pose.View) (pose.Clock, error) {
	if r.anim == nil {
		return clock, nil
	}
	s, err := r.anim.sim(r, seq, view)
	if err != nil || s == nil {
		return clock, err
	}
	r.sim = s
	return s.Clock(), nil
}

func boxOf(e mdx.Extent) fauxgl.Box {
	return fauxgl.Box{
		Min: fauxgl.V(float64(e.Min[0]), float64(e.Min[1]), float64(e.Min[2])),
		Max: fauxgl.V(float64(e.Max[0]), float64(e.Max[1]), float64(e.Max[2])),
	}
}

// fitBox chooses the box the automatic camera frames: the posed vertices
// by default; the declared extents on request, falling back to the
// vertices when degenerate. A model that draws no geometry (an
// emitter-only effect) is framed on its visible particles when they are
// simulated, seen from dir (billboards face the camera), and only then on
// the default box. The reference harness uses the default box there; it
// is 100 units wide, which crops any larger effect, and misses an effect
// whose emitter is away from the origin.
func (r *frame) fitBox(seq int, dir [3]float64) fauxgl.Box {
	switch r.opt.Fit {
	case FitExtent:
		if b := boxOf(r.m.Extent); !degenerateBox(b) {
			return b
		}
	case FitSequence:
		if seq >= 0 {
			if b := boxOf(r.m.Sequences[seq].Extent); !degenerateBox(b) {
				return b
			}
		}
	}
	var acc boxAcc
	for gi := range r.m.Geosets {
		if !drawn(&r.m.Geosets[gi]) {
			continue
		}
		pos, _ := r.p.Vertices(gi)
		for _, v := range pos {
			acc.add(v)
		}
	}
	if b, ok := acc.box(); ok {
		return b
	}
	if pb, ok := r.particleBox(dir); ok {
		return pb
	}
	return defaultFitBox
}

// visibleAlpha is the vertex alpha below which particle geometry does not
// count for framing: particles fade out at the end of their life, when
// they are also farthest from the emitter.
const visibleAlpha = 1.0 / 64

// particleBox is the box of the particle, ribbon and spawned-model
// vertices the simulation would draw for a camera looking along −dir,
// leaving out nearly transparent ones; ok is false when nothing is alive
// or the box is degenerate.
func (r *frame) particleBox(dir [3]float64) (fauxgl.Box, bool) {
	if r.sim == nil {
		return fauxgl.Box{}, false
	}
	cam := particleCamera(raster.Camera{Eye: fauxgl.V(dir[0], dir[1], dir[2]), Up: fauxgl.V(0, 0, 1)})
	var acc boxAcc
	for _, ms := range r.sim.Meshes(cam) {
		for _, v := range ms.Vertices {
			if v.Color[3] >= visibleAlpha {
				acc.add(v.Pos)
			}
		}
	}
	return acc.box()
}

// texture returns the sampler for TEXS index id, loading it once. wrap
// adds texture.Wrap bits to the texture's own (WoW v1500 layer flags).
func (r *frame) texture(id int, wrap uint32) raster.Sampler {
	if id < 0 || id >= len(r.m.Textures) {
		r.warn("texture id %d out of range (model has %d textures); using white", id, len(r.m.Textures))
		return glSampler{texture.WhiteTexture()}
	}
	t := &r.m.Textures[id]
	key := texKey{id, t.Flags | wrap}
	if smp, ok := r.tex[key]; ok {
		return smp
	}
	if smp, ok := r.wowReplaceable(t); ok {
		r.tex[key] = smp
		return smp
	}
	tx, ws := r.res.Load(texture.Request{ModelDir: r.dir, Path: t.Path, ReplaceableID: t.ReplaceableID, HD: hdTextures(r.m)})
	for _, w := range ws {
		r.warn("%s", w.String())
	}
	smp := glSampler{withGLMipmaps(tx.WithWrap(texture.Wrap((t.Flags | wrap) & 3)))}
	r.tex[key] = smp
	return smp
}

func (r *frame) batches(vp fauxgl.Matrix, light [3]float64) ([]raster.Batch, error) {
	m := r.m
	lightF := [3]float32{float32(light[0]), float32(light[1]), float32(light[2])}
	var items []drawItem
	var all []raster.Batch
	for gi := range m.Geosets {
		g := &m.Geosets[gi]
		if !drawn(g) {
			continue
		}
		if int(g.MaterialID) >= len(m.Materials) {
			r.warn("geoset %d: material %d does not exist; skipped", gi, g.MaterialID)
			continue
		}
		mat := &m.Materials[g.MaterialID]
		pos, nrm := r.p.Vertices(gi)
		nt := len(g.Faces) / 3
		if nt == 0 || len(pos) == 0 {
			continue
		}
		idx := make([]uint32, 0, nt*3)
		bad := 0
		for t := 0; t < nt; t++ {
			a, b, c := g.Faces[3*t], g.Faces[3*t+1], g.Faces[3*t+2]
			if int(a) >= len(pos) || int(b) >= len(pos) || int(c) >= len(pos) {
				bad++
				continue
			}
			idx = append(idx, uint32(a), uint32(b), uint32(c))
		}
		if bad > 0 {
			r.warn("geoset %d: %d triangles index missing vertices; skipped", gi, bad)
		}
		gc := r.p.GeosetColor(gi)
		var base []raster.Vertex // clip positions, normals, light: shared by layers
		for li := range mat.Layers {
			l := &mat.Layers[li]
			la := r.p.LayerAlpha(l)
			if !visible(gc[3], la) {
				continue
			}
			if base == nil {
				base = make([]raster.Vertex, len(pos))
				for v, pp := range pos {
					base[v].Position = raster.ClipPosition(vp, pp)
					base[v].Normal = nrm[v]
					base[v].Light = raster.LightDir(pp, lightF)
				}
			}
			texID := r.p.LayerTexture(l)
			if len(l.Textures) > 0 && l.TextureIDTrack == nil {
				texID = int(l.Textures[0].TextureID) // Reforged: the diffuse slot
			}
			var uvs []mdx.Vec2
			if len(g.UVSets) > 0 {
				cs := int(l.CoordID)
				if cs >= len(g.UVSets) {
					cs = 0
				}
				uvs = g.UVSets[cs]
			}
			tt := r.p.TextureTransform(l.TextureAnimID)
			vs := make([]raster.Vertex, len(base))
			copy(vs, base)
			for v := range vs {
				if v < len(uvs) {
					vs[v].UV = tt.Apply(uvs[v])
				}
			}
			mode := normalizeFilter(l.FilterMode)
			all = append(all, raster.Batch{
				State:    layerState(mode, r.layerFlags(l)),
				Texture:  r.layerSampler(r.texture(texID, r.layerWrap(l)), mode),
				Color:    [4]float32{gc[0], gc[1], gc[2], gc[3] * la},
				Vertices: vs,
				Indices:  idx,
			})
			items = append(items, drawItem{filter: mode, priorityPlane: int(mat.PriorityPlane)})
		}
	}
	if r.sim != nil {
		all, items = r.emitterBatches(vp, all, items)
	}
	order := drawOrder(items)
	out := make([]raster.Batch, len(order))
	for i, k := range order {
		out[i] = all[k]
	}
	return out, nil
}
