package m2

import "github.com/mdxrender/mdxrender/pkg/mdx"

// Array is an M2 (count, offset) pair; offsets are from the file start.
type Array struct {
	Count, Offset uint32
}

// Header holds the fixed 324-byte header's scalars and every block's
// (count, offset) pair, in file order (docs/formats.md#m2).
type Header struct {
	Version uint32
	Name    Array // model name including its NUL
	Flags   uint32

	GlobalSequences, Sequences, SequenceLookup, PlayableLookup Array
	Bones, KeyBoneLookup, Vertices, Views                      Array
	Colors, Textures, Transparency, TextureFlipbooks           Array
	TextureAnims, TexReplace, RenderFlags, BoneLookup          Array
	TextureLookup, TexUnitLookup, TransparencyLookup           Array
	TextureAnimLookup                                          Array

	// VertexBox and VertexRadius bound the vertices; BoundingBox and
	// BoundingRadius the collision volume (the 14 floats at 0xB4).
	VertexBox      [2]mdx.Vec3
	VertexRadius   float32
	BoundingBox    [2]mdx.Vec3
	BoundingRadius float32

	BoundingTriangles, BoundingVertices, BoundingNormals Array
	Attachments, AttachLookup, Events, Lights            Array
	Cameras, CameraLookup, RibbonEmitters, Particles     Array
}

// Vertex is one 48-byte vertex: position, four bone weights (out of 255)
// and bone indices, normal and two texture coordinates.
type Vertex struct {
	Position    mdx.Vec3
	BoneWeights [4]uint8
	BoneIndices [4]uint8
	Normal      mdx.Vec3
	UV          [2]mdx.Vec2
}

// View is one embedded level of detail (44 bytes): an index list into the
// vertices, triangles as indices into that list, per-vertex bone lookup
// properties, submeshes and texture units.
type View struct {
	Indices    []uint16
	Triangles  []uint16
	Properties [][4]uint8
	Submeshes  []Submesh
	TexUnits   []TexUnit
	BoneCount  uint32 // the last u32 (largest bone count per draw call)
}

// Submesh is one part of a view (32 bytes; 48 from v260 with a sort
// centre and radius).
type Submesh struct {
	ID                           uint16 // mesh part id: group*100 + variant
	Level                        uint16
	VertexStart, VertexCount     uint16 // range of View.Indices
	TriangleStart, TriangleCount uint16 // range of View.Triangles (indices, 3 per triangle)
	BoneCount, BoneComboIndex    uint16
	BoneInfluences               uint16
	CenterBone                   uint16
	Center                       mdx.Vec3
	SortCenter                   mdx.Vec3 // v260+
	SortRadius                   float32  // v260+
}

// TriangleFirst is the first index into View.Triangles: TriangleStart plus
// Level*65536 (Level extends the 16-bit start in large views).
func (s *Submesh) TriangleFirst() int { return int(s.TriangleStart) + int(s.Level)<<16 }

// TexUnit is one 24-byte texture unit (batch): what is drawn on a submesh
// and how.
type TexUnit struct {
	Flags         uint8
	PriorityPlane int8
	ShaderID      uint16
	Submesh       uint16
	GeosetIndex   uint16
	ColorIndex    int16 // -1 none
	RenderFlags   uint16
	MaterialLayer uint16
	TextureCount  uint16
	TextureCombo  uint16 // index into TextureLookup
	CoordCombo    uint16
	Transparency  uint16 // index into TransparencyLookup
	TextureAnim   uint16 // index into TextureAnimLookup
}

// Track is a pre-Wrath animation block (28 bytes): interpolation, global
// sequence, per-sequence key ranges, then timestamps and values on the
// model's single timeline. For Hermite and Bezier blocks Values holds
// (value, in tangent, out tangent) triples.
type Track[T any] struct {
	Interpolation uint16
	GlobalSeq     int16
	Ranges        [][2]uint32
	Times         []uint32
	Values        []T
}

// Sequence is one 68-byte animation.
type Sequence struct {
	ID, SubID  uint16
	Start, End uint32
	MoveSpeed  float32
	Flags      uint32
	Frequency  int16
	Replay     [2]uint32
	BlendTime  uint32
	BoxMin     mdx.Vec3
	BoxMax     mdx.Vec3
	Radius     float32
	NextAnim   int16
	Index      uint16
}

// Bone is one bone (108 bytes; 112 from v260). Rotation keys are decoded to
// float quaternions (x, y, z, w) whether stored as floats (v256–259) or
// compressed int16s (v260+).
type Bone struct {
	KeyBone     int32
	Flags       uint32 // 0x8 billboard, 0x10/0x20/0x40 billboard locks
	Parent      int16
	Submesh     uint16
	NameCRC     uint32 // v260+
	Translation Track[mdx.Vec3]
	Rotation    Track[mdx.Quat]
	Scaling     Track[mdx.Vec3]
	Pivot       mdx.Vec3
}

// Texture is one 16-byte texture definition.
type Texture struct {
	Type     uint32 // 0 = file name; else a WoW replaceable id
	Flags    uint32 // 1 wrap X, 2 wrap Y
	Filename string
}

// RenderFlag is one render flags entry (M2Material): flags and blend mode.
type RenderFlag struct {
	Flags uint16 // 0x1 unlit, 0x2 unfogged, 0x4 two-sided, 0x8 no depth test, 0x10 no depth write
	Blend uint16 // BlendOpaque...BlendMod2x
}

// Blend modes.
const (
	BlendOpaque   = 0
	BlendAlphaKey = 1
	BlendAlpha    = 2
	BlendAdd      = 3 // additive, no alpha
	BlendAddAlpha = 4
	BlendMod      = 5
	BlendMod2x    = 6
)

// Render flag bits.
const (
	RenderUnlit    = 0x1
	RenderUnfogged = 0x2
	RenderTwoSided = 0x4
	// RenderNoDepthTest (older documents call it "billboard"; later
	// ones "no z-buffer") is set in the vanilla files only on interface
	// overlays drawn over everything: MinimapArrow, UI-BuffOn.
	RenderNoDepthTest  = 0x8
	RenderNoDepthWrite = 0x10
)

// Color is a colour block: an RGB track and an alpha track (fixed-point
// int16, 32767 = 1).
type Color struct {
	Color Track[mdx.Vec3]
	Alpha Track[int16]
}

// TextureAnim is a texture transform: translation, rotation (float
// quaternions in every version) and scaling tracks.
type TextureAnim struct {
	Translation Track[mdx.Vec3]
	Rotation    Track[mdx.Quat]
	Scaling     Track[mdx.Vec3]
}

// Camera is one pre-Wrath camera (124 bytes): its type (-1 free, 0
// portrait, 1 character info), field of view in radians and clip planes,
// then the eye and the target, each a base position plus an animated
// offset, and a roll track (radians). The offset tracks hold spline keys
// (value, in tangent, out tangent); Values keeps the value of each.
type Camera struct {
	Type                           int32
	FieldOfView, FarClip, NearClip float32
	Position                       Track[mdx.Vec3]
	PositionBase                   mdx.Vec3
	Target                         Track[mdx.Vec3]
	TargetBase                     mdx.Vec3
	Roll                           Track[float32]
}

// File is a decoded M2.
type File struct {
	Header          Header
	Name            string
	GlobalSequences []uint32
	Sequences       []Sequence
	Bones           []Bone
	Vertices        []Vertex
	Views           []View
	Colors          []Color
	Textures        []Texture
	Transparency    []Track[int16]
	TextureAnims    []TextureAnim
	RenderFlags     []RenderFlag
	Cameras         []Camera
	Particles       []ParticleEmitter
	Ribbons         []RibbonEmitter

	BoneLookup         []uint16
	TextureLookup      []uint16
	TexUnitLookup      []uint16 // texture coordinate set per TexUnit.CoordCombo; 0xFFFF = sphere map
	TransparencyLookup []uint16
	TextureAnimLookup  []int16
}
