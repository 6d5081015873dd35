package mdx

import "fmt"

// WoWParticleEmitter is a World of Warcraft particle emitter: the M2
// particle emitter that pkg/m2 converts (docs/particles.md#world-of-warcraft-m2-emitters),
// a descendant of PRE2 with emitter shapes, drag, wind and twinkle. It is
// not a node: it follows the bone it names, from Position in model space.
// Animated parameters are a static value plus an optional track, as
// elsewhere in this package: the track, when present, wins while the
// sequence has keys. No MDX chunk holds it (the early WoW PRE2 chunk, its
// MDX counterpart, is kept raw), so neither encoder writes it.
type WoWParticleEmitter struct {
	// Bone indexes Model.Bones, which are the first nodes of Model.Nodes.
	Bone     int32
	Position Vec3
	// Flags are the M2 particle flag bits (WoWParticle*).
	Flags uint32
	// EmitterType is the emission shape: WoWEmitterPlane, WoWEmitterSphere
	// or WoWEmitterSpline; others emit nothing.
	EmitterType uint32
	// FilterMode is the blend, numbered as layer filter modes (the M2
	// blending types are the render flags' blend modes).
	FilterMode FilterMode
	TextureID  int32
	// ParticleType is 0 head, 1 tail, 2 both.
	ParticleType  uint32
	PriorityPlane int32
	Rows, Columns uint32

	Speed, Variation                 float32 // speed and its relative variation
	VerticalRange, HorizontalRange   float32 // radians
	LifeSpan, EmissionRate           float32 // seconds, particles a second
	AreaLength, AreaWidth, ZSource   float32
	SpeedTrack, VariationTrack       *Track[float32]
	VerticalRangeTrack               *Track[float32]
	HorizontalRangeTrack             *Track[float32]
	LifeSpanTrack, EmissionRateTrack *Track[float32]
	AreaLengthTrack, AreaWidthTrack  *Track[float32]
	ZSourceTrack                     *Track[float32]
	// Gravity is the acceleration vector: a plain M2 gravity g is
	// (0, 0, −g); a compressed one may point anywhere.
	Gravity      Vec3
	GravityTrack *Track[Vec3]
	// Visibility is the M2 "enabled in" value: the emitter emits while it
	// is above 0.
	Visibility      float32
	VisibilityTrack *Track[float32]

	// MiddleTime splits the particle's life into the two segments the
	// colour, alpha, scale and cell ramps interpolate over.
	MiddleTime     float32
	SegmentColors  [3]Vec3 // start, middle, end, in MDX order (blue, green, red)
	SegmentAlphas  [3]uint8
	SegmentScaling [3]float32
	// Cell intervals (start, end exclusive, repeat) of the head in the
	// first and second segment and of the tail likewise.
	HeadIntervals, HeadDecayIntervals [3]uint32
	TailIntervals, TailDecayIntervals [3]uint32
	TailLength                        float32 // seconds of velocity a tail spans

	TwinkleSpeed, TwinklePercent float32
	TwinkleScale                 [2]float32 // min, max
	BurstMultiplier, Drag, Spin  float32
	Wind                         Vec3
	WindTime                     float32
	SplinePoints                 []Vec3
}

// WoWRibbonEmitter is a World of Warcraft ribbon emitter, converted from
// M2 by pkg/m2 (docs/particles.md#world-of-warcraft-ribbons): edges spanning
// HeightAbove and HeightBelow along the bone's Y axis, left behind as the
// bone moves. Like WoWParticleEmitter it follows a bone and is written by
// neither encoder.
type WoWRibbonEmitter struct {
	Bone     int32
	Position Vec3
	// Layers are the strips drawn, one per texture: its TextureID,
	// FilterMode and shading Flags (from the M2 render flags).
	Layers []Layer

	Color            Vec3 // MDX order (blue, green, red)
	Alpha            float32
	HeightAbove      float32
	HeightBelow      float32
	TextureSlot      uint32
	ColorTrack       *Track[Vec3]
	AlphaTrack       *Track[float32]
	HeightAboveTrack *Track[float32]
	HeightBelowTrack *Track[float32]
	TextureSlotTrack *Track[uint32]
	// Visibility: new edges are made while it is above 0.
	Visibility      float32
	VisibilityTrack *Track[float32]

	EdgesPerSecond float32
	LifeSpan       float32 // seconds an edge lives
	Gravity        float32
	Rows, Columns  uint32
}

// WoW particle emitter shapes (WoWParticleEmitter.EmitterType).
const (
	WoWEmitterPlane  = 1
	WoWEmitterSphere = 2
	WoWEmitterSpline = 3
)

// WoW particle emitter flag bits the renderer reads
// (docs/particles.md#m2-flags), named after what the later client does
// with them.
const (
	WoWParticleLit               = 0x1      // lit by the scene's lights
	WoWParticleVelocityQuads     = 0x4      // head quads stretched along the velocity
	WoWParticleEmitterSpace      = 0x10     // particles live in the emitter's space and follow it
	WoWParticleInheritScale      = 0x20     // particle size times the bone's scale
	WoWParticleBurst             = 0x40     // emitter motion adds to the velocity
	WoWParticleSphereInvert      = 0x80     // sphere particles die once past the centre
	WoWParticleUp                = 0x100    // sphere and spline particles move along +Z
	WoWParticleRandomSpin        = 0x200    // half the particles spin the other way
	WoWParticlePinned            = 0x400    // tails grow from the birth point
	WoWParticleXYQuads           = 0x1000   // quads lie in the emitter's XY plane, not facing the camera
	WoWParticleGroundClamp       = 0x2000   // born at height 0
	WoWParticleFollow            = 0x4000   // particles follow the emitter's motion
	WoWParticleRandomFlipbook    = 0x8000   // the emitter starts its cells at a random one
	WoWParticleRandomCell        = 0x10000  // each particle shows a random cell
	WoWParticleCompressedGravity = 0x800000 // gravity values are compressed vectors
)

// validateWoWEmitters checks the references of the WoW emitters.
func (m *Model) validateWoWEmitters() error {
	bad := func(obj, format string, args ...any) error {
		return &ValidationError{Object: obj, Reason: fmt.Sprintf(format, args...)}
	}
	for i := range m.WoWParticleEmitters {
		e := &m.WoWParticleEmitters[i]
		obj := fmt.Sprintf("WoW particle emitter %d", i)
		if e.Bone < 0 || int(e.Bone) >= len(m.Bones) {
			return bad(obj, "bone %d of %d", e.Bone, len(m.Bones))
		}
		if e.TextureID >= int32(len(m.Textures)) {
			return bad(obj, "texture %d of %d", e.TextureID, len(m.Textures))
		}
	}
	for i := range m.WoWRibbonEmitters {
		e := &m.WoWRibbonEmitters[i]
		obj := fmt.Sprintf("WoW ribbon emitter %d", i)
		if e.Bone < 0 || int(e.Bone) >= len(m.Bones) {
			return bad(obj, "bone %d of %d", e.Bone, len(m.Bones))
		}
		for _, l := range e.Layers {
			if l.TextureID >= int32(len(m.Textures)) {
				return bad(obj, "texture %d of %d", l.TextureID, len(m.Textures))
			}
		}
	}
	return nil
}
