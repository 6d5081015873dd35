package mdx

// Model is a whole Warcraft III model: one field per MDX chunk. The zero
// value plus a Version is a valid, empty model.
type Model struct {
	// Version is the VERS chunk: 800 (RoC/TFT), 900, 1000, 1100 or 1200 (Reforged).
	// It decides the layout of MTLS layers, GEOS and other records. The
	// encoder writes 0 as 800; a file without VERS decodes as 800.
	Version uint32

	// Name, AnimationFile, Extent and BlendTime are the MODL chunk
	// (name[80], animationFile[260], extent, blendTime u32).
	Name          string
	AnimationFile string
	Extent        Extent
	BlendTime     uint32

	Sequences         []Sequence         // SEQS, 132 bytes per entry
	GlobalSequences   []uint32           // GLBS, durations in ms
	Materials         []Material         // MTLS
	Textures          []Texture          // TEXS, 268 bytes per entry
	TextureAnims      []TextureAnim      // TXAN
	Geosets           []Geoset           // GEOS
	GeosetAnims       []GeosetAnim       // GEOA
	Bones             []Bone             // BONE
	Lights            []Light            // LITE
	Helpers           []Helper           // HELP
	Attachments       []Attachment       // ATCH
	PivotPoints       []Vec3             // PIVT, indexed by Node.ObjectID
	ParticleEmitters  []ParticleEmitter  // PREM
	ParticleEmitters2 []ParticleEmitter2 // PRE2
	PopcornEmitters   []PopcornEmitter   // CORN (v900+)
	RibbonEmitters    []RibbonEmitter    // RIBB
	Cameras           []Camera           // CAMS
	EventObjects      []EventObject      // EVTS
	CollisionShapes   []CollisionShape   // CLID
	FaceEffects       []FaceEffect       // FAFX (v900+), 340 bytes per entry
	BindPose          [][12]float32      // BPOS (v900+): one 3x4 matrix per node
	SoundTracks       []SoundTrack       // SNDS, 272 bytes per entry

	// WoWParticleEmitters and WoWRibbonEmitters are the emitters of an M2
	// (pkg/m2 converts them); no MDX chunk holds them and the encoders
	// write none.
	WoWParticleEmitters []WoWParticleEmitter
	WoWRibbonEmitters   []WoWRibbonEmitter

	// Unknown holds chunks whose tag this package does not know, verbatim and
	// in file order, so that they survive a save.
	Unknown []RawChunk

	// file remembers the chunk order and stray bytes of a decoded file; nil
	// for a model built in code (canonical order).
	file *fileLayout
}

// Extent is a bounding volume as the MDX stores it: the radius first, then
// the box (28 bytes).
type Extent struct {
	BoundsRadius float32
	Min, Max     Vec3
}

// RawChunk is a chunk this package does not decode: its four-character tag
// and payload (without the 8-byte header).
type RawChunk struct {
	Tag  string
	Data []byte
}

// FaceEffect is one FAFX entry (v900+): a Reforged facial-animation target
// (type[80], path[260]).
type FaceEffect struct {
	Type string
	Path string
	rec  rec
}

// SoundTrack is one SNDS entry (path[260], volume f32, pitch f32, flags u32),
// found in a few old files.
type SoundTrack struct {
	Path   string
	Volume float32
	Pitch  float32
	Flags  uint32
	rec    rec
}

// ClearFileDetails forgets everything the decoder remembered about the file's
// byte layout (chunk order, bytes after string terminators, padding,
// undecoded track tags at record ends) so that the model encodes in canonical
// form and compares equal (reflect.DeepEqual) to the same model built from
// another source, such as MDL text. Unknown chunks are kept.
func (m *Model) ClearFileDetails() {
	m.file = nil
	walkRecs(m, func(r *rec) { *r = rec{} })
}

// HasFileDetails reports whether the model remembers the byte layout of a
// decoded file (see ClearFileDetails).
func (m *Model) HasFileDetails() bool { return m.file != nil }
