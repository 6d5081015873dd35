package raster

// BlendOp says how a fragment is combined with the premultiplied colour
// buffer. The operations are the classic fixed-function blend functions
// rewritten for a premultiplied target, so that a transparent background
// stays meaningful. With s the fragment's straight colour (clamped to 0..1),
// a its alpha, and (C, A) the premultiplied destination, each op computes:
//
//	BlendReplace:    C = s                    A = 1
//	BlendOver:       C = s·a + C·(1−a)        A = a + A·(1−a)   (GL SRC_ALPHA, ONE_MINUS_SRC_ALPHA)
//	BlendAdd:        C = C + s·a              A = A             (GL SRC_ALPHA, ONE)
//	BlendModulate:   C = C·s                  A = 1 − (1−A)·m   (GL ZERO, SRC_COLOR)
//	BlendModulate2x: C = 2·C·s                A = 1 − (1−A)·min(1, 2m) (GL DST_COLOR, SRC_COLOR)
//
// where m is the mean of s's channels; C is clamped to 0..1 afterwards, as an
// 8-bit GL framebuffer would be. Over an opaque background (A = 1) every op
// gives exactly the GL result. Over a transparent one, Replace, Over and Add
// are exact for any later background colour, and the modulate ops are exact
// for grey modulators (the background is darkened through alpha).
type BlendOp uint8

// Blend operations; see BlendOp for the equations.
const (
	BlendReplace BlendOp = iota
	BlendOver
	BlendAdd
	BlendModulate
	BlendModulate2x
)

// CullMode selects which faces are discarded. Front faces are
// counter-clockwise in normalised device coordinates (the GL default).
type CullMode uint8

// Cull modes.
const (
	CullBack CullMode = iota
	CullNone
)

// State is the fixed-function state of one batch. The zero State replaces
// the colour buffer, tests and writes no depth, culls back faces and is
// unlit.
type State struct {
	Blend BlendOp
	// AlphaTest discards fragments whose final alpha is below AlphaRef
	// (strictly less, as a shader's `if (a < ref) discard` does).
	AlphaTest bool
	AlphaRef  float32
	// DepthTest compares with LESS-EQUAL, so a later batch drawn over the
	// very same triangles (another layer of one material) passes.
	DepthTest bool
	// DepthWrite writes the fragment depth after the alpha test. It is
	// honoured as given even without DepthTest.
	DepthWrite bool
	Cull       CullMode
	// Lit multiplies rgb per fragment by a diffuse term plus an ambient
	// one, clamp(clamp(N·L, 0, 1) + Ambient, 0, 1), with N and L the
	// interpolated Vertex.Normal and Vertex.Light, not renormalised.
	Lit     bool
	Ambient float32
}
