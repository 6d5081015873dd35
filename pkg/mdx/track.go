package mdx

import "slices"

// Vec2 is two float32s, e.g. a texture coordinate (u, v).
type Vec2 [2]float32

// Vec3 is three float32s: a position, a scale, or a colour in the component
// order the MDX stores it.
type Vec3 [3]float32

// Quat is a rotation quaternion stored as (x, y, z, w).
type Quat [4]float32

// Interpolation is the interpolation type of a track (the u32 after the key
// count in every track chunk).
type Interpolation uint32

// Interpolation types. Only Hermite and Bezier keys carry tangents.
const (
	DontInterp Interpolation = 0
	Linear     Interpolation = 1
	Hermite    Interpolation = 2
	Bezier     Interpolation = 3
)

// HasTangents reports whether keys of this interpolation type store InTan and
// OutTan in the file (type greater than Linear).
func (i Interpolation) HasTangents() bool { return i > Linear }

// String returns the MDL spelling of the interpolation type.
func (i Interpolation) String() string {
	switch i {
	case DontInterp:
		return "DontInterp"
	case Linear:
		return "Linear"
	case Hermite:
		return "Hermite"
	case Bezier:
		return "Bezier"
	}
	return "Interpolation(" + itoa(int64(i)) + ")"
}

// TrackValue is the set of value types a track can hold.
type TrackValue interface {
	uint32 | float32 | Vec3 | Quat
}

// Track is one animated-data block of the MDX (docs/formats.md#tracks): the tag
// (implied by the field that holds the track), key count, interpolation type,
// global sequence id, then the keys.
type Track[T TrackValue] struct {
	Interpolation Interpolation
	// GlobalSeqID indexes Model.GlobalSequences; -1 means the track follows
	// the model's sequences.
	GlobalSeqID int32
	Keys        []Key[T]
}

// Key is one keyframe. InTan and OutTan are only meaningful (and only stored
// in the file) when the track's interpolation is Hermite or Bezier.
type Key[T TrackValue] struct {
	Frame  int32
	Value  T
	InTan  T
	OutTan T
}

// ValueType says what a track tag's values are.
type ValueType uint8

// Value types of track tags.
const (
	TypeUint32 ValueType = iota + 1
	TypeFloat32
	TypeVec3
	TypeQuat
)

// Size returns the number of bytes one value of this type takes in the file.
func (v ValueType) Size() int {
	switch v {
	case TypeUint32, TypeFloat32:
		return 4
	case TypeVec3:
		return 12
	case TypeQuat:
		return 16
	}
	return 0
}

// TagInfo describes one known track tag.
type TagInfo struct {
	Tag   string    // four-character chunk tag, e.g. "KGTR"
	Type  ValueType // type of Value, InTan and OutTan
	Owner string    // record the tag belongs to, e.g. "Node", "Layer"
	// Name is the MDL block name of the track (Blizzard spelling), e.g.
	// "Translation", "InitVelocity", "AmbIntensity".
	Name string
}

// Tags lists every track tag this package decodes, with its value type. Any
// other tag met inside a record is kept as raw bytes (see the package doc).
// The slice is the caller's.
func Tags() []TagInfo { return slices.Clone(tags) }

var tags = []TagInfo{
	{"KGTR", TypeVec3, "Node", "Translation"},
	{"KGRT", TypeQuat, "Node", "Rotation"},
	{"KGSC", TypeVec3, "Node", "Scaling"},
	{"KMTF", TypeUint32, "Layer", "TextureID"},
	{"KMTA", TypeFloat32, "Layer", "Alpha"},
	{"KMTE", TypeFloat32, "Layer", "EmissiveGain"},
	{"KFC3", TypeVec3, "Layer", "FresnelColor"},
	{"KFCA", TypeFloat32, "Layer", "FresnelOpacity"},
	{"KFTC", TypeFloat32, "Layer", "FresnelTeamColor"},
	{"KTAT", TypeVec3, "TextureAnim", "Translation"},
	{"KTAR", TypeQuat, "TextureAnim", "Rotation"},
	{"KTAS", TypeVec3, "TextureAnim", "Scaling"},
	{"KGAO", TypeFloat32, "GeosetAnim", "Alpha"},
	{"KGAC", TypeVec3, "GeosetAnim", "Color"},
	{"KLAS", TypeFloat32, "Light", "AttenuationStart"},
	{"KLAE", TypeFloat32, "Light", "AttenuationEnd"},
	{"KLAC", TypeVec3, "Light", "Color"},
	{"KLAI", TypeFloat32, "Light", "Intensity"},
	{"KLBI", TypeFloat32, "Light", "AmbIntensity"},
	{"KLBC", TypeVec3, "Light", "AmbColor"},
	{"KLAV", TypeFloat32, "Light", "Visibility"},
	{"KATV", TypeFloat32, "Attachment", "Visibility"},
	{"KPEE", TypeFloat32, "ParticleEmitter", "EmissionRate"},
	{"KPEG", TypeFloat32, "ParticleEmitter", "Gravity"},
	{"KPLN", TypeFloat32, "ParticleEmitter", "Longitude"},
	{"KPLT", TypeFloat32, "ParticleEmitter", "Latitude"},
	{"KPEL", TypeFloat32, "ParticleEmitter", "LifeSpan"},
	{"KPES", TypeFloat32, "ParticleEmitter", "InitVelocity"},
	{"KPEV", TypeFloat32, "ParticleEmitter", "Visibility"},
	{"KP2S", TypeFloat32, "ParticleEmitter2", "Speed"},
	{"KP2R", TypeFloat32, "ParticleEmitter2", "Variation"},
	{"KP2L", TypeFloat32, "ParticleEmitter2", "Latitude"},
	{"KP2G", TypeFloat32, "ParticleEmitter2", "Gravity"},
	{"KP2E", TypeFloat32, "ParticleEmitter2", "EmissionRate"},
	{"KP2N", TypeFloat32, "ParticleEmitter2", "Width"},
	{"KP2W", TypeFloat32, "ParticleEmitter2", "Length"},
	{"KP2V", TypeFloat32, "ParticleEmitter2", "Visibility"},
	{"KPPA", TypeFloat32, "PopcornEmitter", "Alpha"},
	{"KPPC", TypeVec3, "PopcornEmitter", "Color"},
	{"KPPE", TypeFloat32, "PopcornEmitter", "EmissionRate"},
	{"KPPL", TypeFloat32, "PopcornEmitter", "LifeSpan"},
	{"KPPS", TypeFloat32, "PopcornEmitter", "Speed"},
	{"KPPV", TypeFloat32, "PopcornEmitter", "Visibility"},
	{"KRHA", TypeFloat32, "RibbonEmitter", "HeightAbove"},
	{"KRHB", TypeFloat32, "RibbonEmitter", "HeightBelow"},
	{"KRAL", TypeFloat32, "RibbonEmitter", "Alpha"},
	{"KRCO", TypeVec3, "RibbonEmitter", "Color"},
	{"KRTX", TypeUint32, "RibbonEmitter", "TextureSlot"},
	{"KRVS", TypeFloat32, "RibbonEmitter", "Visibility"},
	{"KCTR", TypeVec3, "Camera", "Translation"},
	{"KTTR", TypeVec3, "Camera", "Translation"}, // of the camera's Target block
	{"KCRL", TypeFloat32, "Camera", "Rotation"},
}

// LookupTag returns the description of a track tag, or false if the tag is
// not one this package decodes.
func LookupTag(tag string) (TagInfo, bool) {
	for _, t := range tags {
		if t.Tag == tag {
			return t, true
		}
	}
	return TagInfo{}, false
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
