package texture

import "math"

// Sample filters the texture at (u, v) and returns straight-alpha RGBA in
// [0, 1].
//
// Texel centres sit at (i+0.5)/width, v = 0 is the first row (DirectX
// orientation, as the reference viewer uploads BLP rows unflipped), and
// each axis clamps or repeats according to t.Wrap. Filtering is bilinear
// within a level and linear between the two levels around lod (lod 0 is
// level 0, lod 1 level 1, ...; values below 0 magnify with level 0).
//
// The four texels are weighted in premultiplied form and the result is
// divided by its alpha again, so the colour of fully transparent texels
// (often black or garbage in BLP files) does not bleed into the edges of
// cut-out leaves and hair. A fully transparent result has colour 0.
func (t *Texture) Sample(u, v, lod float32) [4]float32 {
	p := t.SamplePremultiplied(u, v, lod)
	if p[3] <= 0 {
		return [4]float32{}
	}
	inv := 1 / p[3]
	return [4]float32{min(p[0]*inv, 1), min(p[1]*inv, 1), min(p[2]*inv, 1), p[3]}
}

// SamplePremultiplied is Sample without the final division: it returns
// premultiplied RGBA in [0, 1], for callers that blend in premultiplied
// form.
func (t *Texture) SamplePremultiplied(u, v, lod float32) [4]float32 {
	n := len(t.Levels)
	if n == 0 {
		return [4]float32{}
	}
	if t.Levels[0] == nil { // a partly decoded texture: its finest level
		first := t.First()
		if first >= n {
			return [4]float32{}
		}
		if !(lod > float32(first)) {
			return t.bilinear(first, u, v)
		}
	}
	if !(lod > 0) { // also catches NaN
		return t.bilinear(0, u, v)
	}
	if lod >= float32(n-1) {
		return t.bilinear(n-1, u, v)
	}
	l0 := int(lod)
	f := lod - float32(l0)
	a := t.bilinear(l0, u, v)
	if f == 0 {
		return a
	}
	b := t.bilinear(l0+1, u, v)
	for i := range a {
		a[i] += (b[i] - a[i]) * f
	}
	return a
}

// axis returns the two texel indices around coordinate c on an axis of
// size n, and the weight of the second.
func axis(c float32, n int, repeat bool) (int, int, float32) {
	if c != c || c > 1e6 || c < -1e6 { // NaN or absurd: avoid int overflow
		c = 0
	}
	if repeat {
		c -= float32(math.Floor(float64(c)))
	}
	x := c*float32(n) - 0.5
	fx := float32(math.Floor(float64(x)))
	w := x - fx
	i0 := int(fx)
	i1 := i0 + 1
	if repeat {
		i0 = ((i0 % n) + n) % n
		i1 = ((i1 % n) + n) % n
	} else {
		i0 = min(max(i0, 0), n-1)
		i1 = min(max(i1, 0), n-1)
	}
	return i0, i1, w
}

// bilinear filters level l in premultiplied form.
func (t *Texture) bilinear(l int, u, v float32) [4]float32 {
	img := t.Levels[l]
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, x1, fx := axis(u, w, t.Wrap&WrapWidth != 0)
	y0, y1, fy := axis(v, h, t.Wrap&WrapHeight != 0)
	pix, stride := img.Pix, img.Stride
	var out [4]float32
	acc := func(x, y int, wt float32) {
		if wt == 0 {
			return
		}
		p := pix[y*stride+4*x : y*stride+4*x+4 : y*stride+4*x+4]
		a := float32(p[3]) * wt
		out[0] += float32(p[0]) * a
		out[1] += float32(p[1]) * a
		out[2] += float32(p[2]) * a
		out[3] += a
	}
	acc(x0, y0, (1-fx)*(1-fy))
	acc(x1, y0, fx*(1-fy))
	acc(x0, y1, (1-fx)*fy)
	acc(x1, y1, fx*fy)
	const k = 1.0 / (255 * 255)
	return [4]float32{out[0] * k, out[1] * k, out[2] * k, out[3] * (1.0 / 255)}
}

// LOD returns the level of detail for a pixel whose texture coordinates
// change by (dudx, dvdx) and (dudy, dvdy) per screen pixel: log2 of the
// largest texel footprint, as GPUs compute it.
func (t *Texture) LOD(dudx, dvdx, dudy, dvdy float32) float32 {
	w, h := float32(t.Width()), float32(t.Height())
	ax, ay := dudx*w, dvdx*h
	bx, by := dudy*w, dvdy*h
	rho := max(ax*ax+ay*ay, bx*bx+by*by)
	if !(rho > 0) {
		return 0
	}
	return float32(0.5 * math.Log2(float64(rho)))
}
