package raster

import "github.com/fogleman/fauxgl"

// Camera is a look-at camera in a right-handed world. Matrices follow OpenGL (and gl-matrix) conventions: the view looks down
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

// ClipPosition transforms a world-space point by a view-projection matrix
// (in float64) into a homogeneous clip-space Vertex.Position.
func ClipPosition(vp fauxgl.Matrix, p [3]float32) [4]float32 {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	return [4]float32{
		float32(float64(vp.X00*x) + float64(vp.X01*y) + float64(vp.X02*z) + vp.X03),
		float32(float64(vp.X10*x) + float64(vp.X11*y) + float64(vp.X12*z) + vp.X13),
		float32(float64(vp.X20*x) + float64(vp.X21*y) + float64(vp.X22*z) + vp.X23),
		float32(float64(vp.X30*x) + float64(vp.X31*y) + float64(vp.X32*z) + vp.X33),
	}
}
