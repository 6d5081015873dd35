package render

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Defaults of a View's zero fields. They are the command line's defaults
// too: the same View gives the same picture in a Go program and in
// mdxrender.
const (
	DefaultSize = 256
	// DefaultSSAA is the supersampling factor. Measured against the
	// reference renders (docs/fidelity.md): the reference viewer draws
	// without antialiasing, so 1× matches its edges best; larger factors
	// give smoother thumbnails at k² the cost.
	DefaultSSAA = 1
	// DefaultSeed seeds the particle generator as the reference harness
	// does.
	DefaultSeed = particles.DefaultSeed
	// DefaultStepMs is the particle simulation's fixed step, 1/60 s.
	DefaultStepMs = particles.DefaultStepMs
	// DefaultMargin is the share of the picture's width and height the
	// automatic camera leaves free on each side of the model: the
	// silhouette fills 90% of the picture's limiting side.
	DefaultMargin = 0.05
	// NoMargin (any negative Margin) lets the silhouette touch the
	// picture's edges.
	NoMargin = -1.0
)

// defaultLight is the position of the reference viewer's point light.
var defaultLight = fauxgl.V(0, 0, 10000)

// View says what a picture shows and how: its size, the camera, the moment
// of the animation, team colour, background, light and particles. Every
// zero field means the default, so the zero View is DefaultView() and a
// View that sets a few fields keeps the defaults for the rest.
type View struct {
	// Width and Height are the picture's size in pixels; 0 means
	// DefaultSize, and Height 0 means Width.
	Width, Height int
	// SSAA is the supersampling factor per axis; 0 means DefaultSSAA.
	SSAA int

	// The orbit camera (docs/rendering.md#camera-and-framing): Yaw and
	// Pitch in degrees (yaw 0 looks at the model's front from +X, pitch is
	// elevation), Fov the vertical field of view in degrees (0: 45),
	// Distance from the target and Target the point looked at (both unset:
	// fit the silhouette of what is drawn; either set: the reference
	// harness's rule, which fits the bounding sphere of the Fit box and
	// looks at its centre), Near and Far the clip distances (0:
	// automatic), Fit what is framed, Ortho an orthographic projection.
	Yaw, Pitch float64
	Fov        float64
	Distance   float64
	Target     *fauxgl.Vector
	Near, Far  float64
	Fit        Fit
	Ortho      bool
	// Margin and Zoom size the model when the automatic camera places
	// itself (no Distance, Target or Camera): the projected silhouette of
	// what is drawn fills the picture but for Margin, a share of its width
	// and height on each side (0: DefaultMargin; NoMargin: none, below
	// 0.5), then Zoom scales it (0: 1; 2 is twice as large and crops).
	Margin, Zoom float64
	// Camera selects one of the model's own cameras (portrait cameras),
	// by name or index, instead of the orbit camera; Fov, Near and Far
	// still override its values when set. "" is the rule every picture
	// follows (DefaultCamera): a portrait model through its portrait
	// camera, any other through the orbit camera; OrbitCamera is the
	// orbit camera for every model.
	Camera string

	// Sequence is the animation and Time the moment in it.
	Sequence Sequence
	Time     Time

	// Team is the colour team-coloured parts take; the zero Team is
	// player 0's red.
	Team texture.Team
	// Background nil is transparent; any other colour is composited
	// under the model and makes the picture opaque.
	Background color.Color
	// Light is the point light's position; nil means the reference
	// viewer's, (0, 0, 10000).
	Light *fauxgl.Vector
	// Particles controls the particle and ribbon emitters.
	Particles Particles
	// MissingTextures says how what a missing texture covers is drawn;
	// the zero value is MissingGrey.
	MissingTextures MissingTextures
	// RunFraming says which frames of a run (RenderFrames) share the
	// automatic camera; the zero value is FramePerSequence.
	RunFraming RunFraming

	// Workers is the number of rasteriser bands drawn at once; 0 means
	// GOMAXPROCS. It never changes the picture.
	Workers int
}

// DefaultView returns the View every zero field stands for: 256×256, no
// supersampling, the orbit camera at yaw 0 and pitch 0 fitting what is
// drawn with a margin of 5%, the Stand sequence (StandSequence) at its
// start, player 0's colour (red), a
// transparent background and particles simulated with the reference
// harness's seed and step.
func DefaultView() View {
	return View{
		Width: DefaultSize, Height: DefaultSize, SSAA: DefaultSSAA, Margin: DefaultMargin, Zoom: 1,
		Particles: Particles{Seed: DefaultSeed, StepMs: DefaultStepMs},
	}
}

// Particles controls the simulation of particle emitters, ribbons and
// spawned models (docs/particles.md). The emitters are simulated from the
// sequence start to the View's time with the reference viewer's update
// loop, and the model is drawn at the simulation's frame.
type Particles struct {
	// Off draws what a model without emitters draws.
	Off bool
	// Seed seeds the generator; 0 means DefaultSeed. The generator
	// reduces its state modulo 233280 before the first draw, so ZeroSeed
	// (233280) draws exactly what a seed of 0 would.
	Seed uint32
	// StepMs is the fixed simulation step in ms; 0 means DefaultStepMs.
	StepMs float64
	// Preroll is simulated before the sequence start.
	Preroll Preroll
}

// ZeroSeed is the Particles.Seed that seeds the generator with 0.
const ZeroSeed = 233280

// Preroll is how many ms are simulated before the sequence starts, so
// that an idle effect's picture shows its steady state rather than its
// first particles. The sequence is played from its start for that long,
// then the frame jumps back to the start; particles stay.
type Preroll float64

// Pre-roll choices besides a positive number of ms.
const (
	// PrerollAuto (the zero Preroll) is one longest emitter lifetime for
	// looping sequences and none for others.
	PrerollAuto Preroll = 0
	// NoPreroll starts the simulation at the sequence start, as the
	// reference harness does by default.
	NoPreroll Preroll = -1
)

// options returns the simulation options p asks for.
func (p Particles) options() particles.Options {
	o := particles.Options{Seed: p.Seed, StepMs: p.StepMs}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.StepMs == 0 {
		o.StepMs = DefaultStepMs
	}
	switch {
	case p.Preroll == PrerollAuto:
		o.PrerollMs = -1
	case p.Preroll < 0:
		o.PrerollMs = 0
	default:
		o.PrerollMs = float64(p.Preroll)
	}
	return o
}

// Fit is the box the automatic camera frames.
type Fit uint8

// Fit boxes.
const (
	// FitVertices frames what is drawn (the default): the posed
	// geometry and the visible particles, because declared extents often
	// lie.
	FitVertices Fit = iota
	// FitExtent frames the model's declared extent.
	FitExtent
	// FitSequence frames the sequence's declared extent.
	FitSequence
	// FitHead frames the head and shoulders of what is drawn: the
	// picture a command-card icon or a portrait wants when the model has
	// no portrait camera (docs/rendering.md#head-and-shoulders).
	FitHead
)

var fitNames = [...]string{"vertices", "extent", "sequence", "head"}

func (f Fit) String() string {
	if int(f) < len(fitNames) {
		return fitNames[f]
	}
	return "Fit(" + strconv.Itoa(int(f)) + ")"
}

// Sequence chooses an animation of a model: by index, by name, the bind
// pose, or (the zero Sequence) the default, Stand (see StandSequence).
type Sequence struct {
	kind  seqKind
	index int
	name  string
}

type seqKind uint8

const (
	seqDefault seqKind = iota
	seqIndex
	seqName
	seqBind
)

// BindPose draws the model in its bind pose, outside any sequence.
func BindPose() Sequence { return Sequence{kind: seqBind} }

// SequenceAt chooses the sequence with index i.
func SequenceAt(i int) Sequence { return Sequence{kind: seqIndex, index: i} }

// SequenceNamed chooses a sequence by name: the one named exactly so
// (ignoring case), else the first whose name starts so.
func SequenceNamed(name string) Sequence { return Sequence{kind: seqName, name: name} }

func (s Sequence) String() string {
	switch s.kind {
	case seqIndex:
		return strconv.Itoa(s.index)
	case seqName:
		return s.name
	case seqBind:
		return "-1"
	}
	return ""
}

// Index resolves s against model m: an index into m.Sequences, or -1 for
// the bind pose (also the default of a model without sequences). The
// default is StandSequence's choice.
func (s Sequence) Index(m *mdx.Model) (int, error) {
	switch s.kind {
	case seqBind:
		return -1, nil
	case seqIndex:
		if s.index < 0 || s.index >= len(m.Sequences) {
			return 0, fmt.Errorf("render: sequence %d out of range (%s)", s.index, sequenceList(m))
		}
		return s.index, nil
	case seqName:
		for i := range m.Sequences {
			if strings.EqualFold(m.Sequences[i].Name, s.name) {
				return i, nil
			}
		}
		for i := range m.Sequences {
			if strings.HasPrefix(strings.ToLower(m.Sequences[i].Name), strings.ToLower(s.name)) {
				return i, nil
			}
		}
		return 0, fmt.Errorf("render: no sequence named %q (%s)", s.name, sequenceList(m))
	}
	return StandSequence(len(m.Sequences), func(i int) string { return m.Sequences[i].Name }), nil
}

// StandSequence is the rule that picks the sequence a picture shows when
// none is named, for the library, every command and the batch alike: the
// sequence named "Stand" (ignoring case and surrounding spaces), else the
// first whose name starts with "stand" ("Stand Ready"), else the
// portrait's (PortraitSequence: a portrait model has no Stand), else the
// first; -1 (the bind pose) when there are none. A model's first
// sequence is often Walk or Birth, which makes a poor thumbnail, and a
// portrait model's Walk, when it has one, is not seen by its camera.
// name returns the name of sequence i of n.
func StandSequence(n int, name func(i int) string) int {
	for i := 0; i < n; i++ {
		if strings.EqualFold(strings.TrimSpace(name(i)), "stand") {
			return i
		}
	}
	for i := 0; i < n; i++ {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(name(i))), "stand") {
			return i
		}
	}
	if i, ok := PortraitSequence(n, name); ok {
		return i
	}
	if n > 0 {
		return 0
	}
	return -1
}

// sequenceList names a model's sequences for an error message, a few at
// most, so that the message says what there is to choose from.
func sequenceList(m *mdx.Model) string {
	const most = 12
	if len(m.Sequences) == 0 {
		return "the model has no sequences"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the model has %d: ", len(m.Sequences))
	for i := range m.Sequences {
		if i == most {
			fmt.Fprintf(&b, ", … %d more", len(m.Sequences)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", i, clip.Quote(m.Sequences[i].Name))
	}
	return b.String()
}

// Time is a moment in the chosen sequence: ms after its start, or a share
// of its length. The zero Time is the sequence start.
type Time struct {
	v     float64
	share bool
}

// Ms is the moment ms milliseconds after the sequence start (it is also
// the phase of global sequences). A looping sequence wraps past its end.
func Ms(ms float64) Time { return Time{v: ms} }

// Share is the moment a share f (0 to 1) of the sequence's length after
// its start: Share(0.5) is halfway.
func Share(f float64) Time { return Time{v: f, share: true} }

// IsShare reports whether t is a share of the sequence rather than ms.
func (t Time) IsShare() bool { return t.share }

// Value is the number of ms, or the share from 0 to 1.
func (t Time) Value() float64 { return t.v }

func (t Time) String() string {
	if t.share {
		return strconv.FormatFloat(t.v*100, 'g', -1, 64) + "%"
	}
	return strconv.FormatFloat(t.v, 'g', -1, 64)
}

// MarshalText writes t as String does, so that JSON holds a Time as the
// command line writes it.
func (t Time) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// MsIn returns the moment in ms after the start of a sequence of the given
// length in ms. A share is rounded to whole ms (model times are integers)
// and is at most the length.
func (t Time) MsIn(length float64) float64 {
	if !t.share {
		return t.v
	}
	if !(length > 0) {
		return 0
	}
	return min(math.Round(t.v*length), length)
}

// light is the point light's position.
func (v *View) light() fauxgl.Vector {
	if v.Light != nil {
		return *v.Light
	}
	return defaultLight
}

// MissingTextures says how a texture the model names and the sources do
// not hold (not found, refused, not decodable when opened, or over the
// budget) is drawn (docs/rendering.md#missing-textures).
type MissingTextures uint8

// The ways to draw a missing texture.
const (
	// MissingGrey (the default) draws geometry whose texture is missing
	// in a neutral grey lit from the camera's side, Unshaded layers too,
	// blended as the layer says, so that the form of a model whose
	// textures are the game's own reads without them. Particles and
	// ribbons whose texture is missing are not drawn (they would be
	// squares), nor are Modulate and Modulate2x layers (white would
	// change nothing).
	MissingGrey MissingTextures = iota
	// MissingWhite draws what the reference viewer draws: an opaque white
	// texture in its place, lit and blended as the layer says, particles
	// and ribbons as white squares tinted by their colour. Comparisons
	// with the reference viewer use it.
	MissingWhite
)

var missingNames = [...]string{"grey", "white"}

func (m MissingTextures) String() string {
	if int(m) < len(missingNames) {
		return missingNames[m]
	}
	return "MissingTextures(" + strconv.Itoa(int(m)) + ")"
}

// MarshalText writes m as ParseMissingTextures reads it.
func (m MissingTextures) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// ParseMissingTextures reads "grey" or "white" (ignoring case); ""
// is the default, grey.
func ParseMissingTextures(s string) (MissingTextures, error) {
	if strings.TrimSpace(s) == "" {
		return MissingGrey, nil
	}
	for i, n := range missingNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return MissingTextures(i), nil
		}
	}
	return 0, fmt.Errorf("want grey or white, got %s", clip.Quote(s))
}

// RunFraming says which frames of a run (a sprite sheet, its animated
// previews) share one automatic camera. Within a sequence the camera and
// the model's origin stay put in every case, as a game engine playing the
// frames needs.
type RunFraming uint8

// The framings of a run.
const (
	// FramePerSequence (the default) fits one camera to each sequence's
	// frames, every yaw of it together, so that each animation fills its
	// frames: a unit's Stand is not sized for its Death.
	FramePerSequence RunFraming = iota
	// FrameShared fits one camera to every frame of the run, so that the
	// model keeps one size across its animations.
	FrameShared
)

var runFramingNames = [...]string{"sequence", "shared"}

func (f RunFraming) String() string {
	if int(f) < len(runFramingNames) {
		return runFramingNames[f]
	}
	return "RunFraming(" + strconv.Itoa(int(f)) + ")"
}

// MarshalText writes f as ParseRunFraming reads it.
func (f RunFraming) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// ParseRunFraming reads "sequence" or "shared" (ignoring case); "" is
// the default, sequence.
func ParseRunFraming(s string) (RunFraming, error) {
	if strings.TrimSpace(s) == "" {
		return FramePerSequence, nil
	}
	for i, n := range runFramingNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return RunFraming(i), nil
		}
	}
	return 0, fmt.Errorf("want sequence or shared, got %s", clip.Quote(s))
}
