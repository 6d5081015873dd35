package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

// The orbit camera (docs/rendering.md#camera-and-framing): +Z up, yaw 0
// looks at the model's front from +X, positive yaw turns the camera
// counter-clockwise seen from above, pitch is elevation, and the field of
// view is vertical. It is the reference harness's convention, so that our
// pictures can be compared with the reference viewer's pixel for pixel.
//
// Two rules place it. The automatic camera fits the projected silhouette
// of what is drawn (fit, below), so that a model fills its picture but for
// the View's margin. When a View gives the distance or the target, the
// reference harness's rule applies instead (framing): the distance keeps
// the fit box's bounding sphere, scaled by sphereMargin, in frame; the
// reference renders are made with it.
const (
	defaultFov   = 45.0
	sphereMargin = 1.1
	maxPitch     = 89.9
	// topPitch is the pitch of the orthographic top view of an interface
	// effect (flatFraming): as near straight down as the +Z up vector
	// allows, so that particles streaming along the line of sight do not
	// lean across the picture as they would at maxPitch.
	topPitch = 90 - 1e-6
)

// defaultFitBox is the box the convention falls back to for a model with no
// usable extent, no geometry and no visible particles.
var defaultFitBox = fauxgl.Box{Min: fauxgl.V(-50, -50, 0), Max: fauxgl.V(50, 50, 100)}

// degenerateBox reports whether a fit box cannot be used (min above max, a
// non-finite value, or all sides zero), in which case the convention falls
// back to the posed vertices, then to defaultFitBox.
func degenerateBox(b fauxgl.Box) bool {
	for _, v := range []float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return true
		}
	}
	if b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z {
		return true
	}
	return b.Min == b.Max
}

// framing describes an automatic orbit camera. Zero values mean
// "automatic" for every optional field.
type framing struct {
	// box is the fit box; choosing it is the caller's job (fitBox).
	box        fauxgl.Box
	yaw, pitch float64 // degrees; pitch clamped to ±maxPitch
	fov        float64 // vertical, degrees; 0 means defaultFov
	margin     float64 // scales the fit radius; 0 means sphereMargin
	// distance from target to eye; 0 means margin·R / sin(fov/2), which
	// keeps the box's bounding sphere (radius R) in frame.
	distance float64
	target   *fauxgl.Vector // overrides the box centre when non-nil
	// near and far clip distances; 0 means d/100 and d + 4R + 10.
	near, far float64
	ortho     bool // orthographic, half-height margin·R
}

// orbitDir is the unit vector from the target to the eye of the orbit
// camera at yaw and pitch (degrees; pitch clamped to ±maxPitch, but for
// topPitch). Everything
// that depends on the view direction (the camera, billboards, particle
// quads) takes it from here.
func orbitDir(yaw, pitch float64) fauxgl.Vector {
	p := pitch
	if p != topPitch {
		p = math.Max(-maxPitch, math.Min(maxPitch, pitch))
	}
	p *= math.Pi / 180
	y := yaw * math.Pi / 180
	return fauxgl.V(math.Cos(p)*math.Cos(y), math.Cos(p)*math.Sin(y), math.Sin(p))
}

// camera computes the camera: target = box centre (or target), R = half the
// box diagonal, eye = target + d·orbitDir(yaw, pitch), up +Z.
func (f framing) camera() (raster.Camera, error) {
	if degenerateBox(f.box) {
		return raster.Camera{}, errors.New("render: degenerate fit box")
	}
	fov, margin := f.fov, f.margin
	if fov == 0 {
		fov = defaultFov
	}
	if margin == 0 {
		margin = sphereMargin
	}
	if !(fov > 0 && fov < 180) {
		return raster.Camera{}, fmt.Errorf("render: field of view %g° outside (0, 180)", fov)
	}
	if !(margin > 0) || math.IsInf(margin, 0) {
		return raster.Camera{}, fmt.Errorf("render: margin %g not positive", margin)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"distance", f.distance}, {"near", f.near}, {"far", f.far}, {"yaw", f.yaw}, {"pitch", f.pitch}} {
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) || (v.name != "yaw" && v.name != "pitch" && v.v < 0) {
			return raster.Camera{}, fmt.Errorf("render: %s %g invalid", v.name, v.v)
		}
	}
	r := f.box.Max.Sub(f.box.Min).Length() / 2
	target := f.box.Center()
	if f.target != nil {
		target = *f.target
	}
	d := f.distance
	if d == 0 {
		d = autoDistance(r, fov, margin)
	}
	dir := orbitDir(f.yaw, f.pitch)
	c := raster.Camera{
		Eye:             target.Add(dir.MulScalar(d)),
		Target:          target,
		Up:              fauxgl.V(0, 0, 1),
		Fov:             fov,
		Ortho:           f.ortho,
		OrthoHalfHeight: margin * r,
		Near:            f.near,
		Far:             f.far,
	}
	if c.Near == 0 {
		c.Near = d / 100
	}
	if c.Far == 0 {
		c.Far = d + 4*r + 10
	}
	if !(c.Far > c.Near) {
		return raster.Camera{}, fmt.Errorf("render: far %g not beyond near %g", c.Far, c.Near)
	}
	return c, nil
}

// autoDistance is the eye distance at which a sphere of radius r, scaled
// by margin, just fits a vertical field of view of fov degrees.
func autoDistance(r, fov, margin float64) float64 {
	return margin * r / math.Sin(fov*math.Pi/360)
}

// boxAcc grows a box over the finite points added to it.
type boxAcc struct {
	b  fauxgl.Box
	ok bool // a point was added
}

func (a *boxAcc) add(v [3]float32) {
	x, y, z := float64(v[0]), float64(v[1]), float64(v[2])
	if math.IsNaN(x+y+z) || math.IsInf(x+y+z, 0) {
		return
	}
	pt := fauxgl.V(x, y, z)
	if !a.ok {
		a.b, a.ok = fauxgl.Box{Min: pt, Max: pt}, true
		return
	}
	// min and max as math.Min and math.Max, without their calls.
	lo, hi := &a.b.Min, &a.b.Max
	lo.X, lo.Y, lo.Z = min(lo.X, x), min(lo.Y, y), min(lo.Z, z)
	hi.X, hi.Y, hi.Z = max(hi.X, x), max(hi.Y, y), max(hi.Z, z)
}

// addBox grows the box by another one.
func (a *boxAcc) addBox(b fauxgl.Box) {
	if !a.ok {
		a.b, a.ok = b, true
		return
	}
	a.b = fauxgl.Box{Min: a.b.Min.Min(b.Min), Max: a.b.Max.Max(b.Max)}
}

// box returns the box; ok is false when no point was added or the box is
// degenerate.
func (a *boxAcc) box() (fauxgl.Box, bool) {
	return a.b, a.ok && !degenerateBox(a.b)
}

// Frame is one picture of a run that shares a camera: a sprite sheet's
// cell or an animation's frame.
type Frame struct {
	// Sequence indexes the model's sequences; -1 is the bind pose.
	Sequence int
	// Time is in ms after the sequence's start.
	Time float64
	// Yaw is the orbit camera's yaw for this frame, in degrees.
	Yaw float64
}

// apply points v at frame f: its yaw, sequence and time.
func (f Frame) apply(v *View) {
	v.Yaw, v.Time = f.Yaw, Ms(f.Time)
	v.Sequence = SequenceAt(f.Sequence)
	if f.Sequence < 0 {
		v.Sequence = BindPose()
	}
}

// explicit reports whether v places the orbit camera itself (a distance
// or a target), which selects the reference harness's sphere rule.
func (v *View) explicit() bool { return v.Distance != 0 || v.Target != nil }

// fill is the share of the picture's width and height the automatic
// camera gives the silhouette: what the margins leave, times the zoom.
func (v *View) fill() float64 {
	m, z := v.Margin, v.Zoom
	switch {
	case m == 0:
		m = DefaultMargin
	case m < 0:
		m = 0
	}
	if z == 0 {
		z = 1
	}
	return (1 - 2*m) * z
}

// silhouetteFit gathers what the frames of a run draw, seen from each of
// their view directions, as the few numbers the camera fit needs: per
// direction and per screen axis and side, the largest value of a linear
// function of the points. Points themselves are not kept, so a sheet of
// hundreds of frames costs no memory.
//
// The fit keeps every point p inside the part of the picture the fill
// share leaves: with the eye at E, screen axes a (right, up), the viewing
// direction f and k = fill·tan(half field of view along a), a point is in
// when |a·(p−E)| ≤ k·f·(p−E). For each axis and sign σ that is
// σa·p − k·f·p ≤ (σa − k·f)·E, so only the largest left side matters.
// An orthographic camera has k = 0 and a half-height instead.
type silhouetteFit struct {
	kx, ky float64 // perspective slopes; 0 for orthographic
	aspect float64 // width / height
	fill   float64
	ortho  bool
	views  []*viewFit
	last   *viewFit
	box    boxAcc
}

// viewFit is the silhouette seen from one direction.
type viewFit struct {
	dir            fauxgl.Vector // from the target to the eye
	right, up, fwd fauxgl.Vector
	// m holds, for x+, x−, y+ and y−, the largest σa·p − k·f·p.
	m          [4]float64
	minF, maxF float64 // nearest and farthest f·p
}

// newSilhouette prepares the fit of a picture of v's size, field of view,
// projection, margin and zoom.
func newSilhouette(v *View) *silhouetteFit {
	fov := v.Fov
	if fov == 0 {
		fov = defaultFov
	}
	s := &silhouetteFit{aspect: float64(v.Width) / float64(v.Height), fill: v.fill(), ortho: v.Ortho}
	if !s.ortho {
		t := math.Tan(fov * math.Pi / 360)
		s.kx, s.ky = s.fill*t*s.aspect, s.fill*t
	}
	return s
}

// view returns the silhouette seen along dir, adding it when new.
func (s *silhouetteFit) view(dir fauxgl.Vector) *viewFit {
	if s.last != nil && s.last.dir == dir {
		return s.last
	}
	for _, v := range s.views {
		if v.dir == dir {
			s.last = v
			return v
		}
	}
	// The basis of a look-at camera with up +Z, as raster.Camera builds it.
	fwd := dir.Negate().Normalize()
	right := fwd.Cross(fauxgl.V(0, 0, 1)).Normalize()
	v := &viewFit{dir: dir, fwd: fwd, right: right, up: right.Cross(fwd),
		m: [4]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}, minF: math.Inf(1), maxF: math.Inf(-1)}
	s.views = append(s.views, v)
	s.last = v
	return v
}

// add adds a drawn point seen along dir; non-finite points are left out.
func (s *silhouetteFit) add(dir fauxgl.Vector, p [3]float32) {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	if math.IsNaN(x+y+z) || math.IsInf(x+y+z, 0) {
		return
	}
	s.box.add(p)
	v := s.view(dir)
	pt := fauxgl.V(x, y, z)
	a, b, f := v.right.Dot(pt), v.up.Dot(pt), v.fwd.Dot(pt)
	v.m[0] = max(v.m[0], a-s.kx*f)
	v.m[1] = max(v.m[1], -a-s.kx*f)
	v.m[2] = max(v.m[2], b-s.ky*f)
	v.m[3] = max(v.m[3], -b-s.ky*f)
	v.minF, v.maxF = min(v.minF, f), max(v.maxF, f)
}

// fit is an orbit camera shared by the frames of a run: each frame looks
// at target from dist along its own direction.
type fit struct {
	target          fauxgl.Vector
	dist, near, far float64
	fov             float64
	ortho           bool
	orthoHalf       float64
}

// camera is the fit's camera for a frame seen along dir.
func (f *fit) camera(dir fauxgl.Vector) raster.Camera {
	return raster.Camera{
		Eye:    f.target.Add(dir.MulScalar(f.dist)),
		Target: f.target, Up: fauxgl.V(0, 0, 1),
		Fov: f.fov, Ortho: f.ortho, OrthoHalfHeight: f.orthoHalf,
		Near: f.near, Far: f.far,
	}
}

// solve places the camera. Seen along one direction the fit is exact:
// the eye is as close as the constraints allow and the silhouette is
// centred, so it spans the fill share of the limiting side. Several
// directions (the yaws of a sheet) share the target and the distance: the
// target is the point nearest, in least squares, to every direction's
// exact line of sight, and the distance the smallest that keeps every
// frame's silhouette inside its picture. ok is false when nothing with an
// extent was added.
func (s *silhouetteFit) solve(v *View) (f fit, ok bool) {
	b, ok := s.box.box()
	if !ok || len(s.views) == 0 || !(s.fill > 0) {
		return f, false
	}
	r := b.Max.Sub(b.Min).Length() / 2
	// Each direction's line of sight: a point on it and its direction.
	var a [3][3]float64
	var rhs [3]float64
	addLine := func(p, d fauxgl.Vector, w float64) {
		dv := [3]float64{d.X, d.Y, d.Z}
		pv := [3]float64{p.X, p.Y, p.Z}
		for i := range 3 {
			for j := range 3 {
				m := -dv[i] * dv[j]
				if i == j {
					m++
				}
				a[i][j] += w * m
				rhs[i] += w * m * pv[j]
			}
		}
	}
	for _, vf := range s.views {
		m := vf.m
		ex, ey := (m[0]-m[1])/2, (m[2]-m[3])/2
		p := vf.right.MulScalar(ex).Add(vf.up.MulScalar(ey))
		if !s.ortho {
			ez := min(-(m[0]+m[1])/(2*s.kx), -(m[2]+m[3])/(2*s.ky))
			p = p.Add(vf.fwd.MulScalar(ez))
		}
		addLine(p, vf.fwd, 1)
	}
	// A light pull towards the box centre settles what the lines leave
	// open: the depth, when every frame looks the same way.
	c := b.Center()
	eps := 1e-6 * float64(len(s.views))
	for i, cv := range [3]float64{c.X, c.Y, c.Z} {
		a[i][i] += eps
		rhs[i] += eps * cv
	}
	t, ok := solve3(a, rhs)
	if !ok {
		return f, false
	}
	target := fauxgl.V(t[0], t[1], t[2])
	f = fit{target: target, fov: v.Fov, ortho: s.ortho}
	if f.fov == 0 {
		f.fov = defaultFov
	}
	if s.ortho {
		hh := 0.0
		for _, vf := range s.views {
			x, y := vf.right.Dot(target), vf.up.Dot(target)
			hh = max(hh, (vf.m[0]-x)/s.aspect, (vf.m[1]+x)/s.aspect, vf.m[2]-y, vf.m[3]+y)
		}
		f.orthoHalf = hh / s.fill
		if !(f.orthoHalf > 1e-9*max(r, 1)) || math.IsInf(f.orthoHalf, 0) {
			return f, false
		}
		f.dist = autoDistance(r, f.fov, sphereMargin)
		for _, vf := range s.views {
			f.dist = max(f.dist, vf.fwd.Dot(target)-vf.minF+0.1*r+1)
		}
	} else {
		d := math.Inf(-1)
		for _, vf := range s.views {
			for i, k := range [4]float64{s.kx, s.kx, s.ky, s.ky} {
				ax := vf.right
				if i >= 2 {
					ax = vf.up
				}
				if i%2 == 1 {
					ax = ax.Negate()
				}
				w := ax.Sub(vf.fwd.MulScalar(k))
				d = max(d, (vf.m[i]-w.Dot(target))/k)
			}
		}
		if !(d > 1e-6*max(r, 1)) || math.IsInf(d, 0) {
			return f, false
		}
		f.dist = d
	}
	// Clip planes around what is drawn: the reference rule's, unless the
	// fit brought the camera so close that its near plane would cut.
	nearest, farthest := math.Inf(1), math.Inf(-1)
	for _, vf := range s.views {
		base := f.dist - vf.fwd.Dot(target)
		nearest, farthest = min(nearest, vf.minF+base), max(farthest, vf.maxF+base)
	}
	f.near = f.dist / 100
	if nearest > 0 && nearest/2 < f.near {
		f.near = max(nearest/2, f.dist/1e4)
	}
	f.far = max(f.dist+4*r+10, farthest*1.01+1)
	if v.Near > 0 {
		f.near = v.Near
	}
	if v.Far > 0 {
		f.far = v.Far
	}
	return f, f.far > f.near
}

// solve3 solves a·x = b for a 3×3 matrix by Cramer's rule; ok is false for
// a singular matrix.
func solve3(a [3][3]float64, b [3]float64) (x [3]float64, ok bool) {
	det := func(m [3][3]float64) float64 {
		return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
			m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
			m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	}
	d := det(a)
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return x, false
	}
	for c := range 3 {
		m := a
		for r := range 3 {
			m[r][c] = b[r]
		}
		x[c] = det(m) / d
	}
	return x, !math.IsNaN(x[0]+x[1]+x[2]) && !math.IsInf(x[0]+x[1]+x[2], 0)
}

// runCamera is the camera of a frame of a run, given its sequence, its
// view direction and its (possibly adjusted) yaw and pitch.
type runCamera func(seq int, dir fauxgl.Vector, yaw, pitch float64) (raster.Camera, error)

// runCamera frames the frames of a run with orbit cameras that keep
// everything they draw in the picture: one for each sequence's frames
// (FramePerSequence), or one for all of them (FrameShared), so that an
// animation neither jumps nor leaves its frames. It poses each frame
// (billboards facing that frame's camera), simulates its particles in a
// separate Animator, so that the drawing pass starts afresh, and fits what
// the frames of a group draw (silhouette). A View that gives the distance
// or the target gets the sphere rule on the union of the group's boxes
// instead.
func (a *Animator) runCamera(ctx context.Context, opt View, frames []Frame) (runCamera, error) {
	return a.fitRun(ctx, opt, frames, nil)
}

// fitRun is runCamera; of the frames for which particlesOnly is true
// (particlesOnly nil: none), only the particles count.
func (a *Animator) fitRun(ctx context.Context, opt View, frames []Frame, particlesOnly []bool) (runCamera, error) {
	pa := NewAnimator(a.m, a.name, a.tex)
	pa.Meter = a.meter()
	// base is the View with its defaults filled in: the picture's size
	// and field of view, which every fit shares.
	base := opt
	frames[0].apply(&base)
	r, err := pa.newFrame(ctx, &base)
	if err != nil {
		return nil, err
	}
	group := func(seq int) int {
		if opt.RunFraming == FrameShared {
			return 0
		}
		return seq
	}
	fits := map[int]*silhouetteFit{}
	boxes := map[int]*boxAcc{}
	for i, f := range frames {
		fo := opt
		f.apply(&fo)
		r.opt, r.sim = &fo, nil
		seq, err := fo.Sequence.Index(a.m)
		if err != nil {
			return nil, err
		}
		if err := pa.chargePose("framing a run of frames"); err != nil {
			return nil, err
		}
		dir, err := r.pose(seq)
		if err != nil {
			return nil, err
		}
		g := group(seq)
		if opt.explicit() {
			if boxes[g] == nil {
				boxes[g] = &boxAcc{}
			}
			boxes[g].addBox(r.fitBox(seq, dir))
			continue
		}
		s := fits[g]
		if s == nil {
			s = newSilhouette(&base)
			fits[g] = s
		}
		add := func(p [3]float32) { s.add(dir, p) }
		if particlesOnly != nil && particlesOnly[i] {
			if r.sim != nil {
				r.addParticles(particleCamera(raster.Camera{Eye: dir, Up: fauxgl.V(0, 0, 1)}), add)
			}
			continue
		}
		r.fitPoints(seq, dir, add)
	}
	if opt.explicit() {
		return func(seq int, dir fauxgl.Vector, yaw, pitch float64) (raster.Camera, error) {
			b := defaultFitBox
			if acc := boxes[group(seq)]; acc != nil {
				b, _ = acc.box()
			}
			return opt.sphere(b, yaw, pitch).camera()
		}, nil
	}
	solved := map[int]fit{}
	for g, s := range fits {
		if ft, ok := s.solve(&base); ok {
			solved[g] = ft
		}
	}
	return func(seq int, dir fauxgl.Vector, yaw, pitch float64) (raster.Camera, error) {
		if ft, ok := solved[group(seq)]; ok {
			return ft.camera(dir), nil
		}
		return opt.sphere(defaultFitBox, yaw, pitch).camera()
	}, nil
}

// stillCamera is the camera of a still of an effect, a model that has
// emitters and draws no geometry: fitted to what the still draws at its
// own moment and to the particles at framingInstants moments spread over
// its sequence, so that the picture holds the particles as they rise,
// spread and drift over the sequence (a flame's tip, a smoke's plume),
// not only where they are at that moment, and the stills of one sequence
// share a camera. A model with geometry is framed on its own moment,
// particles included: a unit is not made smaller for the reach of its
// aura's particles at other moments. nil when the still is framed on its
// own moment alone (geometry, no emitters, particles off, a model camera,
// the View's own distance or target or a Fit other than FitVertices, the
// bind pose).
func (a *Animator) stillCamera(ctx context.Context, v View) (runCamera, error) {
	if v.Particles.Off || !isEffect(a.m) || a.modelCamera(&v) != "" || v.explicit() || v.Fit != FitVertices {
		return nil, nil
	}
	seq, err := v.Sequence.Index(a.m)
	if err != nil || seq < 0 {
		return nil, nil
	}
	length := seqLength(&a.m.Sequences[seq])
	if length <= 0 {
		return nil, nil
	}
	at := v.Time.MsIn(length)
	span := min(length, framingSpanMs)
	// In time order, as the simulation steps forward.
	var frames []Frame
	var particlesOnly []bool
	placed := false
	for k := range framingInstants {
		t := float64(k) * span / framingInstants
		if !placed && at <= t {
			frames = append(frames, Frame{Sequence: seq, Time: at, Yaw: v.Yaw})
			particlesOnly = append(particlesOnly, false)
			placed = true
			if at == t {
				continue
			}
		}
		frames = append(frames, Frame{Sequence: seq, Time: t, Yaw: v.Yaw})
		particlesOnly = append(particlesOnly, true)
	}
	if !placed {
		frames = append(frames, Frame{Sequence: seq, Time: at, Yaw: v.Yaw})
		particlesOnly = append(particlesOnly, false)
	}
	return a.fitRun(ctx, v, frames, particlesOnly)
}

// framingInstants is how many moments, evenly over its sequence, frame a
// still of an effect. Eight see a particle's course through a loop of
// the usual length (one to three seconds) at least every 400 ms; the
// framing pass then costs a simulation of the whole sequence and eight
// posings more than the picture.
const framingInstants = 8

// framingSpanMs bounds the part of a sequence, from its start, whose
// moments frame an effect's still: the framing pass simulates it, and a
// stranger's sequence can be hours long. Of the corpus' 250 particle
// emitters, 240 have particles that live 3 s or less (the longest, 30 s).
const framingSpanMs = 10000

// isEffect reports whether m has particle, ribbon or model emitters and
// no geometry that is drawn (triangles of a geoset of LOD 0 or −1).
func isEffect(m *mdx.Model) bool {
	if len(m.ParticleEmitters2) == 0 && len(m.RibbonEmitters) == 0 && len(m.ParticleEmitters) == 0 {
		return false
	}
	for i := range m.Geosets {
		if g := &m.Geosets[i]; drawn(g) && len(g.Faces) >= 3 {
			return false
		}
	}
	return true
}

// sphere is the reference harness's framing of box with v's camera
// options.
func (v *View) sphere(box fauxgl.Box, yaw, pitch float64) framing {
	f := framing{box: box, yaw: yaw, pitch: pitch, fov: v.Fov,
		distance: v.Distance, near: v.Near, far: v.Far, ortho: v.Ortho}
	if v.Target != nil {
		t := *v.Target
		f.target = &t
	}
	return f
}

// drawnNow reports whether geoset gi is drawn at p's current clock: some
// layer of its material is visible with the geoset's and the layer's
// animated alpha.
func drawnNow(m *mdx.Model, p *pose.Pose, gi int) bool {
	g := &m.Geosets[gi]
	if int(g.MaterialID) >= len(m.Materials) {
		return false
	}
	a := p.GeosetColor(gi)[3]
	for li := range m.Materials[g.MaterialID].Layers {
		if visible(a, p.LayerAlpha(&m.Materials[g.MaterialID].Layers[li])) {
			return true
		}
	}
	return false
}

// Picture is one rendered frame: the image, and where the model's origin
// (the ground point under a unit) lands in it, in pixels from the image's
// top-left corner. The origin may lie outside the image; it is NaN when
// it is behind the camera.
type Picture struct {
	Image  *image.NRGBA
	Origin [2]float64
}

// RenderFrames draws a run of frames with one camera (see Frame). With the
// model's own camera (Options.Camera) or a single frame, each frame is
// framed as Render frames a still. The particle simulation of a sequence
// and view steps forward from frame to frame instead of restarting, so
// frames should be given in time order per sequence and yaw. A cancelled
// ctx stops it between frames with ctx's error.
func (a *Animator) RenderFrames(ctx context.Context, opt View, frames []Frame) ([]*image.NRGBA, []Warning, error) {
	pics, warns, err := a.RenderPictures(ctx, opt, frames)
	if err != nil {
		return nil, warns, err
	}
	out := make([]*image.NRGBA, len(pics))
	for i, p := range pics {
		out[i] = p.Image
	}
	return out, warns, nil
}

// RenderPictures is RenderFrames that also says where the model's origin
// lands in every frame: the pivot of a sprite-sheet frame.
func (a *Animator) RenderPictures(ctx context.Context, opt View, frames []Frame) ([]Picture, []Warning, error) {
	defer a.returnTarget()
	var cam runCamera
	if len(frames) > 1 && a.modelCamera(&opt) == "" {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		var err error
		if cam, err = a.runCamera(ctx, opt, frames); err != nil {
			return nil, nil, err
		}
	}
	var warns []Warning
	seen := map[[2]string]bool{} // code and message
	out := make([]Picture, 0, len(frames))
	for _, f := range frames {
		if err := ctx.Err(); err != nil {
			return nil, warns, err
		}
		f.apply(&opt)
		pic, ws, err := a.picture(ctx, opt, cam)
		for _, w := range ws {
			if k := [2]string{string(w.Code), w.Message}; !seen[k] {
				seen[k] = true
				warns = append(warns, w)
			}
		}
		if err != nil {
			return nil, warns, err
		}
		out = append(out, pic)
	}
	return out, warns, nil
}

// origin projects the model's origin with camera c into a w×h picture.
func origin(c raster.Camera, w, h int) [2]float64 {
	q := c.ViewProjection(float64(w) / float64(h)).MulPositionW(fauxgl.Vector{})
	if !(q.W > 0) {
		return [2]float64{math.NaN(), math.NaN()}
	}
	return [2]float64{(q.X/q.W + 1) / 2 * float64(w), (1 - q.Y/q.W) / 2 * float64(h)}
}
