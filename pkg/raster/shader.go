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
	rho2 := max(float32(dux*dux)+float32(dvx*dvx), float32(duy*duy)+float32(dvy*dvy))
	if rho2 > 0 {
		return lambda(rho2) + f.lodBias
	}
	return -32
}

// shadeSpanShader shades the n fragments that rasterTri found
// with the batch's Shader in place of the fixed texture and lighting rule
// (shadeSpan), then blends them as the fixed rule does (blendSpan). It
// fills f with every attribute interpolated, the UV derivatives of the
// LOD and the batch colour, with the fixed rule's arithmetic term for
// term, so a Shader that samples and multiplies as the fixed rule does
// gets the same bits.
func (t *Target) shadeSpanShader(tr *tri, b *batchInfo, n int, lodBias float32, f *Fragment, sp *spanBuf) {
	sh := b.shader
	a0, a1, a2 := &tr.attr[0], &tr.attr[1], &tr.attr[2]
	*f = Fragment{lodBias: lodBias}
	for i := range n {
		p0, p1, p2, iq := sp.p0[i], sp.p1[i], sp.p2[i], sp.iq[i]
		f.Color = b.color
		if b.vertexColor {
			f.Color[0] *= float32(p0*a0[2]) + float32(p1*a1[2]) + float32(p2*a2[2])
			f.Color[1] *= float32(p0*a0[3]) + float32(p1*a1[3]) + float32(p2*a2[3])
			f.Color[2] *= float32(p0*a0[4]) + float32(p1*a1[4]) + float32(p2*a2[4])
			f.Color[3] *= float32(p0*a0[5]) + float32(p1*a1[5]) + float32(p2*a2[5])
		}
		u := float32(p0*a0[0]) + float32(p1*a1[0]) + float32(p2*a2[0])
		v := float32(p0*a0[1]) + float32(p1*a1[1]) + float32(p2*a2[1])
		f.UV = [2]float32{u, v}
		// d(u)/dx = (d(u/w)/dx − u·d(1/w)/dx)·w, in UV units; Fragment.LOD
		// scales them to a texture's texels.
		f.dudx = (tr.du[0] - float32(u*tr.dq[0])) * iq
		f.dvdx = (tr.dv[0] - float32(v*tr.dq[0])) * iq
		f.dudy = (tr.du[1] - float32(u*tr.dq[1])) * iq
		f.dvdy = (tr.dv[1] - float32(v*tr.dq[1])) * iq
		f.Normal = [3]float32{
			float32(p0*a0[6]) + float32(p1*a1[6]) + float32(p2*a2[6]),
			float32(p0*a0[7]) + float32(p1*a1[7]) + float32(p2*a2[7]),
			float32(p0*a0[8]) + float32(p1*a1[8]) + float32(p2*a2[8])}
		f.Light = [3]float32{
			float32(p0*a0[9]) + float32(p1*a1[9]) + float32(p2*a2[9]),
			float32(p0*a0[10]) + float32(p1*a1[10]) + float32(p2*a2[10]),
			float32(p0*a0[11]) + float32(p1*a1[11]) + float32(p2*a2[11])}
		c := sh.Shade(f)
		sp.r[i], sp.g[i], sp.b[i], sp.a[i] = c[0], c[1], c[2], c[3]
	}
	t.blendSpan(&b.st, n, sp)
}
