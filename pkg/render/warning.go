package render

import (
	"encoding/binary"
	"image"
)

// Warning is something a render went on without: a missing texture, a
// skipped malformed geoset, a picture that shows nothing. Code is a short
// identifier that stays the same from release to release, for programs;
// Message is for people.
type Warning struct {
	Code    WarningCode `json:"code"`
	Message string      `json:"message"`
	// Searched lists, for a MissingTexture, every file looked for, in
	// the order tried: too long for the one-line Message, it is there for
	// a closer look (a verbose listing, a manifest).
	Searched []string `json:"searched,omitempty"`
}

func (w Warning) String() string { return w.Message }

// WarningCode classifies a Warning.
type WarningCode string

// The warning codes.
const (
	// MissingTexture: a texture the model names was not found, was refused
	// (a path leaving the search folders) or does not exist in the model;
	// it is drawn as View.MissingTextures says (docs/rendering.md#missing-textures).
	MissingTexture WarningCode = "missing-texture"
	// BadTexture: a texture was found but could not be decoded (drawn
	// white), or only some of its mip levels could.
	BadTexture WarningCode = "bad-texture"
	// SubstitutedTexture: the texture file the model names is absent and
	// the same name with another extension was drawn (a Reforged .tif
	// found as .dds, say); the message names the file used.
	SubstitutedTexture WarningCode = "substituted-texture"
	// UnsupportedMaterial: a material asks for something the renderer
	// does not draw as the game does (a shader it does not implement).
	UnsupportedMaterial WarningCode = "unsupported-material"
	// InvalidModel: the model's parts do not agree (Model.Validate); what
	// is consistent is drawn.
	InvalidModel WarningCode = "invalid-model"
	// SkippedGeometry: a geoset or some triangles could not be drawn.
	SkippedGeometry WarningCode = "skipped-geometry"
	// ParticleProblem: an emitter could not be simulated or drawn as it
	// asks (a spawned model missing, a material missing, a cap reached).
	ParticleProblem WarningCode = "particles"
	// TeamColor: the team colour asked for cannot be drawn; another is
	// used.
	TeamColor WarningCode = "team-colour"
	// CappedPicture: a limit of the model's budget left part of the
	// picture out (overdraw: the triangles drawn last).
	CappedPicture WarningCode = "capped"
	// OverBudget: a texture was not drawn (drawn white) because reading
	// or decoding it would pass a limit of the model's budget
	// (budget.Limits); the message names the limit.
	OverBudget WarningCode = "over-budget"
	// PopcornNotDrawn: a PopcornFX (CORN) emitter's effect is not drawn:
	// it lives in a .pkfx file of its own, which the model only names, so
	// the picture lacks what the effect shows in the game. The message
	// names the emitter and the effect file.
	PopcornNotDrawn WarningCode = "popcorn"
	// BlankPicture: every pixel of the picture is the background: the
	// model is hidden at that moment, has not emitted yet, or the camera
	// misses it.
	BlankPicture WarningCode = "blank"
)

// Blank reports whether every pixel of img has the same colour: nothing
// but the background was drawn (whatever the background is). It looks
// from the middle row down, then from the top: a model is framed in the
// middle, so a picture that is not blank is told after a row or two, not
// after the empty rows above the model.
func Blank(img *image.NRGBA) bool {
	r := img.Rect
	if r.Empty() {
		return true
	}
	// Two pixels as one 64-bit word: a comparison per pair, not a call.
	first := uint64(binary.LittleEndian.Uint32(img.Pix[img.PixOffset(r.Min.X, r.Min.Y):]))
	pair := first | first<<32
	same := func(y int) bool {
		row := img.Pix[img.PixOffset(r.Min.X, y):][:4*r.Dx()]
		for ; len(row) >= 8; row = row[8:] {
			if binary.LittleEndian.Uint64(row) != pair {
				return false
			}
		}
		return len(row) == 0 || uint64(binary.LittleEndian.Uint32(row)) == first
	}
	mid := r.Min.Y + r.Dy()/2
	for y := mid; y < r.Max.Y; y++ {
		if !same(y) {
			return false
		}
	}
	for y := r.Min.Y; y < mid; y++ {
		if !same(y) {
			return false
		}
	}
	return true
}
