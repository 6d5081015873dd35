package mdx

// Vec4 is four float32s, e.g. a Reforged vertex tangent (x, y, z, sign).
type Vec4 [4]float32

// Geoset is one GEOS record: a mesh. Sub-chunks in file order: VRTX, NRMS,
// PTYP, PCNT, PVTX, GNDX, MTGC, MATS, the scalar fields, [v900+: LOD fields],
// extents, [TANG], [SKIN], UVAS with one UVBS per UV set.
type Geoset struct {
	Vertices []Vec3 // VRTX
	Normals  []Vec3 // NRMS
	// FaceTypes (PTYP) and FaceGroups (PCNT) describe how Faces is split
	// into primitive groups; type 4 = triangles, the only one in practice.
	FaceTypes  []uint32
	FaceGroups []uint32 // index count per group
	Faces      []uint16 // PVTX: vertex indices, three per triangle
	// VertexGroups (GNDX) gives each vertex's matrix group (SD skinning).
	VertexGroups []uint8
	// MatrixGroups (MTGC) is the number of bones in each matrix group; the
	// groups' bone object ids follow each other in MatrixIndices (MATS).
	MatrixGroups  []uint32
	MatrixIndices []uint32

	MaterialID     uint32
	SelectionGroup uint32
	// SelectionFlags: GeosetUnselectable.
	SelectionFlags uint32

	// LOD and LODName exist from v900 (lod u32, lodName[80]).
	LOD     uint32
	LODName string

	Extent Extent
	// SequenceExtents has one extent per sequence.
	SequenceExtents []Extent

	// Tangents (TANG, v900+) and Skin (SKIN, v900+: per vertex 4 bone
	// indices then 4 weights out of 255). Nil means the sub-chunk is absent;
	// a non-nil empty slice is a present sub-chunk with count 0.
	Tangents []Vec4
	Skin     []byte

	// BoneIndices (BIDX) and BoneWeights (BWGT) exist only in WoW v1300
	// and v1400 geosets: one u32 each per entry, holding four u8 bone
	// object ids and four u8 weights (weight bytes in the opposite order).
	// They are not in vertex order: in Boar.mdx entry k describes the k-th
	// vertex when vertices are stably sorted by VertexGroups, i.e. they
	// restate the matrix groups. Renderers should skin these geosets with
	// the matrix groups; the words are kept for lossless encoding.
	BoneIndices []uint32
	BoneWeights []uint32

	// UVSets is UVAS: one slice of texture coordinates per set (UVBS).
	UVSets [][]Vec2
	rec    rec
}

// GeosetAnim is one GEOA record: geoset alpha and colour.
type GeosetAnim struct {
	Alpha float32
	// Flags: GeoaDropShadow, GeoaUseColor.
	Flags uint32
	// Color is the static colour in MDX order (the MDL text reverses it).
	Color      Vec3
	GeosetID   int32
	AlphaTrack *Track[float32] // KGAO
	ColorTrack *Track[Vec3]    // KGAC
	rec        rec
}

// GeosetUnselectable is the Geoset.SelectionFlags bit of a geoset the
// editor does not let one select.
const GeosetUnselectable = 0x4

// GeosetAnim.Flags bits.
const (
	GeoaDropShadow = 0x1
	GeoaUseColor   = 0x2
)
