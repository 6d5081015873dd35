package mdxrender

import (
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// View says what a picture shows: size, camera, sequence and time, team
// colour, background, light, particles. Every zero field means the
// default, so View{} is DefaultView() and View{Yaw: 45} changes only the
// yaw. See render.View for the fields.
type View = render.View

// DefaultView returns the View the command line renders with when given no
// flags.
func DefaultView() View { return render.DefaultView() }

// Frame is one picture of a run that shares a camera (RenderFrames).
type Frame = render.Frame

// Sequence chooses an animation: the zero Sequence is the first one.
type Sequence = render.Sequence

// BindPose draws the model outside any sequence.
var BindPose = render.BindPose

// SequenceNamed chooses the sequence with that name (ignoring case), else
// the first whose name starts so.
func SequenceNamed(name string) Sequence { return render.SequenceNamed(name) }

// SequenceAt chooses the sequence with index i.
func SequenceAt(i int) Sequence { return render.SequenceAt(i) }

// Time is a moment in the sequence: Ms(500), or Share(0.5) for halfway.
type Time = render.Time

// Ms is the moment ms milliseconds after the sequence start.
func Ms(ms float64) Time { return render.Ms(ms) }

// Share is the moment a share f (0 to 1) of the sequence's length in.
func Share(f float64) Time { return render.Share(f) }

// Team is the colour of team-coloured parts: a player's or any colour.
type Team = texture.Team

// Player is team number n's colour (0 red, 1 blue, ... 23 peanut; 24-27
// the neutral players).
func Player(n int) Team { return texture.Player(n) }

// Particles controls particle emitters and ribbons (View.Particles).
type Particles = render.Particles

// Warning is something a render went on without, with a stable Code.
type Warning = render.Warning

// WarningCode classifies a Warning; the codes are render's constants
// (render.MissingTexture, render.BlankPicture, ...).
type WarningCode = render.WarningCode

// The warning codes, which stay the same from release to release.
const (
	MissingTexture      = render.MissingTexture
	BadTexture          = render.BadTexture
	SubstitutedTexture  = render.SubstitutedTexture
	UnsupportedMaterial = render.UnsupportedMaterial
	InvalidModel        = render.InvalidModel
	SkippedGeometry     = render.SkippedGeometry
	ParticleProblem     = render.ParticleProblem
	TeamColor           = render.TeamColor
	CappedPicture       = render.CappedPicture
	OverBudget          = render.OverBudget
	BlankPicture        = render.BlankPicture
)
