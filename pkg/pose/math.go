package pose

import "math"

// Mat4 is a 4×4 matrix in column-major order (gl-matrix layout): element
// (row r, column c) is m[c*4+r], the translation is m[12], m[13], m[14].
type Mat4 [16]float64

// Identity is the identity matrix.
var Identity = Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// Mul returns a·b.
func (a *Mat4) Mul(b *Mat4) Mat4 {
	var o Mat4
	for c := 0; c < 4; c++ {
		b0, b1, b2, b3 := b[c*4], b[c*4+1], b[c*4+2], b[c*4+3]
		for r := 0; r < 4; r++ {
			o[c*4+r] = a[r]*b0 + a[4+r]*b1 + a[8+r]*b2 + a[12+r]*b3
		}
	}
	return o
}

// Point transforms the point p (w = 1).
func (a *Mat4) Point(p [3]float64) [3]float64 {
	return [3]float64{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2] + a[12],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2] + a[13],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2] + a[14],
	}
}

func qmul(a, b quat) quat {
	return quat{
		a[0]*b[3] + a[3]*b[0] + a[1]*b[2] - a[2]*b[1],
		a[1]*b[3] + a[3]*b[1] + a[2]*b[0] - a[0]*b[2],
		a[2]*b[3] + a[3]*b[2] + a[0]*b[1] - a[1]*b[0],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}

func qconj(q quat) quat { return quat{-q[0], -q[1], -q[2], q[3]} }

var qident = quat{0, 0, 0, 1}

// qrot rotates v by q (gl-matrix vec3.transformQuat).
func qrot(q quat, v [3]float64) [3]float64 {
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

func axisAngle(axis [3]float64, rad float64) quat {
	s := math.Sin(rad / 2)
	return quat{axis[0] * s, axis[1] * s, axis[2] * s, math.Cos(rad / 2)}
}

// trsOrigin is gl-matrix mat4.fromRotationTranslationScaleOrigin:
// T(v) · T(o) · R(q) · S(s) · T(−o).
func trsOrigin(q quat, v, s, o [3]float64) Mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	x2, y2, z2 := x+x, y+y, z+z
	xx, xy, xz := x*x2, x*y2, x*z2
	yy, yz, zz := y*y2, y*z2, z*z2
	wx, wy, wz := w*x2, w*y2, w*z2
	var m Mat4
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
func LookRotation(eye, target, up [3]float64) [4]float64 {
	z := norm3(sub3(eye, target))
	x := norm3(cross3(up, z))
	y := cross3(z, x)
	// Rows of the view rotation are x, y, z.
	return [4]float64(fromMat3(
		x[0], x[1], x[2],
		y[0], y[1], y[2],
		z[0], z[1], z[2]))
}

// fromMat3 converts a rotation matrix given by rows to a quaternion.
func fromMat3(m00, m01, m02, m10, m11, m12, m20, m21, m22 float64) quat {
	tr := m00 + m11 + m22
	var q quat
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = quat{(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4}
	case m00 > m11 && m00 > m22:
		s := math.Sqrt(1+m00-m11-m22) * 2
		q = quat{s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s}
	case m11 > m22:
		s := math.Sqrt(1+m11-m00-m22) * 2
		q = quat{(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s}
	default:
		s := math.Sqrt(1+m22-m00-m11) * 2
		q = quat{(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s}
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
