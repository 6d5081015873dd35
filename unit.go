package mdxrender

import (
	"path"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// ModelOf makes a Model of a file its caller decoded and whose textures
// it resolved (its own folder first in tex.Local, as Open arranges): how
// a program that opens models its own way (pkg/batch) makes their icons
// with the Model's methods. Its icons are charged to meter itself, not to
// a fork of it as an opened Model's pictures are: the caller keeps one
// budget for everything the model makes.
func ModelOf(f *model.File, name string, tex render.Textures, meter *budget.Meter) *Model {
	return &Model{File: f, Name: name, tex: tex, meter: meter, oneMeter: true}
}

// pictureMeter is the meter a picture drawn within from is charged to: a
// fork of it, so that no picture's cost counts towards the next, or, for
// a ModelOf model, from itself.
func (m *Model) pictureMeter(from *budget.Meter) *budget.Meter {
	if m.oneMeter {
		return from
	}
	return from.Fork()
}

// IsUnit reports whether m is the model of a unit: what a map maker makes
// command-card icons of (docs/icons.md#unit-models). It is when, in this
// order:
//
//   - it is not itself a portrait model (Name_Portrait.mdx) and has
//     geometry (an effect of particles alone has nothing to show in an
//     icon);
//   - and it has a portrait model beside it, or a camera named like
//     Portrait (render.PortraitCamera), or animations named Stand... and
//     Walk... or Attack...: what the game stands, moves and fights with.
//
// Doodads, destructables (Stand, Death, a Portrait animation but no Walk
// or Attack) and spell effects (an Attack alone is a missile's or an
// effect's) are not units. why says, for people, which
// part of the rule decided.
func (m *Model) IsUnit() (ok bool, why string) {
	mm := m.File.Model
	if render.IsPortraitModel(m.Name) {
		return false, "it is a portrait model"
	}
	vertices := 0
	for _, g := range mm.Geosets {
		vertices += len(g.Vertices)
	}
	if vertices == 0 {
		return false, "it has no geometry"
	}
	if f, ok := m.PortraitModelFile(); ok {
		return true, "its portrait model " + clipName(path.Base(f.Name)) + " is beside it"
	}
	if i, ok := render.PortraitCamera(mm, m.Name); ok {
		return true, "it has a portrait camera, " + clipName(mm.Cameras[i].Name)
	}
	stand, moves := false, ""
	for _, s := range mm.Sequences {
		n := strings.ToLower(strings.TrimSpace(s.Name))
		stand = stand || strings.HasPrefix(n, "stand")
		if moves == "" && (strings.HasPrefix(n, "walk") || strings.HasPrefix(n, "attack")) {
			moves = s.Name
		}
	}
	if stand && moves != "" {
		return true, "it has Stand and " + clipName(moves) + " animations"
	}
	return false, "no portrait model beside it, no portrait camera, no Stand with Walk or Attack animations"
}
