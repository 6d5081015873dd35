// Package raster is mdxrender's small deterministic CPU rasteriser: a float
// premultiplied colour buffer, a depth buffer, a handful of fixed-function
// blend states and a look-at camera.
//
// It knows nothing about models, materials or textures. A caller projects
// its vertices to clip space with Camera.ViewProjection and ClipPosition,
// fills one Batch per draw call with the State it wants and a Sampler,
// orders the batches itself, and calls Target.Draw then Target.Resolve:
//
//	vp := cam.ViewProjection(float64(w) / float64(h))
//	tg, _ := raster.NewTarget(w*k, h*k) // k = supersampling factor
//	tg.Draw(batches, raster.DrawOptions{})
//	img, _ := tg.Resolve(k, nil) // nil: transparent background
//
// pkg/render is such a caller: it turns the Warcraft III material rules
// (filter modes, draw order, priority planes) into States and batch order.
//
// # Pipeline per fragment
//
// Coverage uses fixed-point (1/256 pixel) edge functions sampled at pixel
// centres (+0.5) with a top-left fill rule, so triangles sharing an edge
// never both draw a pixel. Triangles are clipped in homogeneous space
// against the near and far planes and a ±2·w guard band, then set up once.
// Per fragment: depth test (LESS-EQUAL, so a later batch over the very same
// triangles passes), perspective-correct UV, colour, normal and light
// vector; colour = texel × batch colour × vertex colour; lighting
// clamp(clamp(N·L, 0, 1) + Ambient, 0, 1) per fragment when the State is
// Lit; clamp to 0..1; alpha test; blend (see BlendOp); depth write.
//
// A Batch with a Shader replaces the colour and lighting steps with its
// own rule: the Shader gets the interpolated attributes in a Fragment
// (with the UV derivatives to choose mip levels of as many textures as it
// samples) and returns the colour; everything else is as above. This is
// how a caller draws materials the fixed rule cannot express, such as
// several texture slots and a normal map.
//
// # Bounded work
//
// A frame's cost is the pixels its triangles cover, which a small file can
// make huge (thousands of full-screen particle quads). DrawContext stops
// when its context is done, polling between triangles, and
// DrawOptions.MaxFragments leaves out the triangles past a bound on the
// estimated coverage before anything is drawn; DrawStats reports both.
//
// # Determinism
//
// Draw splits the frame into row bands; each band is drawn by one worker
// that walks every triangle of every batch in submission order. Pixel values
// depend only on the triangle and the pixel, never on the band layout, so
// the output is bit-identical for any GOMAXPROCS or DrawOptions.Workers.
// (Go may fuse multiply-adds on some architectures, such as arm64, so bits
// can differ between architectures, not between runs.)
package raster
