package pose

import (
	"math"

	"github.com/fogleman/fauxgl"
)

// mat4 is a 4×4 matrix in column-major order (gl-matrix layout, the
// reference viewer's): element (row r, column c) is m[c*4+r], the
// translation is m[12], m[13], m[14]. It is pose's working form; what
// leaves the package is a fauxgl.Matrix (Pose.World).
type mat4 [16]float64

// identity is the identity matrix.
var identity = mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// matrix returns m as a fauxgl.Matrix, element for element.
func (m *mat4) matrix() fauxgl.Matrix {
	return fauxgl.Matrix{
		X00: m[0], X01: m[4], X02: m[8], X03: m[12],
		X10: m[1], X11: m[5], X12: m[9], X13: m[13],
		X20: m[2], X21: m[6], X22: m[10], X23: m[14],
		X30: m[3], X31: m[7], X32: m[11], X33: m[15],
	}
}

// Mul returns a·b.
func (a *mat4) Mul(b *mat4) mat4 {
	var o mat4
	for c := 0; c < 4; c++ {
		b0, b1, b2, b3 := b[c*4], b[c*4+1], b[c*4+2], b[c*4+3]
		for r := 0; r < 4; r++ {
			o[c*4+r] = a[r]*b0 + a[4+r]*b1 + a[8+r]*b2 + a[12+r]*b3
		}
	}
	return o
}

// Point transforms the point p (w = 1).
func (a *mat4) Point(p [3]float64) [3]float64 {
	return [3]float64{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2] + a[12],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2] + a[13],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2] + a[14],
	}
}

// Mul returns the rotation a·b: b, then a.
func (a Rotation) Mul(b Rotation) Rotation { return qmul(a, b) }

// Apply rotates v by r, a unit quaternion.
func (r Rotation) Apply(v fauxgl.Vector) fauxgl.Vector { return vector(qrot(r, vec3(v))) }

func qmul(a, b Rotation) Rotation {
	return Rotation{
		a[0]*b[3] + a[3]*b[0] + a[1]*b[2] - a[2]*b[1],
		a[1]*b[3] + a[3]*b[1] + a[2]*b[0] - a[0]*b[2],
		a[2]*b[3] + a[3]*b[2] + a[0]*b[1] - a[1]*b[0],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}

func qconj(q Rotation) Rotation { return Rotation{-q[0], -q[1], -q[2], q[3]} }

var qident = Rotation{0, 0, 0, 1}

// qrot rotates v by q (gl-matrix vec3.transformQuat).
func qrot(q Rotation, v [3]float64) [3]float64 {
	qx, qy, qz, qw := q[0], q[1], q[2], q[3]
	uvx := qy*v[2] - qz*v[1]
	uvy := qz*v[0] - qx*v[2]
	uvz := qx*v[1] - qy*v[0]
	uuvx := qy*uvz - qz*uvy
	uuvy := qz*uvx - qx*uvz
	uuvz := qx*uvy - qy*uvx
	w2 := qw * 2
	return [3]float64{
		v[0] + uvx*w2 + uuvx*2,
		v[1] + uvy*w2 + uuvy*2,
		v[2] + uvz*w2 + uuvz*2,
	}
}

func axisAngle(axis [3]float64, rad float64) Rotation {
	s := math.Sin(rad / 2)
	return Rotation{axis[0] * s, axis[1] * s, axis[2] * s, math.Cos(rad / 2)}
}

// trsOrigin is gl-matrix mat4.fromRotationTranslationScaleOrigin:
// T(v) · T(o) · R(q) · S(s) · T(−o).
func trsOrigin(q Rotation, v, s, o [3]float64) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	x2, y2, z2 := x+x, y+y, z+z
	xx, xy, xz := x*x2, x*y2, x*z2
	yy, yz, zz := y*y2, y*z2, z*z2
	wx, wy, wz := w*x2, w*y2, w*z2
	var m mat4
	m[0] = (1 - (yy + zz)) * s[0]
	m[1] = (xy + wz) * s[0]
	m[2] = (xz - wy) * s[0]
	m[4] = (xy - wz) * s[1]
	m[5] = (1 - (xx + zz)) * s[1]
	m[6] = (yz + wx) * s[1]
	m[8] = (xz + wy) * s[2]
	m[9] = (yz - wx) * s[2]
	m[10] = (1 - (xx + yy)) * s[2]
	m[12] = v[0] + o[0] - (m[0]*o[0] + m[4]*o[1] + m[8]*o[2])
	m[13] = v[1] + o[1] - (m[1]*o[0] + m[5]*o[1] + m[9]*o[2])
	m[14] = v[2] + o[2] - (m[2]*o[0] + m[6]*o[1] + m[10]*o[2])
	m[15] = 1
	return m
}

// LookRotation returns the world→view rotation of a camera at eye looking
// at target with the given up vector (the rotation part of gl-matrix
// mat4.lookAt), as a quaternion (x, y, z, w). Billboarded nodes need it.
func LookRotation(eye, target, up fauxgl.Vector) Rotation {
	z := norm3(sub3(vec3(eye), vec3(target)))
	x := norm3(cross3(vec3(up), z))
	y := cross3(z, x)
	// Rows of the view rotation are x, y, z.
	return (fromMat3(
		x[0], x[1], x[2],
		y[0], y[1], y[2],
		z[0], z[1], z[2]))
}

// RotationOf returns the rotation of the matrix m's 3×3 part, its columns
// normalised (a per-axis scale taken out): the viewer's worldRotation,
// which agrees with this whenever no non-uniform scale sits above a
// rotation. A zero scale gives no rotation.
func RotationOf(m fauxgl.Matrix) Rotation {
	var col [3][3]float64
	for c, v := range [3][3]float64{{m.X00, m.X10, m.X20}, {m.X01, m.X11, m.X21}, {m.X02, m.X12, m.X22}} {
		l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
		if l > 0 {
			v = [3]float64{v[0] / l, v[1] / l, v[2] / l}
		}
		col[c] = v
	}
	// Rotation matrix element (row r, column c) is col[c][r].
	q := fromMat3(col[0][0], col[1][0], col[2][0], col[0][1], col[1][1], col[2][1], col[0][2], col[1][2], col[2][2])
	if math.IsNaN(q[0]) || math.IsNaN(q[1]) || math.IsNaN(q[2]) || math.IsNaN(q[3]) {
		return qident
	}
	return q
}

// fromMat3 converts a rotation matrix given by rows to a quaternion.
func fromMat3(m00, m01, m02, m10, m11, m12, m20, m21, m22 float64) Rotation {
	tr := m00 + m11 + m22
	var q Rotation
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = Rotation{(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4}
	case m00 > m11 && m00 > m22:
		s := math.Sqrt(1+m00-m11-m22) * 2
		q = Rotation{s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s}
	case m11 > m22:
		s := math.Sqrt(1+m11-m00-m22) * 2
		q = Rotation{(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s}
	default:
		s := math.Sqrt(1+m22-m00-m11) * 2
		q = Rotation{(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s}
	}
	return q
}

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func norm3(a [3]float64) [3]float64 {
	l := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
	if l == 0 {
		return a
	}
	return [3]float64{a[0] / l, a[1] / l, a[2] / l}
}
func v64(v [3]float32) [3]float64 { return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])} }

func vec3(v fauxgl.Vector) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

func vector(v [3]float64) fauxgl.Vector { return fauxgl.Vector{X: v[0], Y: v[1], Z: v[2]} }
