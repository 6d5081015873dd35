// Package raster is mdxrender's small deterministic CPU rasteriser: a float
// premultiplied colour buffer, a depth buffer and the Warcraft III blend
// modes, plus the camera and framing maths of the reference harness.
//
// It knows nothing about models or textures. A renderer poses a model,
// transforms vertices to clip space with Camera.ViewProjection, fills one
// Batch per geoset layer with LayerState(filterMode, flags), orders them with
// DrawOrder, and calls Target.Draw then Target.Resolve:
//
//	cam, _ := raster.Framing{Box: box, Yaw: 30, Pitch: 20}.Camera()
//	vp := cam.ViewProjection(float64(w) / float64(h))
//	tg, _ := raster.NewTarget(w*k, h*k) // k = supersampling factor
//	tg.Draw(batches, raster.DrawOptions{})
//	img, _ := tg.Resolve(k, nil) // nil: transparent background
//
// # Pipeline per fragment
//
// Coverage uses fixed-point (1/256 pixel) edge functions sampled at pixel
// centres (+0.5) with a top-left fill rule, so triangles sharing an edge
// never both draw a pixel. Triangles are clipped in homogeneous space
// against the near and far planes and a ±2·w guard band, then set up once.
// Per fragment: depth test (LESS-EQUAL, so the later layers of a multi-layer
// material pass on the same triangles), perspective-correct UV, colour,
// normal and light vector; colour = texel × batch colour × vertex colour;
// lighting clamp(clamp(N·L, 0, 1) + 0.7, 0, 1) per fragment as the reference
// viewer's shader does (RENDERING.md §7); clamp to 0..1; alpha test; blend
// (see BlendOp); depth write.
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
