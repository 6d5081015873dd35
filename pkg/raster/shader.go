package raster

// Shader computes the colour of a batch's fragments itself, in place of the
// fixed rule (texel × colour × lighting). It is how a caller shades with
// several textures, a normal map or a rule of its own, while the rasteriser
// still does coverage, clipping, the depth test, perspective-correct
// interpolation, the alpha test, blending and depth writes as the batch's
// State says.
//
// Like a Sampler, a Shader is called from several band workers at once: it
// must be safe for concurrent use and keep no per-call state. It must be a
// pure function of the Fragment, or the output stops being deterministic.
type Shader interface {
	// Shade returns the fragment's straight (not premultiplied) RGBA. The
	// rasteriser clamps it to 0..1 before the alpha test and the blend.
	Shade(f *Fragment) [4]float32
}

// Fragment is what a Shader gets for one fragment: the batch's vertex
// attributes interpolated perspective-correctly at the pixel centre.
type Fragment struct {
	// UV is the interpolated Vertex.UV.
	UV [2]float32
	// Normal and Light are the interpolated Vertex.Normal and
	// Vertex.Light, not renormalised. A Shader may store any vectors there
	// (a light direction in a tangent frame, say): the rasteriser only
	// interpolates them.
	Normal, Light [3]float32
	// Color is Batch.Color, times the interpolated Vertex.Color when
	// Batch.VertexColor is set.
	Color [4]float32

	// Screen-space derivatives of UV per pixel (d/dx, d/dy) and the
	// DrawOptions.LODBias, for LOD.
	dudx, dvdx, dudy, dvdy float32
	lodBias                float32
}

// LOD returns the level of detail at which to sample a w×h texture at
// this fragment: exactly what the fixed rule passes to Batch.Texture's
// Sample for a texture of that size (GL's λ, DrawOptions.LODBias
// included; −32 where UV does not change across the pixel).
func (f *Fragment) LOD(w, h int) float32 {
	fw, fh := float32(max(w, 1)), float32(max(h, 1))
	dux, dvx := f.dudx*fw, f.dvdx*fh
	duy, dvy := f.dudy*fw, f.dvdy*fh
	rho2 := max(dux*dux+dvx*dvx, duy*duy+dvy*dvy)
	if rho2 > 0 {
		return 0.5*log2f(rho2) + f.lodBias
	}
	return -32
}

// rasterTriShaded is rasterTri for a batch with a Shader: the same span
// walk, depth test and interpolation, then Shader.Shade in place of the
// fixed texture and lighting rule, then the same clamp, alpha test, blend
// and depth write (blendSpan, per row). It is kept apart from rasterTri so that batches without
// a Shader run exactly the fixed-rule loop; a rewrite of that loop has to
// carry these steps over (interpolate every attribute into a Fragment, the
// UV derivatives of the LOD, the call).
func (t *Target) rasterTriShaded(tr *tri, b *batchInfo, ys, ye int, lodBias float32, f *Fragment, sp *spanBuf) {
	st := &b.st
	sh := b.shader
	e0, e1, e2 := tr.e[0], tr.e[1], tr.e[2]
	s0, s1, s2 := e0.a*subOne, e1.a*subOne, e2.a*subOne
	inv := tr.invArea
	z0, z1, z2 := tr.z[0], tr.z[1], tr.z[2]
	q0, q1, q2 := tr.q[0], tr.q[1], tr.q[2]
	a0, a1, a2 := &tr.attr[0], &tr.attr[1], &tr.attr[2]
	depth := t.Depth
	W := t.Width
	*f = Fragment{lodBias: lodBias}
	sp.grow(int(tr.maxX) - int(tr.minX) + 1)
	for y := ys; y <= ye; y++ {
		xl, xr := tr.span(y)
		if xl > xr {
			continue
		}
		py := int64(y)*subOne + subOne/2
		pxl := xl*subOne + subOne/2
		w0 := e0.a*pxl + e0.b*py + e0.c
		w1 := e1.a*pxl + e1.b*py + e1.c
		w2 := e2.a*pxl + e2.b*py + e2.c
		row := depth[y*W : (y+1)*W]
		n := 0
		for x := int(xl); x <= int(xr); x, w0, w1, w2 = x+1, w0+s0, w1+s1, w2+s2 {
			l0, l1, l2 := float32(w0)*inv, float32(w1)*inv, float32(w2)*inv
			z := l0*z0 + l1*z1 + l2*z2
			if st.DepthTest && z > row[x] {
				continue
			}
			q := l0*q0 + l1*q1 + l2*q2
			iq := 1 / q
			p0, p1, p2 := l0*q0*iq, l1*q1*iq, l2*q2*iq
			f.Color = b.color
			if b.vertexColor {
				f.Color[0] *= p0*a0[2] + p1*a1[2] + p2*a2[2]
				f.Color[1] *= p0*a0[3] + p1*a1[3] + p2*a2[3]
				f.Color[2] *= p0*a0[4] + p1*a1[4] + p2*a2[4]
				f.Color[3] *= p0*a0[5] + p1*a1[5] + p2*a2[5]
			}
			u := p0*a0[0] + p1*a1[0] + p2*a2[0]
			v := p0*a0[1] + p1*a1[1] + p2*a2[1]
			f.UV = [2]float32{u, v}
			// d(u)/dx = (d(u/w)/dx − u·d(1/w)/dx)·w, in UV units; Fragment.LOD
			// scales them to a texture's texels.
			f.dudx = (tr.du[0] - u*tr.dq[0]) * iq
			f.dvdx = (tr.dv[0] - v*tr.dq[0]) * iq
			f.dudy = (tr.du[1] - u*tr.dq[1]) * iq
			f.dvdy = (tr.dv[1] - v*tr.dq[1]) * iq
			f.Normal = [3]float32{
				p0*a0[6] + p1*a1[6] + p2*a2[6],
				p0*a0[7] + p1*a1[7] + p2*a2[7],
				p0*a0[8] + p1*a1[8] + p2*a2[8]}
			f.Light = [3]float32{
				p0*a0[9] + p1*a1[9] + p2*a2[9],
				p0*a0[10] + p1*a1[10] + p2*a2[10],
				p0*a0[11] + p1*a1[11] + p2*a2[11]}
			c := sh.Shade(f)
			sp.x[n], sp.z[n] = int32(x), z
			sp.r[n], sp.g[n], sp.b[n], sp.a[n] = c[0], c[1], c[2], c[3]
			n++
		}
		if n > 0 {
			t.blendSpan(st, y, n, sp)
		}
	}
}
