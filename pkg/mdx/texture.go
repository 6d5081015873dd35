package mdx

// Texture is one TEXS entry (268 bytes).
type Texture struct {
	// ReplaceableID: 0 = use Path; 1 team colour, 2 team glow, 11 cliff,
	// 31..37 trees, etc. (docs/rendering.md#replaceable-textures-and-team-colour).
	ReplaceableID uint32
	Path          string // path[260]
	Flags         uint32 // TexWrapWidth | TexWrapHeight
	rec           rec
}

// Texture.Flags bits.
const (
	TexWrapWidth  = 1
	TexWrapHeight = 2
)

// TextureAnim is one TXAN record (inclusive size, then tracks): a UV
// transform referenced by Layer.TextureAnimID.
type TextureAnim struct {
	Translation *Track[Vec3] // KTAT
	Rotation    *Track[Quat] // KTAR
	Scaling     *Track[Vec3] // KTAS
	rec         rec
}
