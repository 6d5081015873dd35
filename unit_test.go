package mdxrender_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
)

// fixtureUnit decodes the fixture with a camera named Portrait and Stand
// and Attack animations, for tests to make other models of.
func fixtureUnit(t *testing.T) *mdx.Model {
	t.Helper()
	b, err := os.ReadFile("testdata/models/portrait_camera.mdl")
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Load(b, "portrait_camera.mdl", mdxrender.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Model
}

// writeMDX encodes m into dir/name and returns the path.
func writeMDX(t *testing.T, dir, name string, m *mdx.Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := mdx.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIsUnit: the rule that picks a batch's unit models, each part of it
// on a model made from the fixture unit.
func TestIsUnit(t *testing.T) {
	noCamera := func(m *mdx.Model) { m.Cameras = nil }
	rename := func(from, to string) func(*mdx.Model) {
		return func(m *mdx.Model) {
			for i := range m.Sequences {
				if m.Sequences[i].Name == from {
					m.Sequences[i].Name = to
				}
			}
		}
	}
	noGeometry := func(m *mdx.Model) {
		for i := range m.Geosets {
			m.Geosets[i].Vertices, m.Geosets[i].Normals, m.Geosets[i].Faces = nil, nil, nil
			m.Geosets[i].VertexGroups, m.Geosets[i].UVSets = nil, nil
		}
	}
	for _, c := range []struct {
		name     string
		edits    []func(*mdx.Model)
		portrait bool // write a Name_Portrait.mdx beside it
		unit     bool
		why      string
	}{
		{"camera.mdx", nil, false, true, `portrait camera, "Portrait"`},
		{"stand_attack.mdx", []func(*mdx.Model){noCamera}, false, true, `Stand and "Attack"`},
		{"stand_walk.mdx", []func(*mdx.Model){noCamera, rename("Attack", "Walk Fast")}, false, true, `Stand and "Walk Fast"`},
		{"doodad.mdx", []func(*mdx.Model){noCamera, rename("Attack", "Death")}, false, false, "no portrait model"},
		{"missile.mdx", []func(*mdx.Model){noCamera, rename("Stand", "Birth")}, false, false, "no Stand with Walk or Attack"},
		{"hero.mdx", []func(*mdx.Model){noCamera, rename("Attack", "Death")}, true, true, `"hero_Portrait.mdx" is beside it`},
		{"Hero_Portrait.mdx", nil, false, false, "portrait model"},
		{"effect.mdx", []func(*mdx.Model){noGeometry}, false, false, "no geometry"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := fixtureUnit(t)
			for _, e := range c.edits {
				e(m)
			}
			p := writeMDX(t, dir, c.name, m)
			if c.portrait {
				writeMDX(t, dir, strings.TrimSuffix(c.name, ".mdx")+"_Portrait.mdx", fixtureUnit(t))
			}
			mm, err := mdxrender.Open(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			unit, why := mm.IsUnit()
			if unit != c.unit || !strings.Contains(why, c.why) {
				t.Errorf("IsUnit = %v, %q; want %v, with %q", unit, why, c.unit, c.why)
			}
		})
	}
}
