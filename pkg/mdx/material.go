package mdx

// Material is one MTLS record: inclusive size, priorityPlane i32, flags u32,
// [v900/v1000: shader name[80]], "LAYS", layer count, layers.
type Material struct {
	PriorityPlane int32
	Flags         uint32 // MatConstantColor, MatSortPrimsFarZ, MatFullResolution...
	// Shader is the Reforged shader name (e.g. "Shader_HD_DefaultUnit"),
	// stored only for 900 <= Version < 1100.
	Shader string
	Layers []Layer
	rec    rec
}

// Material.Flags bits.
const (
	MatConstantColor  = 0x1
	MatSortPrimsNearZ = 0x8
	MatSortPrimsFarZ  = 0x10
	MatFullResolution = 0x20
)

// FilterMode is a layer's blend mode (Layer.FilterMode).
type FilterMode uint32

// Layer filter modes (docs/rendering.md#filter-modes).
const (
	FilterNone        FilterMode = 0
	FilterTransparent FilterMode = 1
	FilterBlend       FilterMode = 2
	FilterAdditive    FilterMode = 3
	FilterAddAlpha    FilterMode = 4
	FilterModulate    FilterMode = 5
	FilterModulate2x  FilterMode = 6
)

// Layer.Flags (shading flags) bits.
const (
	LayerUnshaded     = 0x1
	LayerSphereEnvMap = 0x2
	LayerTwoSided     = 0x10
	LayerUnfogged     = 0x20
	LayerNoDepthTest  = 0x40
	LayerNoDepthSet   = 0x80
	LayerUnlit        = 0x100
)

// Layer is one layer of a material (inclusive size, then the fields below in
// order, then tracks).
type Layer struct {
	FilterMode    FilterMode
	Flags         uint32 // shading flags, Layer* constants
	TextureID     int32  // index into Model.Textures
	TextureAnimID int32  // index into Model.TextureAnims, -1 = none
	CoordID       uint32 // UV set of the geoset
	Alpha         float32

	// Reforged fields: EmissiveGain from v900; the fresnel fields from v1000.
	EmissiveGain     float32
	FresnelColor     Vec3
	FresnelOpacity   float32
	FresnelTeamColor float32

	// ShaderTypeID (0 SD, 1 HD) and Textures exist only in v1100, where an
	// HD layer lists its texture slots instead of being split into several
	// layers.
	ShaderTypeID uint32
	Textures     []LayerTexture

	TextureIDTrack        *Track[uint32]  // KMTF (flipbook)
	AlphaTrack            *Track[float32] // KMTA
	EmissiveGainTrack     *Track[float32] // KMTE
	FresnelColorTrack     *Track[Vec3]    // KFC3
	FresnelOpacityTrack   *Track[float32] // KFCA
	FresnelTeamColorTrack *Track[float32] // KFTC
	rec                   rec
}

// LayerTexture is one texture slot of a v1100 layer: textureId u32, slot u32,
// optional KMTF track.
type LayerTexture struct {
	TextureID      uint32
	Slot           uint32 // 0 Diffuse, 1 Normal, 2 ORM, 3 Emissive, 4 TeamColor, 5 Reflections
	TextureIDTrack *Track[uint32]
}
