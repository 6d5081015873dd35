package mdx

// Node is the generic-object header every node record starts with (BONE,
// LITE, HELP, ATCH, PREM, PRE2, CORN, RIBB, EVTS, CLID): inclusive size,
// name[80], objectId, parentId, flags, then KGTR/KGRT/KGSC tracks.
type Node struct {
	Name     string
	ObjectID int32
	// ParentID is the parent's ObjectID, -1 for a root.
	ParentID int32
	Flags    uint32 // NodeDontInheritTranslation, NodeBillboarded, ...

	Translation *Track[Vec3] // KGTR
	Rotation    *Track[Quat] // KGRT
	Scaling     *Track[Vec3] // KGSC
	nrec        rec
}

// Node.Flags bits (docs/rendering.md#order-and-parents).
const (
	NodeDontInheritTranslation = 0x1
	NodeDontInheritScaling     = 0x2
	NodeDontInheritRotation    = 0x4
	NodeBillboarded            = 0x8
	NodeBillboardedLockX       = 0x10
	NodeBillboardedLockY       = 0x20
	NodeBillboardedLockZ       = 0x40
	NodeCameraAnchored         = 0x80
	NodeBone                   = 0x100
	NodeLight                  = 0x200
	NodeEventObject            = 0x400
	NodeAttachment             = 0x800
	NodeParticleEmitter        = 0x1000
	NodeCollisionShape         = 0x2000
	NodeRibbonEmitter          = 0x4000
	// Emitter bits: PREM uses 0x8000 EmitterUsesMDL and 0x10000
	// EmitterUsesTGA; PRE2 uses them as Unshaded and SortPrimsFarZ.
	NodeUnshaded       = 0x8000
	NodeSortPrimsFarZ  = 0x10000
	NodeLineEmitter    = 0x20000
	NodeUnfogged       = 0x40000
	NodeModelSpace     = 0x80000
	NodeXYQuad         = 0x100000
	NodeEmitterUsesMDL = 0x8000
	NodeEmitterUsesTGA = 0x10000
)

// Bone is one BONE record: node, geosetId i32, geosetAnimationId i32
// (no size of its own).
type Bone struct {
	Node
	GeosetID     int32 // -1 = multiple/none
	GeosetAnimID int32 // -1 = none
}

// Helper is one HELP record: just a node.
type Helper struct {
	Node
}

// DefaultShadowIntensity is a version 1200 light's shadow intensity when
// its MDL text does not give one, as the editors that write the version
// assume.
const DefaultShadowIntensity = 0.4

// LightType is Light.Type.
type LightType uint32

// Light types.
const (
	LightOmni        LightType = 0
	LightDirectional LightType = 1
	LightAmbient     LightType = 2
)

// Light is one LITE record: inclusive size, node, type, attenuation start
// and end, colour[3], intensity, ambient colour[3], ambient intensity,
// [shadow intensity from v1200], tracks.
type Light struct {
	Node
	Type             LightType
	AttenuationStart float32
	AttenuationEnd   float32
	Color            Vec3 // MDX order
	Intensity        float32
	AmbColor         Vec3 // MDX order
	AmbIntensity     float32
	// ShadowIntensity is stored from version 1200 on, after
	// AmbIntensity. MDL text of version 1200 or later that leaves it out
	// reads as DefaultShadowIntensity, the value the editors write.
	ShadowIntensity float32

	AttenuationStartTrack *Track[float32] // KLAS
	AttenuationEndTrack   *Track[float32] // KLAE
	ColorTrack            *Track[Vec3]    // KLAC
	IntensityTrack        *Track[float32] // KLAI
	AmbIntensityTrack     *Track[float32] // KLBI
	AmbColorTrack         *Track[Vec3]    // KLBC
	Visibility            *Track[float32] // KLAV
	rec                   rec
}

// Attachment is one ATCH record: inclusive size, node, path[260],
// attachmentId, KATV.
type Attachment struct {
	Node
	Path         string
	AttachmentID int32
	Visibility   *Track[float32] // KATV
	rec          rec
}

// ParticleEmitter is one PREM record (the old model-spawning emitter):
// inclusive size, node, emissionRate, gravity, longitude, latitude,
// path[260], lifeSpan, speed, tracks.
type ParticleEmitter struct {
	Node
	EmissionRate float32
	Gravity      float32
	Longitude    float32
	Latitude     float32
	Path         string // spawned model
	LifeSpan     float32
	Speed        float32 // MDL: InitVelocity

	EmissionRateTrack *Track[float32] // KPEE
	GravityTrack      *Track[float32] // KPEG
	LongitudeTrack    *Track[float32] // KPLN
	LatitudeTrack     *Track[float32] // KPLT
	LifeSpanTrack     *Track[float32] // KPEL
	SpeedTrack        *Track[float32] // KPES
	Visibility        *Track[float32] // KPEV
	rec               rec
}

// ParticleEmitter2 is one PRE2 record (docs/particles.md#record-and-flags).
type ParticleEmitter2 struct {
	Node
	Speed        float32
	Variation    float32
	Latitude     float32
	Gravity      float32
	LifeSpan     float32
	EmissionRate float32
	// Width is stored before Length; KP2N animates Width, KP2W Length.
	Width      float32
	Length     float32
	FilterMode uint32 // 0 Blend, 1 Additive, 2 Modulate, 3 Modulate2x, 4 AlphaKey
	Rows       uint32
	Columns    uint32
	HeadOrTail uint32 // 0 Head, 1 Tail, 2 Both
	TailLength float32
	Time       float32
	// SegmentColors are three colours in MDX order.
	SegmentColors      [3]Vec3
	SegmentAlphas      [3]uint8
	SegmentScaling     Vec3
	HeadIntervals      [3]uint32 // LifeSpanUVAnim start, end, repeat
	HeadDecayIntervals [3]uint32
	TailIntervals      [3]uint32
	TailDecayIntervals [3]uint32
	TextureID          int32
	Squirt             uint32
	PriorityPlane      int32
	ReplaceableID      uint32

	SpeedTrack        *Track[float32] // KP2S
	VariationTrack    *Track[float32] // KP2R
	LatitudeTrack     *Track[float32] // KP2L
	GravityTrack      *Track[float32] // KP2G
	EmissionRateTrack *Track[float32] // KP2E
	WidthTrack        *Track[float32] // KP2N
	LengthTrack       *Track[float32] // KP2W
	Visibility        *Track[float32] // KP2V
	rec               rec
}

// PopcornEmitter is one CORN record (v900+, PopcornFX): inclusive size, node,
// lifeSpan, emissionRate, speed, colour[3], alpha, replaceableId, path[260],
// animationVisibilityGuide[260], tracks.
type PopcornEmitter struct {
	Node
	LifeSpan            float32
	EmissionRate        float32
	Speed               float32
	Color               Vec3
	Alpha               float32
	ReplaceableID       uint32
	Path                string
	AnimVisibilityGuide string

	AlphaTrack        *Track[float32] // KPPA
	ColorTrack        *Track[Vec3]    // KPPC
	EmissionRateTrack *Track[float32] // KPPE
	LifeSpanTrack     *Track[float32] // KPPL
	SpeedTrack        *Track[float32] // KPPS
	Visibility        *Track[float32] // KPPV
	rec               rec
}

// RibbonEmitter is one RIBB record (docs/particles.md#ribbons).
type RibbonEmitter struct {
	Node
	HeightAbove  float32
	HeightBelow  float32
	Alpha        float32
	Color        Vec3 // MDX order
	LifeSpan     float32
	TextureSlot  uint32
	EmissionRate uint32
	Rows         uint32
	Columns      uint32
	MaterialID   int32
	Gravity      float32

	HeightAboveTrack *Track[float32] // KRHA
	HeightBelowTrack *Track[float32] // KRHB
	AlphaTrack       *Track[float32] // KRAL
	ColorTrack       *Track[Vec3]    // KRCO
	TextureSlotTrack *Track[uint32]  // KRTX
	Visibility       *Track[float32] // KRVS
	rec              rec
}

// EventObject is one EVTS record: node, then a KEVT block (count,
// globalSequenceId, frames).
type EventObject struct {
	Node
	// GlobalSeqID of the KEVT block, -1 = none.
	GlobalSeqID int32
	// Frames are the times (ms) at which the event fires.
	Frames []uint32
	rec    rec
}

// ShapeType is CollisionShape.Type.
type ShapeType uint32

// Collision shape types.
const (
	ShapeBox      ShapeType = 0
	ShapePlane    ShapeType = 1
	ShapeSphere   ShapeType = 2
	ShapeCylinder ShapeType = 3
)

// CollisionShape is one CLID record: node, type, vertices (two, or one for a
// sphere and unknown types), then boundsRadius for spheres and cylinders.
type CollisionShape struct {
	Node
	Type         ShapeType
	Vertices     [2]Vec3
	BoundsRadius float32
	rec          rec
}

// NumVertices returns how many of Vertices the file stores for this shape.
func (c *CollisionShape) NumVertices() int {
	switch c.Type {
	case ShapeBox, ShapePlane, ShapeCylinder:
		return 2
	}
	return 1
}

// HasRadius reports whether the file stores BoundsRadius for this shape.
func (c *CollisionShape) HasRadius() bool {
	return c.Type == ShapeSphere || c.Type == ShapeCylinder
}
