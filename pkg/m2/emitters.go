package m2

import (
	"bytes"
	"fmt"
	"math"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Record sizes of the pre-Wrath emitter blocks
// (docs/formats.md#m2-particle-and-ribbon-emitters). Wrath (264) shrank the
// animation blocks to 20 bytes and changed the particle record again; this
// package reads no file of those versions.
const (
	particleSize = 504
	ribbonSize   = 220
)

// particleByteFields is the first version whose particle record holds the
// blending and emitter types as bytes followed by a ParticleColor index
// (late Burning Crusade); earlier versions hold each in a u16.
const particleByteFields = 263

// ParticleEmitter is one pre-Wrath particle emitter record (504 bytes). It
// is the World of Warcraft descendant of the MDX PRE2 emitter: a shape
// (plane, sphere, spline) attached to a bone, animated emission parameters,
// and three-point colour, alpha and scale ramps with a mid point. The
// meaning of each field and the source it comes from are in
// docs/particles.md#world-of-warcraft-m2-emitters.
type ParticleEmitter struct {
	ID       int32    // -1 in the files seen
	Flags    uint32   // mdx.WoWParticle* bits
	Position mdx.Vec3 // the emitter's origin in model space; it follows Bone
	Bone     uint16
	Texture  uint16 // index into Textures
	// GeometryModel and RecursionModel name models the emitter spawns or
	// stands for; both are empty in the files seen and neither is drawn.
	GeometryModel, RecursionModel string

	Blend       uint16 // BlendOpaque...BlendMod2x (7: blend add), as render flags
	EmitterType uint16 // 1 plane, 2 sphere, 3 spline
	// ColorIndex picks a ParticleColor.dbc colour set (11-13); version 263
	// and later only. The colours come from the game's databases and are
	// not applied.
	ColorIndex uint16
	// ParticleType is the first byte at 0x2C: 0 head, 1 tail, 2 both, as
	// the PRE2 particle type it descends from. HeadOrTail is the second
	// byte, which the wiki names so; the files seen hold 0 there.
	ParticleType, HeadOrTail uint8
	// TileRotation is the wiki's "texture tile rotation" (-1, 0, 1), which
	// the later client uses as the emitter's draw priority.
	TileRotation  int16
	Rows, Columns uint16

	Speed, Variation, VerticalRange, HorizontalRange Track[float32]
	// Gravity holds floats; with mdx.WoWParticleCompressedGravity each value's four
	// bytes are a compressed vector (DecompressGravity).
	Gravity, LifeSpan, EmissionRate Track[float32]
	AreaLength, AreaWidth, ZSource  Track[float32]
	MidPoint                        float32
	Colors                          [3][4]uint8 // start, middle, end; blue, green, red, alpha
	Scales                          [3]float32
	HeadCells                       [2][3]uint16 // lifespan and decay cells: start, end, repeat
	TailCells                       [2][2]int16  // tail and tail decay cells: start, end
	TailLength                      float32
	TwinkleSpeed, TwinklePercent    float32
	TwinkleScale                    [2]float32 // min, max
	BurstMultiplier, Drag, Spin     float32
	Tumble                          [2]mdx.Vec3 // min, max
	Wind                            mdx.Vec3
	WindTime                        float32
	FollowSpeed1, FollowScale1      float32
	FollowSpeed2, FollowScale2      float32
	SplinePoints                    []mdx.Vec3
	EnabledIn                       Track[uint8]
}

// RibbonEmitter is one pre-Wrath ribbon emitter record (220 bytes): a
// strip of edges spanning HeightAbove and HeightBelow along the bone's Y
// axis, left behind as the bone moves.
type RibbonEmitter struct {
	ID       int32
	Bone     uint32
	Position mdx.Vec3
	// Textures and Materials (render flags) pair up: one strip is drawn
	// per texture with the render flags of the same index.
	Textures, Materials      []uint16
	Color                    Track[mdx.Vec3] // red, green, blue
	Alpha                    Track[int16]    // 32767 = 1
	HeightAbove, HeightBelow Track[float32]
	EdgesPerSecond           float32
	EdgeLifetime             float32 // seconds
	Gravity                  float32
	Rows, Columns            uint16
	TextureSlot              Track[uint16]
	Visibility               Track[uint8]
}

// DecompressGravity decodes a gravity value of an emitter with
// mdx.WoWParticleCompressedGravity: its four bytes are int8 x, int8 y (a direction,
// /128) and int16 z (the magnitude, ×0.04238648, whose sign flips the
// direction's z). The returned vector is the acceleration itself (a plain
// gravity g is (0, 0, −g)).
func DecompressGravity(v float32) mdx.Vec3 {
	b := math.Float32bits(v)
	x := float64(int8(b)) / 128
	y := float64(int8(b>>8)) / 128
	z := math.Sqrt(max(1-x*x-y*y, 0))
	mag := float64(int16(b>>16)) * 0.04238648
	if mag < 0 {
		z, mag = -z, -mag
	}
	return mdx.Vec3{float32(x * mag), float32(y * mag), float32(z * mag)}
}

// emitters reads the particle and ribbon emitter blocks.
func (d *decoder) emitters() {
	f := d.f
	h := &f.Header
	if pb := d.span(h.Particles, particleSize, "particle emitters"); pb != nil {
		f.Particles = make([]ParticleEmitter, h.Particles.Count)
		for i := range f.Particles {
			d.particle(&f.Particles[i], pb[particleSize*i:], int64(h.Particles.Offset)+int64(particleSize*i), i)
		}
	}
	if rb := d.span(h.RibbonEmitters, ribbonSize, "ribbon emitters"); rb != nil {
		f.Ribbons = make([]RibbonEmitter, h.RibbonEmitters.Count)
		for i := range f.Ribbons {
			d.ribbon(&f.Ribbons[i], rb[ribbonSize*i:], int64(h.RibbonEmitters.Offset)+int64(ribbonSize*i), i)
		}
	}
}

// str reads a (count, offset) string, up to its first NUL.
func (d *decoder) str(a Array, block string) string {
	b := d.span(a, 1, block)
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func (d *decoder) particle(e *ParticleEmitter, p []byte, at int64, i int) {
	f := d.f
	blk := fmt.Sprintf("particle emitter %d", i)
	e.ID = int32(le.Uint32(p))
	e.Flags = le.Uint32(p[4:])
	e.Position = vec3(p[8:])
	e.Bone, e.Texture = le.Uint16(p[20:]), le.Uint16(p[22:])
	e.GeometryModel = d.str(getArray(p[24:]), blk+" model name")
	e.RecursionModel = d.str(getArray(p[32:]), blk+" recursion model name")
	if f.Header.Version >= particleByteFields {
		e.Blend, e.EmitterType, e.ColorIndex = uint16(p[40]), uint16(p[41]), le.Uint16(p[42:])
	} else {
		e.Blend, e.EmitterType = le.Uint16(p[40:]), le.Uint16(p[42:])
	}
	e.ParticleType, e.HeadOrTail = p[44], p[45]
	e.TileRotation = int16(le.Uint16(p[46:]))
	e.Rows, e.Columns = le.Uint16(p[48:]), le.Uint16(p[50:])
	for k, t := range []*Track[float32]{&e.Speed, &e.Variation, &e.VerticalRange, &e.HorizontalRange,
		&e.Gravity, &e.LifeSpan, &e.EmissionRate, &e.AreaLength, &e.AreaWidth, &e.ZSource} {
		*t = readTrack(d, p[52+28*k:], fmt.Sprintf("%s %s", blk, particleTrackNames[k]), 4, f32)
	}
	q := p[332:]
	e.MidPoint = f32(q)
	for k := range e.Colors {
		copy(e.Colors[k][:], q[4+4*k:8+4*k])
	}
	for k := range e.Scales {
		e.Scales[k] = f32(q[16+4*k:])
	}
	for k := range 6 {
		e.HeadCells[k/3][k%3] = le.Uint16(q[28+2*k:])
	}
	for k := range 4 {
		e.TailCells[k/2][k%2] = int16(le.Uint16(q[40+2*k:]))
	}
	e.TailLength = f32(q[48:])
	e.TwinkleSpeed, e.TwinklePercent = f32(q[52:]), f32(q[56:])
	e.TwinkleScale = [2]float32{f32(q[60:]), f32(q[64:])}
	e.BurstMultiplier, e.Drag, e.Spin = f32(q[68:]), f32(q[72:]), f32(q[76:])
	e.Tumble = [2]mdx.Vec3{vec3(q[80:]), vec3(q[92:])}
	e.Wind, e.WindTime = vec3(q[104:]), f32(q[116:])
	e.FollowSpeed1, e.FollowScale1 = f32(q[120:]), f32(q[124:])
	e.FollowSpeed2, e.FollowScale2 = f32(q[128:]), f32(q[132:])
	sa := getArray(q[136:])
	if sb := d.span(sa, 12, blk+" spline points"); sb != nil {
		e.SplinePoints = make([]mdx.Vec3, sa.Count)
		for k := range e.SplinePoints {
			e.SplinePoints[k] = vec3(sb[12*k:])
		}
	}
	e.EnabledIn = readTrack(d, q[144:], blk+" enabled", 1, func(b []byte) uint8 { return b[0] })
	if d.err != nil {
		return
	}
	if int(e.Bone) >= len(f.Bones) {
		d.fail(at+20, blk, "bone %d of %d", e.Bone, len(f.Bones))
	}
	if int(e.Texture) >= len(f.Textures) {
		d.fail(at+22, blk, "texture %d of %d", e.Texture, len(f.Textures))
	}
}

// particleTrackNames name the ten animated parameters in record order.
var particleTrackNames = [10]string{"speed", "speed variation", "vertical range", "horizontal range",
	"gravity", "lifespan", "emission rate", "area length", "area width", "z source"}

func (d *decoder) ribbon(r *RibbonEmitter, p []byte, at int64, i int) {
	f := d.f
	blk := fmt.Sprintf("ribbon emitter %d", i)
	r.ID = int32(le.Uint32(p))
	r.Bone = le.Uint32(p[4:])
	r.Position = vec3(p[8:])
	ta, ma := getArray(p[20:]), getArray(p[28:])
	r.Textures = u16s(d.span(ta, 2, blk+" textures"))
	r.Materials = u16s(d.span(ma, 2, blk+" materials"))
	r.Color = readTrack(d, p[36:], blk+" color", 12, vec3)
	r.Alpha = readTrack(d, p[64:], blk+" alpha", 2, fixed16)
	r.HeightAbove = readTrack(d, p[92:], blk+" height above", 4, f32)
	r.HeightBelow = readTrack(d, p[120:], blk+" height below", 4, f32)
	r.EdgesPerSecond, r.EdgeLifetime, r.Gravity = f32(p[148:]), f32(p[152:]), f32(p[156:])
	r.Rows, r.Columns = le.Uint16(p[160:]), le.Uint16(p[162:])
	r.TextureSlot = readTrack(d, p[164:], blk+" texture slot", 2, le.Uint16)
	r.Visibility = readTrack(d, p[192:], blk+" visibility", 1, func(b []byte) uint8 { return b[0] })
	if d.err != nil {
		return
	}
	if uint64(r.Bone) >= uint64(len(f.Bones)) {
		d.fail(at+4, blk, "bone %d of %d", r.Bone, len(f.Bones))
	}
	for k, t := range r.Textures {
		if int(t) >= len(f.Textures) {
			d.fail(int64(ta.Offset)+2*int64(k), blk+" textures", "texture %d of %d", t, len(f.Textures))
			return
		}
	}
	for k, m := range r.Materials {
		if int(m) >= len(f.RenderFlags) {
			d.fail(int64(ma.Offset)+2*int64(k), blk+" materials", "render flags %d of %d", m, len(f.RenderFlags))
			return
		}
	}
}

// convertEmitters adds the particle and ribbon emitters to m as
// mdx.WoWParticleEmitter and mdx.WoWRibbonEmitter values.
func (f *File) convertEmitters(m *mdx.Model) {
	for i := range f.Particles {
		e := &f.Particles[i]
		w := mdx.WoWParticleEmitter{
			Bone: int32(e.Bone), Position: e.Position, Flags: e.Flags,
			EmitterType: uint32(e.EmitterType), FilterMode: FilterMode(e.Blend), TextureID: int32(e.Texture),
			ParticleType: uint32(e.ParticleType), PriorityPlane: int32(e.TileRotation),
			Rows: uint32(e.Rows), Columns: uint32(e.Columns),
			MiddleTime: e.MidPoint, SegmentScaling: e.Scales,
			HeadIntervals:      cells(e.HeadCells[0]),
			HeadDecayIntervals: cells(e.HeadCells[1]),
			TailIntervals:      tailCells(e.TailCells[0]),
			TailDecayIntervals: tailCells(e.TailCells[1]),
			TailLength:         e.TailLength, TwinkleSpeed: e.TwinkleSpeed, TwinklePercent: e.TwinklePercent,
			TwinkleScale: e.TwinkleScale, BurstMultiplier: e.BurstMultiplier, Drag: e.Drag, Spin: e.Spin,
			Wind: e.Wind, WindTime: e.WindTime, SplinePoints: append([]mdx.Vec3(nil), e.SplinePoints...),
		}
		for k, c := range e.Colors {
			w.SegmentColors[k] = mdx.Vec3{float32(c[0]) / 255, float32(c[1]) / 255, float32(c[2]) / 255}
			w.SegmentAlphas[k] = c[3]
		}
		w.Speed, w.SpeedTrack = param(e.Speed, same[float32], 0)
		w.Variation, w.VariationTrack = param(e.Variation, same[float32], 0)
		w.VerticalRange, w.VerticalRangeTrack = param(e.VerticalRange, same[float32], 0)
		w.HorizontalRange, w.HorizontalRangeTrack = param(e.HorizontalRange, same[float32], 0)
		w.LifeSpan, w.LifeSpanTrack = param(e.LifeSpan, same[float32], 0)
		w.EmissionRate, w.EmissionRateTrack = param(e.EmissionRate, same[float32], 0)
		w.AreaLength, w.AreaLengthTrack = param(e.AreaLength, same[float32], 0)
		w.AreaWidth, w.AreaWidthTrack = param(e.AreaWidth, same[float32], 0)
		w.ZSource, w.ZSourceTrack = param(e.ZSource, same[float32], 0)
		gravity := func(g float32) mdx.Vec3 { return mdx.Vec3{0, 0, -g} }
		if e.Flags&mdx.WoWParticleCompressedGravity != 0 {
			gravity = DecompressGravity
		}
		w.Gravity, w.GravityTrack = param(e.Gravity, gravity, mdx.Vec3{})
		w.Visibility, w.VisibilityTrack = param(e.EnabledIn, byteFloat, 1)
		m.WoWParticleEmitters = append(m.WoWParticleEmitters, w)
	}
	for i := range f.Ribbons {
		r := &f.Ribbons[i]
		w := mdx.WoWRibbonEmitter{Bone: int32(r.Bone), Position: r.Position,
			EdgesPerSecond: r.EdgesPerSecond, LifeSpan: r.EdgeLifetime, Gravity: r.Gravity,
			Rows: uint32(r.Rows), Columns: uint32(r.Columns)}
		// One strip per (texture, render flags) pair.
		for k := 0; k < len(r.Textures) && k < len(r.Materials); k++ {
			rf := f.RenderFlags[r.Materials[k]]
			w.Layers = append(w.Layers, mdx.Layer{FilterMode: FilterMode(rf.Blend), Flags: LayerFlags(rf.Flags),
				TextureID: int32(r.Textures[k]), TextureAnimID: -1, Alpha: 1})
		}
		w.Color, w.ColorTrack = param(r.Color, bgr, mdx.Vec3{})
		w.Alpha, w.AlphaTrack = param(r.Alpha, unfix, 0)
		w.HeightAbove, w.HeightAboveTrack = param(r.HeightAbove, same[float32], 0)
		w.HeightBelow, w.HeightBelowTrack = param(r.HeightBelow, same[float32], 0)
		w.TextureSlot, w.TextureSlotTrack = param(r.TextureSlot, func(v uint16) uint32 { return uint32(v) }, 0)
		w.Visibility, w.VisibilityTrack = param(r.Visibility, byteFloat, 1)
		m.WoWRibbonEmitters = append(m.WoWRibbonEmitters, w)
	}
}

// param converts an emitter parameter's animation block into a static
// value and a track: none without keys (the value is empty), none with one
// key (a constant, whatever sequence plays: the client reads a one-key
// block as its value), else the track, with its first value as the static
// value the bind pose shows.
func param[S any, T mdx.TrackValue](t Track[S], conv func(S) T, empty T) (T, *mdx.Track[T]) {
	if len(t.Times) == 0 || len(t.Values) == 0 {
		return empty, nil
	}
	if len(t.Times) == 1 {
		return conv(t.Values[0]), nil
	}
	return conv(t.Values[0]), track(t, conv)
}

func byteFloat(v uint8) float32 { return float32(v) }

// cells converts (start, end, repeat) cell numbers.
func cells(c [3]uint16) [3]uint32 { return [3]uint32{uint32(c[0]), uint32(c[1]), uint32(c[2])} }

// tailCells converts a (start, end) tail cell pair, which has no repeat
// count, into an interval played once; negative cells count as 0.
func tailCells(c [2]int16) [3]uint32 {
	return [3]uint32{uint32(max(c[0], 0)), uint32(max(c[1], 0)), 1}
}
