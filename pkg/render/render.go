// Package render turns a decoded Warcraft III (or early World of
// Warcraft) model into pictures: it poses the model (pkg/pose), simulates
// its emitters (pkg/particles), finds its textures (pkg/texture), frames
// the camera, turns each geoset layer into a raster batch by the Warcraft
// III material rules (filter mode to blend state, draw order, priority
// planes) and draws them with pkg/raster. docs/rendering.md gives the
// rules.
//
// An Animator draws one model: Render draws a still, RenderFrames a run of
// frames sharing one camera (a sprite sheet, an animation). A View says
// what to draw; its zero value is DefaultView(), the command line's
// defaults.
package render

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/beside"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Textures says where a model's textures, and the models its particle
// emitters spawn, are found.
type Textures struct {
	// Local are searched first: the model's own folder and, for a model
	// inside a map, the map's root.
	Local []texture.Source
	// Resolver searches its sources after Local and caches decoded
	// textures; nil means one with no further sources and a private
	// cache. A batch shares one Resolver (and its cache and folder
	// listings) between models.
	Resolver *texture.Resolver
}

// Animator draws pictures of one model. With particles on it keeps one
// particle simulation per sequence and view and steps it forward from
// frame to frame, so a sprite sheet costs one simulation of its longest
// time, not one per frame; a frame earlier than the previous one of the
// same sequence and view restarts that simulation. The pictures are
// identical to those of separate Animators. An Animator is not safe for
// concurrent use; use one per goroutine.
type Animator struct {
	// Meter is the model's budget: what drawing its pictures costs
	// (textures read and decoded, spawned models, particle simulation) is
	// charged to it, and its limits bound the pictures themselves. nil
	// makes one within the default limits at the first picture. Set it
	// before the first picture.
	Meter *budget.Meter
	// Framebuffers, when set, lends the framebuffers pictures are drawn
	// in; each call that draws gives its buffer back before it returns.
	// Set it before the first picture.
	Framebuffers *Framebuffers

	m    *mdx.Model
	name string
	tex  Textures
	sims map[simKey]*particles.Sim
	// validated: the model's Validate warning is computed once.
	validated bool
	invalid   error
	target    *raster.Target // reused by frames of the same size
	// spawned maps the names the particle finder gave spawned models to
	// their files, whose folders their textures are found in.
	spawned map[string]texture.File
	// draws caches materialDraws per material; uniform caches
	// uniformColor per decoded texture.
	draws   [][]matDraw
	uniform map[*texture.Lazy]uniformTex
	// uvRects caches visibleUV per texture and blend class.
	uvRects map[uvKey]uvRect
	// ownResolver is set when NewAnimator made tex.Resolver, which then
	// takes its decode options from Meter's limits at the first picture.
	ownResolver bool
	// stats are the rasteriser's of the last picture drawn.
	stats raster.DrawStats
	// vertices and triangles are the model's, once counted.
	vertices, triangles int64
	counted             bool
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

// NewAnimator prepares pictures of model m; name (usually its file path)
// prefixes errors.
func NewAnimator(m *mdx.Model, name string, tex Textures) *Animator {
	own := tex.Resolver == nil
	if own {
		tex.Resolver = &texture.Resolver{Cache: texture.NewCache(0)}
	}
	return &Animator{m: m, name: name, tex: tex, sims: map[simKey]*particles.Sim{}, spawned: map[string]texture.File{}, ownResolver: own}
}

// Render draws one still; warnings say what it went on without (a blank
// picture among them), and an error means no picture. It is
// RenderContext with context.Background().
func (a *Animator) Render(v View) (*image.NRGBA, []Warning, error) {
	return a.RenderContext(context.Background(), v)
}

// RenderContext is Render with a context: a cancelled ctx (or one past
// its deadline) stops the work with ctx's error within milliseconds,
// whether it is simulating particles, loading textures or drawing.
func (a *Animator) RenderContext(ctx context.Context, v View) (*image.NRGBA, []Warning, error) {
	defer a.returnTarget()
	pic, warns, err := a.picture(ctx, v, nil)
	img := pic.Image
	if err == nil && Blank(img) {
		warns = append(warns, Warning{Code: BlankPicture, Message: fmt.Sprintf(
			"the picture shows nothing (at %s the model may be hidden or not yet emitting, or the camera misses it; a later time, such as 50%% of the sequence, may show it)",
			a.moment(v))})
	}
	return img, warns, err
}

// moment describes v's sequence and time for messages.
func (a *Animator) moment(v View) string {
	seq, err := v.Sequence.Index(a.m)
	if err != nil || seq < 0 {
		return "the bind pose"
	}
	s := &a.m.Sequences[seq]
	return fmt.Sprintf("%s %g ms", clip.Display(s.Name, 80), v.Time.MsIn(seqLength(s)))
}

// picture draws one picture; cam, when not nil, is the camera of the run
// it belongs to.
func (a *Animator) picture(ctx context.Context, v View, cam runCamera) (Picture, []Warning, error) {
	if err := ctx.Err(); err != nil {
		return Picture{}, nil, err
	}
	if cam == nil {
		// A still of an effect is framed over its sequence (stillCamera).
		var err error
		if cam, err = a.stillCamera(ctx, v); err != nil {
			return Picture{}, nil, err
		}
	}
	r, err := a.newFrame(ctx, &v)
	if err != nil {
		return Picture{}, nil, err
	}
	r.fixed = cam
	if !a.validated {
		a.validated, a.invalid = true, a.m.Validate()
	}
	if a.invalid != nil {
		// Drawing copes (inconsistent parts keep their rest position or
		// are skipped); say so, as the picture may be incomplete.
		r.warn(InvalidModel, "%v (drawing what is consistent)", a.invalid)
	}
	if !v.Particles.Off {
		for i := range a.m.PopcornEmitters {
			p := &a.m.PopcornEmitters[i]
			r.warn(PopcornNotDrawn, "popcorn emitter %s: its PopcornFX effect %s is not drawn (the effect lives in a file of its own, which this renderer does not play)",
				clip.Quote(p.Name), clip.Quote(p.Path))
		}
	}
	if err := a.chargeFrame(int64(v.Width*v.SSAA) * int64(v.Height*v.SSAA)); err != nil {
		return Picture{}, r.warns, err
	}
	img, err := r.draw()
	if err == nil {
		err = a.chargeFragments()
	}
	if err != nil {
		return Picture{}, r.warns, err
	}
	return Picture{Image: img, Origin: origin(r.cam, v.Width, v.Height)}, r.warns, nil
}

// sim returns the simulation for seq and r's view, advanced to the
// frame's time, or nil when particles are off or the model has no
// emitter.
func (a *Animator) sim(r *frame, seq int, ms float64, view pose.View) (*particles.Sim, error) {
	opt := r.opt
	if opt.Particles.Off {
		return nil, nil
	}
	po := opt.Particles.options()
	po.Budget = a.meter()
	k := simKey{seq: seq, camera: r.camera, opt: po}
	if r.camera == "" {
		k.yaw, k.pitch = opt.Yaw, opt.Pitch
	}
	s, ok := a.sims[k]
	if !ok {
		var err error
		s, err = particles.New(a.m, k.opt)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", a.name, err)
		}
		if s.Empty() {
			s = nil
		} else {
			// PREM emitters spawn models found like textures: the model's
			// folder, then the texture sources.
			s.LoadSpawnedModels(particles.FileModelLoader(spawnFinder{a, a.tex.Local}, a.meter().Limits()))
			if err := s.StartContext(r.ctx, seq, view); err != nil {
				// Not kept: an interrupted pre-roll starts over next time.
				return nil, fmt.Errorf("render %s: %w", a.name, err)
			}
		}
		a.sims[k] = s
	}
	if s == nil {
		return nil, nil
	}
	s.SetView(view)
	err := s.AdvanceToContext(r.ctx, ms)
	// Read after advancing, so that a budget reached by this frame is
	// reported with it.
	for _, w := range s.Warnings() {
		r.warn(ParticleProblem, "%s", w)
	}
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", a.name, err)
	}
	return s, nil
}

// spawnFinder finds the models PREM emitters spawn, as textures are found,
// and remembers their files so that their own textures are looked up in
// their folders.
type spawnFinder struct {
	a     *Animator
	local []texture.Source
}

func (f spawnFinder) ReadFile(p string) ([]byte, string, []string, error) {
	b, file, tried, err := f.a.tex.Resolver.ReadFile(f.local, p, f.a.meter())
	if file.Source.FS != nil {
		f.a.spawned[file.String()] = file
	}
	return b, file.String(), tried, err
}

// frame is the state of drawing one picture.
type frame struct {
	ctx   context.Context
	m     *mdx.Model
	opt   *View
	local []texture.Source // the model's own sources
	p     *pose.Pose
	warns []Warning
	res   *texture.Resolver
	tex   map[texKey]*texSampler
	cam   raster.Camera // the camera of the last draw
	anim  *Animator
	sim   *particles.Sim // nil: no particles drawn
	fixed runCamera      // the camera of the run the frame is part of, or nil
	// camera is the model camera the frame is seen through (by name or
	// index), "" for the orbit camera (Animator.modelCamera).
	camera string
	// warnedShader marks materials whose shader was already warned
	// about this frame; hdLight caches hdLightPosition.
	warnedShader map[int]bool
	hdLight      *[3]float32
}

type texKey struct {
	id   int
	wrap uint32
}

// newFrame fills v's defaults in and checks what the renderer cannot
// draw or the Limits do not allow.
func (a *Animator) newFrame(ctx context.Context, v *View) (*frame, error) {
	if v.Width == 0 {
		v.Width = DefaultSize
	}
	if v.Height == 0 {
		v.Height = v.Width
	}
	if v.SSAA == 0 {
		v.SSAA = DefaultSSAA
	}
	if v.Width < 1 || v.Height < 1 || v.SSAA < 1 || v.Width*v.SSAA > raster.MaxSide || v.Height*v.SSAA > raster.MaxSide {
		return nil, fmt.Errorf("render: size %dx%d at ssaa %d is out of range (max side %d)", v.Width, v.Height, v.SSAA, raster.MaxSide)
	}
	if err := a.checkSize(v.Width, v.Height, v.SSAA); err != nil {
		return nil, err
	}
	if v.Fov < 0 || v.Fov >= 180 {
		return nil, fmt.Errorf("render: field of view %v is out of range", v.Fov)
	}
	if !(v.Margin < 0.5) {
		return nil, fmt.Errorf("render: margin %v is out of range (a share of the picture on each side, below 0.5)", v.Margin)
	}
	if !(v.Zoom >= 0) || math.IsInf(v.Zoom, 0) {
		return nil, fmt.Errorf("render: zoom %v is out of range", v.Zoom)
	}
	p, err := pose.New(a.m)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", a.name, err)
	}
	if a.ownResolver {
		// Once: a load abandoned by a cancelled frame may still read them.
		a.tex.Resolver.Options = texture.OptionsWithin(a.meter().Limits())
		a.ownResolver = false
	}
	return &frame{
		ctx: ctx, m: a.m, opt: v, local: a.tex.Local, p: p, camera: a.modelCamera(v),
		res:  a.tex.Resolver,
		tex:  map[texKey]*texSampler{},
		anim: a,
	}, nil
}

func (r *frame) warn(code WarningCode, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	// Messages quote what the model's author wrote; a hostile model's
	// megabyte of text ends here.
	msg = clip.String(msg, 2048)
	r.warns = append(r.warns, Warning{Code: code, Message: msg})
}

// textureWarnings passes on what the resolver went on without.
func (r *frame) textureWarnings(ws []texture.Warning) {
	for _, w := range ws {
		r.warns = append(r.warns, textureWarning(w))
	}
}

// cameraIndex resolves a model camera by index or name.
func cameraIndex(m *mdx.Model, s string) (int, error) {
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

// seqLength is a sequence's length in ms.
func seqLength(s *mdx.Sequence) float64 {
	if s.Interval[1] <= s.Interval[0] {
		return 0
	}
	return float64(s.Interval[1] - s.Interval[0])
}

// timeMs returns the frame's time in ms after the start of sequence seq.
func (r *frame) timeMs(seq int) float64 {
	if seq < 0 {
		return r.opt.Time.MsIn(0)
	}
	return r.opt.Time.MsIn(seqLength(&r.m.Sequences[seq]))
}

// drawn reports whether a geoset is drawn: LOD 0 or −1 only, as MV does.
func drawn(g *mdx.Geoset) bool { return g.LOD == 0 || g.LOD == math.MaxUint32 }

func (r *frame) draw() (*image.NRGBA, error) {
	opt, m := r.opt, r.m
	seq, err := opt.Sequence.Index(m)
	if err != nil {
		return nil, err
	}
	ms := r.timeMs(seq)
	clock := pose.ClockAt(m, seq, ms)

	var cam raster.Camera
	if r.camera != "" {
		ci, err := cameraIndex(m, r.camera)
		if err != nil {
			return nil, err
		}
		// The camera's tracks need the clock; nodes don't affect it.
		r.p.Update(clock, pose.View{})
		cp := r.p.Camera(ci)
		cam = raster.Camera{
			Eye:    cp.Eye,
			Target: cp.Target,
			Up:     cp.Up,
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
		if clock, err = r.simulate(seq, ms, clock, view); err != nil {
			return nil, err
		}
		r.p.Update(clock, view)
	} else {
		// Billboards depend only on the view direction, which yaw and
		// pitch fix before the camera is placed.
		dir, err := r.pose(seq)
		if err != nil {
			return nil, err
		}
		switch {
		case r.fixed != nil:
			cam, err = r.fixed(seq, dir, opt.Yaw, opt.Pitch)
		case opt.explicit():
			cam, err = opt.sphere(r.fitBox(seq, dir), opt.Yaw, opt.Pitch).camera()
		default:
			s := newSilhouette(opt)
			r.fitPoints(seq, dir, func(p [3]float32) { s.add(dir, p) })
			if f, ok := s.solve(opt); ok {
				cam = f.camera(dir)
			} else {
				cam, err = opt.sphere(defaultFitBox, opt.Yaw, opt.Pitch).camera()
			}
		}
		if err != nil {
			return nil, err
		}
	}
	r.cam = cam
	vp := cam.ViewProjection(float64(opt.Width) / float64(opt.Height))
	batches, err := r.batches(vp, opt.light())
	if err != nil {
		return nil, err
	}
	// Textures were loaded for the batches, one by one.
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	k := opt.SSAA
	bg := background(opt.Background)
	var clearTo [4]float32
	if bg != nil {
		clearTo = [4]float32{float32(bg.R) / 255, float32(bg.G) / 255, float32(bg.B) / 255, 1}
	}
	tg, err := r.target(opt.Width*k, opt.Height*k, clearTo)
	if err != nil {
		return nil, err
	}
	samples := int64(tg.Width) * int64(tg.Height)
	overdraw := r.anim.meter().Limits().Get(budget.Overdraw)
	st, err := tg.DrawContext(r.ctx, batches, raster.DrawOptions{
		Workers: opt.Workers, LODBias: float32(math.Log2(float64(k))), MaxFragments: overdraw * samples,
	})
	if err != nil {
		return nil, err
	}
	r.anim.stats = st
	if st.SkippedTriangles > 0 {
		r.warn(CappedPicture, "%d of %d triangles left out: drawn, they would cover %d times the picture's %d pixels, more than the overdraw limit of %d",
			st.SkippedTriangles, st.Triangles+st.SkippedTriangles, (st.Fragments+st.SkippedFragments)/samples, samples, overdraw)
	}
	return tg.Resolve(k, bg)
}

// background returns the opaque colour a picture is composited over, or
// nil for a transparent picture (no colour, or one with alpha 0).
func background(c color.Color) *color.NRGBA {
	if c == nil {
		return nil
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	if n.A == 0 {
		return nil
	}
	return &n
}

// orbitView returns the direction from the target to the eye of the orbit
// camera at the options' yaw and pitch (degrees; a flat model is seen from
// above, which sets the pitch, see flatFraming), and the view billboards
// are posed for.
func (r *frame) orbitView() (fauxgl.Vector, pose.View) {
	if r.flatFraming() {
		r.opt.Pitch = maxPitch
		if r.wowEmitters() {
			// An interface effect: straight down, orthographically
			// (docs/rendering.md#world-of-warcraft-models).
			r.opt.Pitch, r.opt.Ortho = topPitch, true
		}
	}
	dir := orbitDir(r.opt.Yaw, r.opt.Pitch)
	return dir, pose.View{Rotation: pose.LookRotation(dir, fauxgl.Vector{}, fauxgl.V(0, 0, 1))}
}

// pose runs the particle simulation up to the frame's time and poses the
// model for the orbit camera, billboards facing it; it returns the
// direction from the target to the eye.
func (r *frame) pose(seq int) (fauxgl.Vector, error) {
	ms := r.timeMs(seq)
	dir, view := r.orbitView()
	clock, err := r.simulate(seq, ms, pose.ClockAt(r.m, seq, ms), view)
	if err != nil {
		return dir, err
	}
	r.p.Update(clock, view)
	return dir, nil
}

// fitPoints calls add with every point the automatic camera frames in the
// posed frame: the corners of the declared extent when the View's Fit
// asks for one and it is usable; else what the frame draws, the vertices
// of the visible geosets and of the visible particles, ribbons and model
// particles (seen along dir), each only where its texture shows; else, when nothing is visible, the vertices
// of every geoset, hidden ones included.
//
// FitHead keeps, of what the frame draws, the head and shoulders
// (headPoints).
func (r *frame) fitPoints(seq int, dir fauxgl.Vector, add func([3]float32)) {
	var box fauxgl.Box
	switch r.opt.Fit {
	case FitHead:
		r.headPoints(dir, add)
		return
	case FitExtent:
		box = boxOf(r.m.Extent)
	case FitSequence:
		if seq >= 0 {
			box = boxOf(r.m.Sequences[seq].Extent)
		}
	}
	if r.opt.Fit != FitVertices && !degenerateBox(box) {
		for i := range 8 {
			c := box.Min
			if i&1 != 0 {
				c.X = box.Max.X
			}
			if i&2 != 0 {
				c.Y = box.Max.Y
			}
			if i&4 != 0 {
				c.Z = box.Max.Z
			}
			add([3]float32{float32(c.X), float32(c.Y), float32(c.Z)})
		}
		return
	}
	r.drawnPoints(dir, add)
}

// drawnPoints calls add with the points of what the posed frame draws
// (fitPoints' default).
func (r *frame) drawnPoints(dir fauxgl.Vector, add func([3]float32)) {
	n := 0
	for gi := range r.m.Geosets {
		if drawn(&r.m.Geosets[gi]) && drawnNow(r.m, r.p, gi) {
			n += r.addGeoset(gi, add)
		}
	}
	if r.sim != nil {
		n += r.addParticles(particleCamera(raster.Camera{Eye: dir, Up: fauxgl.V(0, 0, 1)}), add)
	}
	if n > 0 {
		return
	}
	for gi := range r.m.Geosets {
		if drawn(&r.m.Geosets[gi]) {
			pos, _ := r.p.Vertices(gi)
			for _, v := range pos {
				add(v)
			}
		}
	}
}

// particleBounds returns the box of what the particle simulation draws at
// opt's sequence and time, seen from opt's yaw and pitch: the box a
// still of a model without geometry is framed on. ok is false when
// particles are off, the model has no emitter, opt names a model camera,
// or nothing visible is alive. It advances the Animator's simulation as
// Render does, so a caller that frames several frames before drawing them
// uses a separate Animator for this.
func (a *Animator) particleBounds(ctx context.Context, opt View) (min, max [3]float64, ok bool, err error) {
	if a.modelCamera(&opt) != "" || opt.Particles.Off {
		return min, max, false, nil
	}
	r, err := a.newFrame(ctx, &opt)
	if err != nil {
		return min, max, false, err
	}
	seq, err := opt.Sequence.Index(a.m)
	if err != nil {
		return min, max, false, err
	}
	ms := r.timeMs(seq)
	dir, view := r.orbitView()
	if _, err := r.simulate(seq, ms, pose.ClockAt(a.m, seq, ms), view); err != nil {
		return min, max, false, err
	}
	b, ok := r.particleBox(dir)
	return [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}, ok, nil
}

// target returns a w×h framebuffer cleared to c (premultiplied): an
// Animator keeps its last one, so the frames of a sheet reuse its buffers
// (the rasteriser's per-triangle setup grows into them once instead of
// every frame).
func (r *frame) target(w, h int, c [4]float32) (*raster.Target, error) {
	a := r.anim
	var tg *raster.Target
	switch {
	case a != nil && a.target != nil && a.target.Width == w && a.target.Height == h:
		tg = a.target
	case a != nil && a.Framebuffers != nil:
		a.returnTarget()
		tg = a.Framebuffers.get(w, h)
	}
	if tg == nil {
		var err error
		if tg, err = raster.NewTarget(w, h); err != nil {
			return nil, err
		}
		// Only Draw writes the renderer's framebuffers.
		tg.DrawOnly = true
		if c != ([4]float32{}) { // a new target is clear to transparent black
			tg.Clear(c)
		}
	} else {
		tg.Clear(c)
	}
	if a != nil {
		a.target = tg
	}
	return tg, nil
}

// returnTarget gives the Animator's framebuffer back to its Framebuffers,
// if it borrowed one: at the end of every call that draws, so that
// Animators made one per model do not keep a buffer each.
func (a *Animator) returnTarget() {
	if a.Framebuffers != nil && a.target != nil {
		a.Framebuffers.put(a.target)
		a.target = nil
	}
}

// simulate runs the particle simulation (when asked for) up to the
// frame's time and returns the clock to pose the geometry at: the
// simulation's own, so geometry and particles agree.
func (r *frame) simulate(seq int, ms float64, clock pose.Clock, view pose.View) (pose.Clock, error) {
	s, err := r.anim.sim(r, seq, ms, view)
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
func (r *frame) fitBox(seq int, dir fauxgl.Vector) fauxgl.Box {
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
func (r *frame) particleBox(dir fauxgl.Vector) (fauxgl.Box, bool) {
	if r.sim == nil {
		return fauxgl.Box{}, false
	}
	cam := particleCamera(raster.Camera{Eye: dir, Up: fauxgl.V(0, 0, 1)})
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
func (r *frame) texture(id int, wrap uint32) *texSampler {
	if id < 0 || id >= len(r.m.Textures) {
		return r.missingSampler("texture id %d out of range (model has %d textures)", id, len(r.m.Textures))
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
	req := texture.Request{Local: r.local, Path: t.Path, ReplaceableID: t.ReplaceableID, HD: hdTextures(r.m), Team: r.opt.Team, Meter: r.anim.meter()}
	l, ws := r.load(req)
	r.textureWarnings(ws)
	smp := newTexSampler(r, l, texture.Wrap(t.Flags|wrap), req.Name())
	smp.missing = isMissing(l, ws)
	r.tex[key] = smp
	return smp
}

// isMissing reports whether a load gave the white stand-in for a texture
// the resolver could not supply (not the white a cursor model's
// replaceable id 21 asks for, which comes without a warning).
func isMissing(l *texture.Lazy, ws []texture.Warning) bool {
	t := l.Decoded()
	return len(ws) > 0 && t != nil && texture.IsStandIn(t)
}

// load opens a texture through the resolver (finds it, reads it and
// checks its header and levels; decoding the levels waits for Draw, see
// texSampler) unless the frame's context is done first. A TGA, PNG or
// JPEG file is decoded whole here. Loading is bounded by the texture
// budgets but can take seconds (a large PNG) and does not watch a context,
// so it runs beside the frame (beside.Run): a frame whose context ends
// stops waiting (draw then returns the context's error) and the load
// finishes into the resolver's cache.
func (r *frame) load(req texture.Request) (*texture.Lazy, []texture.Warning) {
	type loaded struct {
		l     *texture.Lazy
		warns []texture.Warning
	}
	got := beside.Run(r.ctx, func() loaded {
		l, warns := r.res.LoadLazy(req)
		return loaded{l, warns}
	})
	if got == nil {
		return texture.LazyOf(texture.WhiteTexture()), nil
	}
	return got.l, got.warns
}

// materialDraws returns how material mi is drawn (see materialDraws in
// hd.go), computed once per Animator; an SD material naming a shader we
// do not know is warned about once per frame.
func (r *frame) materialDraws(mi int) []matDraw {
	a := r.anim
	if a.draws == nil {
		a.draws = make([][]matDraw, len(r.m.Materials))
		for i := range a.draws {
			a.draws[i] = materialDraws(r.m, i)
		}
	}
	if sh := r.m.Materials[mi].Shader; unknownSDShader(sh) && !r.warnedShader[mi] && !isWoW(r.m) {
		if r.warnedShader == nil {
			r.warnedShader = map[int]bool{}
		}
		r.warnedShader[mi] = true
		r.warn(UnsupportedMaterial, "material %d: shader %q is not implemented; drawn by the classic layer rules", mi, sh)
	}
	return a.draws[mi]
}

func (r *frame) batches(vp fauxgl.Matrix, light fauxgl.Vector) ([]raster.Batch, error) {
	m := r.m
	lightF := [3]float32{float32(light.X), float32(light.Y), float32(light.Z)}
	var items []drawItem
	var all []raster.Batch
	for gi := range m.Geosets {
		g := &m.Geosets[gi]
		if !drawn(g) {
			continue
		}
		if int(g.MaterialID) >= len(m.Materials) {
			r.warn(SkippedGeometry, "geoset %d: material %d does not exist; skipped", gi, g.MaterialID)
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
			r.warn(SkippedGeometry, "geoset %d: %d triangles index missing vertices; skipped", gi, bad)
		}
		gc := r.p.GeosetColor(gi)
		var base []raster.Vertex // clip positions, normals, light: shared by layers
		baseUsed := false
		// own returns vertices a layer may write into: the geoset's first
		// taker gets base itself, the others a copy of it.
		own := func() []raster.Vertex {
			if baseUsed {
				return slices.Clone(base)
			}
			baseUsed = true
			return base
		}
		var greyVs []raster.Vertex // the stand-in's, once a layer needs them
		// The last layer's vertices and the texture coordinates in them.
		var last struct {
			vs  []raster.Vertex
			uvs []mdx.Vec2
			tt  pose.TexTransform
		}
		for _, d := range r.materialDraws(int(g.MaterialID)) {
			if d.hd != nil {
				if b, it, ok := r.hdBatch(gi, int(g.MaterialID), d.hd, idx, vp); ok {
					all, items = append(all, b), append(items, it)
				}
				continue
			}
			li := d.layer
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
			mode := normalizeFilter(l.FilterMode)
			b := raster.Batch{
				State:   layerState(mode, r.layerFlags(l)),
				Color:   [4]float32{gc[0], gc[1], gc[2], gc[3] * la},
				Indices: idx,
			}
			smp := r.texture(texID, r.layerWrap(l))
			if smp.missing {
				drawn, grey := r.missingShown(mode)
				if !drawn {
					continue
				}
				if grey {
					// Every stand-in layer of the geoset draws the same
					// grey vertices, made once: a model without its
					// textures (the usual case without the game's files)
					// would otherwise copy them for each layer, and the
					// rasteriser can set their triangles up once.
					if greyVs == nil {
						greyVs = own()
						newStandIn(r.cam).colour(greyVs, pos, nrm)
					}
					all = append(all, standInBatch(b, greyVs))
					items = append(items, drawItem{filter: mode, priorityPlane: int(mat.PriorityPlane)})
					continue
				}
			}
			uvs := layerUVs(g, l)
			tt := r.p.TextureTransform(l.TextureAnimID)
			var vs []raster.Vertex
			if last.vs != nil && len(uvs) == len(last.uvs) && (len(uvs) == 0 || &uvs[0] == &last.uvs[0]) && tt == last.tt {
				// The texture coordinates of the layer before: its
				// vertices, and with them the rasteriser's set-up of the
				// triangles, serve this layer too.
				vs = last.vs
			} else {
				// Their UVs all written, zero past the UV set.
				vs = own()
				for v := range vs {
					if v < len(uvs) {
						vs[v].UV = tt.Apply(uvs[v])
					} else {
						vs[v].UV = [2]float32{}
					}
				}
			}
			last.vs, last.uvs, last.tt = vs, uvs, tt
			b.Vertices = vs
			b.Texture = r.layerSampler(smp, mode)
			all = append(all, b)
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

// layerUVs is the texture coordinate set layer l samples on geoset g: the
// one its CoordID names, the first when it names none the geoset has, nil
// when the geoset has none.
func layerUVs(g *mdx.Geoset, l *mdx.Layer) []mdx.Vec2 {
	if len(g.UVSets) == 0 {
		return nil
	}
	if cs := int(l.CoordID); cs < len(g.UVSets) {
		return g.UVSets[cs]
	}
	return g.UVSets[0]
}
