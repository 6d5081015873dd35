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

// The automatic orbit camera (docs/rendering.md#camera-and-framing): +Z
// up, yaw 0 looks at the model's front from +X, positive yaw turns the
// camera counter-clockwise seen from above, pitch is elevation, the field
// of view is vertical, and the distance keeps the fit box's bounding
// sphere in frame. It is the reference harness's convention, so that our pictures
// can be compared with the reference viewer's pixel for pixel.
const (
	defaultFov    = 45.0
	defaultMargin = 1.1
	maxPitch      = 89.9
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
	margin     float64 // scales the fit radius; 0 means defaultMargin
	// distance from target to eye; 0 means margin·R / sin(fov/2), which
	// keeps the box's bounding sphere (radius R) in frame.
	distance float64
	target   *fauxgl.Vector // overrides the box centre when non-nil
	// near and far clip distances; 0 means d/100 and d + 4R + 10.
	near, far float64
	ortho     bool // orthographic, half-height margin·R
}

// orbitDir is the unit vector from the target to the eye of the orbit
// camera at yaw and pitch (degrees; pitch clamped to ±maxPitch). Everything
// that depends on the view direction (the camera, billboards, particle
// quads) takes it from here.
func orbitDir(yaw, pitch float64) [3]float64 {
	p := math.Max(-maxPitch, math.Min(maxPitch, pitch)) * math.Pi / 180
	y := yaw * math.Pi / 180
	return [3]float64{math.Cos(p) * math.Cos(y), math.Cos(p) * math.Sin(y), math.Sin(p)}
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
		margin = defaultMargin
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
		Eye:             target.Add(fauxgl.V(dir[0], dir[1], dir[2]).MulScalar(d)),
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
	a.b = fauxgl.Box{Min: a.b.Min.Min(pt), Max: a.b.Max.Max(pt)}
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
		v.Sequence = BindPose
	}
}

// sharedCamera frames every frame of a run with one orbit camera, so a
// sheet or an animation does not jump and nothing leaves the picture: it
// poses each frame (billboards facing that frame's camera) and fits the
// union of the geometry drawn in it, using the default field of view and
// margin and clip planes for the union's radius; a model that draws no
// geometry in any frame is fitted on the union of its visible particles.
// ok is false when neither gives a box; the frames then fall back to the
// declared extent.
func (a *Animator) sharedCamera(ctx context.Context, opt View, frames []Frame) (target [3]float64, dist, radius float64, ok bool, err error) {
	p, perr := pose.New(a.m)
	if perr == nil {
		var acc boxAcc
		for _, f := range frames {
			// billboards face the camera, so pose with this frame's view
			dir := orbitDir(f.Yaw, opt.Pitch)
			p.Update(pose.ClockAt(a.m, f.Sequence, f.Time), pose.View{Rotation: pose.LookRotation(dir, [3]float64{}, [3]float64{0, 0, 1})})
			for gi := range a.m.Geosets {
				if !drawn(&a.m.Geosets[gi]) || !drawnNow(a.m, p, gi) {
					continue // hidden in this frame: framing it would only shrink the model
				}
				pos, _ := p.Vertices(gi)
				for _, v := range pos {
					acc.add(v)
				}
			}
		}
		if acc.ok {
			target, dist, radius, ok = frameOn(acc.b)
			return target, dist, radius, ok, nil
		}
	}
	if opt.Particles.Off {
		return target, 0, 0, false, nil
	}
	// The simulation runs through the frames in a separate Animator, so
	// the drawing pass starts afresh.
	pa := NewAnimator(a.m, a.name, a.tex)
	pa.Limits = a.Limits
	var acc boxAcc
	for _, f := range frames {
		fo := opt
		f.apply(&fo)
		lo, hi, got, err := pa.particleBounds(ctx, fo)
		if err != nil {
			return target, 0, 0, false, err
		}
		if got {
			acc.addBox(fauxgl.Box{Min: fauxgl.V(lo[0], lo[1], lo[2]), Max: fauxgl.V(hi[0], hi[1], hi[2])})
		}
	}
	if !acc.ok {
		return target, 0, 0, false, nil
	}
	target, dist, radius, ok = frameOn(acc.b)
	return target, dist, radius, ok, nil
}

// frameOn returns the centre of box b, the camera distance the default
// field of view and margin give for it, and its radius; ok is false for a
// box too small to frame.
func frameOn(b fauxgl.Box) (target [3]float64, dist, radius float64, ok bool) {
	r := b.Max.Sub(b.Min).Length() / 2
	if !(r > 1e-6) || math.IsInf(r, 0) {
		return target, 0, 0, false
	}
	c := b.Center()
	return [3]float64{c.X, c.Y, c.Z}, autoDistance(r, defaultFov, defaultMargin), r, true
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

// RenderFrames draws a run of frames with one camera (see Frame). With the
// model's own camera (Options.Camera) or a single frame, each frame is
// framed as Render frames a still. The particle simulation of a sequence
// and view steps forward from frame to frame instead of restarting, so
// frames should be given in time order per sequence and yaw. A cancelled
// ctx stops it between frames with ctx's error.
func (a *Animator) RenderFrames(ctx context.Context, opt View, frames []Frame) ([]*image.NRGBA, []Warning, error) {
	if len(frames) > 1 && opt.Camera == "" {
		target, dist, r, ok, err := a.sharedCamera(ctx, opt, frames)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			opt.Target, opt.Distance = &target, dist
			// the default clip planes, for the union's radius (the
			// defaults would follow each frame's own box)
			opt.Near, opt.Far = dist/100, dist+4*r+10
		} else {
			opt.Fit = FitExtent
		}
	}
	var warns []Warning
	seen := map[Warning]bool{}
	out := make([]*image.NRGBA, 0, len(frames))
	for _, f := range frames {
		if err := ctx.Err(); err != nil {
			return nil, warns, err
		}
		f.apply(&opt)
		img, ws, err := a.frame(ctx, opt)
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				warns = append(warns, w)
			}
		}
		if err != nil {
			return nil, warns, err
		}
		out = append(out, img)
	}
	return out, warns, nil
}
