package raster

// FilterMode is a Warcraft III layer filter mode, numbered exactly as in the
// MDX layer record so a decoder's value can be passed straight through.
type FilterMode uint32

// Layer filter modes (MDX layer record values).
const (
	FilterNone        FilterMode = 0
	FilterTransparent FilterMode = 1
	FilterBlend       FilterMode = 2
	FilterAdditive    FilterMode = 3
	FilterAddAlpha    FilterMode = 4
	FilterModulate    FilterMode = 5
	FilterModulate2x  FilterMode = 6
)

// Normalize maps out-of-range values to Blend, as mdx-m3-viewer does
// (RENDERING.md §6.1), so sorting and state selection agree on them.
func (m FilterMode) Normalize() FilterMode {
	if m > FilterModulate2x {
		return FilterBlend
	}
	return m
}

// Opaque reports whether batches of this mode belong to the opaque group
// (None and Transparent), which is drawn first and never sorted.
func (m FilterMode) Opaque() bool { return m.Normalize() <= FilterTransparent }

// LayerFlags are the MDX layer shading flags that affect rasterisation.
type LayerFlags uint32

// Layer shading flags (MDX layer record bits).
const (
	FlagUnshaded     LayerFlags = 0x1
	FlagSphereEnvMap LayerFlags = 0x2 // parsed by every viewer, drawn by none; ignored here too
	FlagTwoSided     LayerFlags = 0x10
	FlagUnfogged     LayerFlags = 0x20 // no fog here, so no effect
	FlagNoDepthTest  LayerFlags = 0x40
	FlagNoDepthSet   LayerFlags = 0x80
)

// BlendOp says how a fragment is combined with the premultiplied colour
// buffer. The operations are the WC3 blend functions rewritten for a
// premultiplied target, so that a transparent background stays meaningful.
// With s the fragment's straight colour (clamped to 0..1), a its alpha, and
// (C, A) the premultiplied destination, each op computes:
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

// State is the fixed-function state of one batch.
type State struct {
	Blend BlendOp
	// AlphaTest discards fragments whose final alpha is below AlphaRef
	// (strictly less, as the viewer's `if (a < ref) discard`).
	AlphaTest bool
	AlphaRef  float32
	// DepthTest compares with LESS-EQUAL, so later layers of a multi-layer
	// material pass on the very same triangles.
	DepthTest bool
	// DepthWrite writes the fragment depth after the alpha test. It is
	// honoured as given even without DepthTest; LayerState clears it when the
	// layer has NoDepthTest, because GL writes no depth with the test off.
	DepthWrite bool
	Cull       CullMode
	// Lit multiplies rgb by clamp(clamp(N·L,0,1)+0.7, 0, 1) per fragment.
	Lit bool
}

// Alpha-test references of RENDERING.md §6.1.
const (
	TransparentAlphaRef = 0.75
	ModulateAlphaRef    = 0.02
)

// LayerState returns the state for a material layer with the given filter
// mode and shading flags, following RENDERING.md §6.1 (the mdx-m3-viewer
// table): opaque modes replace with depth write, Transparent adds the 0.75
// alpha test, translucent modes blend without depth write, the modulate modes
// test alpha at 0.02. TwoSided disables culling, Unshaded disables lighting,
// NoDepthSet disables depth writes and NoDepthTest disables the depth test
// (and with it depth writes, as in GL).
func LayerState(mode FilterMode, flags LayerFlags) State {
	s := State{DepthTest: true, Cull: CullBack, Lit: true}
	switch mode.Normalize() {
	case FilterNone:
		s.Blend, s.DepthWrite = BlendReplace, true
	case FilterTransparent:
		s.Blend, s.DepthWrite = BlendReplace, true
		s.AlphaTest, s.AlphaRef = true, TransparentAlphaRef
	case FilterBlend:
		s.Blend = BlendOver
	case FilterAdditive, FilterAddAlpha:
		s.Blend = BlendAdd
	case FilterModulate:
		s.Blend = BlendModulate
		s.AlphaTest, s.AlphaRef = true, ModulateAlphaRef
	case FilterModulate2x:
		s.Blend = BlendModulate2x
		s.AlphaTest, s.AlphaRef = true, ModulateAlphaRef
	}
	if flags&FlagUnshaded != 0 {
		s.Lit = false
	}
	if flags&FlagTwoSided != 0 {
		s.Cull = CullNone
	}
	if flags&FlagNoDepthSet != 0 {
		s.DepthWrite = false
	}
	if flags&FlagNoDepthTest != 0 {
		s.DepthTest, s.DepthWrite = false, false
	}
	return s
}

// EmitterFilterMode is a particle emitter 2 filter mode, numbered as in the
// MDX PRE2 record.
type EmitterFilterMode uint32

// Particle emitter 2 filter modes.
const (
	EmitterBlend      EmitterFilterMode = 0
	EmitterAdditive   EmitterFilterMode = 1
	EmitterModulate   EmitterFilterMode = 2
	EmitterModulate2x EmitterFilterMode = 3
	EmitterAlphaKey   EmitterFilterMode = 4
)

// EmitterState returns the state for particle quads per RENDERING.md §6.3:
// depth test on, no depth write, no culling, never lit. Unknown modes are
// drawn as Blend.
func EmitterState(mode EmitterFilterMode) State {
	s := State{Blend: BlendOver, DepthTest: true, Cull: CullNone}
	switch mode {
	case EmitterAdditive:
		s.Blend = BlendAdd
	case EmitterModulate:
		s.Blend = BlendModulate
		s.AlphaTest, s.AlphaRef = true, ModulateAlphaRef
	case EmitterModulate2x:
		s.Blend = BlendModulate2x
		s.AlphaTest, s.AlphaRef = true, ModulateAlphaRef
	case EmitterAlphaKey:
		s.AlphaTest, s.AlphaRef = true, TransparentAlphaRef
	}
	return s
}
