package raster

import (
	"errors"
	"fmt"
	"math"

	"github.com/fogleman/fauxgl"
)

// Camera is a view into Warcraft III model space (right-handed, +Z up).
// Matrices follow OpenGL (and gl-matrix) conventions: the view looks down
// −Z, clip-space z runs −1..1, and fauxgl.Matrix multiplies column vectors.
type Camera struct {
	Eye, Target, Up fauxgl.Vector
	// Fov is the vertical field of view in degrees (perspective only).
	Fov float64
	// Ortho selects an orthographic projection of half-height
	// OrthoHalfHeight (world units) instead of a perspective one.
	Ortho           bool
	OrthoHalfHeight float64
	Near, Far       float64
}

// View is the look-at matrix (gl-matrix mat4.lookAt).
func (c Camera) View() fauxgl.Matrix { return fauxgl.LookAt(c.Eye, c.Target, c.Up) }

// Projection is the projection matrix for a viewport of the given
// width/height aspect (gl-matrix mat4.perspective or mat4.ortho).
func (c Camera) Projection(aspect float64) fauxgl.Matrix {
	if c.Ortho {
		hh := c.OrthoHalfHeight
		return fauxgl.Orthographic(-hh*aspect, hh*aspect, -hh, hh, c.Near, c.Far)
	}
	return fauxgl.Perspective(c.Fov, aspect, c.Near, c.Far)
}

// ViewProjection is Projection(aspect) · View(): world to clip space.
func (c Camera) ViewProjection(aspect float64) fauxgl.Matrix {
	return c.Projection(aspect).Mul(c.View())
}

// Framing describes an automatic camera by the convention of the peer
// harness (shared/tools/peer/README.md, "Camera conventions"). Zero values
// mean "automatic" for every optional field.
type Framing struct {
	// Box is the fit box. Choosing it (posed vertices, model extent,
	// sequence extent, with fallbacks, see DegenerateBox and DefaultFitBox)
	// is the caller's job.
	Box fauxgl.Box
	// Yaw and Pitch are in degrees: yaw 0 puts the camera on +X looking at
	// the model's front, positive yaw turns the camera counter-clockwise seen
	// from above, pitch is elevation (clamped to ±89.9).
	Yaw, Pitch float64
	// Fov is the vertical field of view in degrees; 0 means 45.
	Fov float64
	// Margin scales the fit radius; 0 means 1.1.
	Margin float64
	// Distance from target to eye; 0 means margin·R / sin(fov/2), which
	// keeps the box's bounding sphere (radius R) in frame.
	Distance float64
	// Target overrides the box centre when non-nil.
	Target *fauxgl.Vector
	// Near and Far clip distances; 0 means d/100 and d + 4R + 10.
	Near, Far float64
	// Ortho projects orthographically with half-height margin·R.
	Ortho bool
}

// Defaults of the peer harness's camera convention.
const (
	DefaultFov    = 45.0
	DefaultMargin = 1.1
	MaxPitch      = 89.9
)

// DefaultFitBox is the box the convention falls back to for a model with no
// usable extent and no geometry (for example an emitter-only effect).
var DefaultFitBox = fauxgl.Box{Min: fauxgl.V(-50, -50, 0), Max: fauxgl.V(50, 50, 100)}

// DegenerateBox reports whether a fit box cannot be used (min above max, a
// non-finite value, or all sides zero), in which case the convention falls
// back to the posed vertices, then to DefaultFitBox.
func DegenerateBox(b fauxgl.Box) bool {
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

// Camera computes the camera: target = box centre (or Target), R = half the
// box diagonal, eye = target + d·(cos p·cos y, cos p·sin y, sin p), up +Z.
func (f Framing) Camera() (Camera, error) {
	if DegenerateBox(f.Box) {
		return Camera{}, errors.New("raster: degenerate fit box")
	}
	fov, margin := f.Fov, f.Margin
	if fov == 0 {
		fov = DefaultFov
	}
	if margin == 0 {
		margin = DefaultMargin
	}
	if !(fov > 0 && fov < 180) {
		return Camera{}, fmt.Errorf("raster: field of view %g° outside (0, 180)", fov)
	}
	if !(margin > 0) || math.IsInf(margin, 0) {
		return Camera{}, fmt.Errorf("raster: margin %g not positive", margin)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"distance", f.Distance}, {"near", f.Near}, {"far", f.Far}, {"yaw", f.Yaw}, {"pitch", f.Pitch}} {
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) || (v.name != "yaw" && v.name != "pitch" && v.v < 0) {
			return Camera{}, fmt.Errorf("raster: %s %g invalid", v.name, v.v)
		}
	}
	r := f.Box.Max.Sub(f.Box.Min).Length() / 2
	target := f.Box.Center()
	if f.Target != nil {
		target = *f.Target
	}
	d := f.Distance
	if d == 0 {
		d = margin * r / math.Sin(fov*math.Pi/360)
	}
	pitch := math.Max(-MaxPitch, math.Min(MaxPitch, f.Pitch))
	y, p := f.Yaw*math.Pi/180, pitch*math.Pi/180
	dir := fauxgl.V(math.Cos(p)*math.Cos(y), math.Cos(p)*math.Sin(y), math.Sin(p))
	c := Camera{
		Eye:             target.Add(dir.MulScalar(d)),
		Target:          target,
		Up:              fauxgl.V(0, 0, 1),
		Fov:             fov,
		Ortho:           f.Ortho,
		OrthoHalfHeight: margin * r,
		Near:            f.Near,
		Far:             f.Far,
	}
	if c.Near == 0 {
		c.Near = d / 100
	}
	if c.Far == 0 {
		c.Far = d + 4*r + 10
	}
	if !(c.Far > c.Near) {
		return Camera{}, fmt.Errorf("raster: far %g not beyond near %g", c.Far, c.Near)
	}
	return c, nil
}

// ClipPosition transforms a world-space point by a view-projection matrix
// (in float64) into a homogeneous clip-space Vertex.Position.
func ClipPosition(vp fauxgl.Matrix, p [3]float32) [4]float32 {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	return [4]float32{
		float32(vp.X00*x + vp.X01*y + vp.X02*z + vp.X03),
		float32(vp.X10*x + vp.X11*y + vp.X12*z + vp.X13),
		float32(vp.X20*x + vp.X21*y + vp.X22*z + vp.X23),
		float32(vp.X30*x + vp.X31*y + vp.X32*z + vp.X33),
	}
}
