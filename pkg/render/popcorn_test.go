package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// TestPopcornNotDrawnWarns: a PopcornFX emitter draws nothing here, so
// the picture lacks its effect; each such emitter is named in one
// warning with its effect file, and the rest of the picture is as
// without it.
func TestPopcornNotDrawnWarns(t *testing.T) {
	corn := func(names ...string) func(*mdx.Model) {
		return func(m *mdx.Model) {
			for _, n := range names {
				id := int32(len(m.Nodes()))
				m.PopcornEmitters = append(m.PopcornEmitters, mdx.PopcornEmitter{
					Node: mdx.Node{Name: n, ObjectID: id, ParentID: -1, Flags: mdx.NodeParticleEmitter},
					Path: `Effects\` + n + `.pkfx`, LifeSpan: 1, EmissionRate: 10, Speed: 1, Alpha: 1, Color: mdx.Vec3{1, 1, 1},
				})
				m.PivotPoints = append(m.PivotPoints, mdx.Vec3{})
			}
		}
	}
	path := filepath.Join(modelsDir, "hd_diffuse.mdl")
	m := loadFixture(t, path)
	v := hdView
	v.Particles = Particles{}
	ref, warns, err := renderAt(m, path, v)
	if err != nil || len(warns) != 0 {
		t.Fatalf("without CORN: warnings %v, %v", warns, err)
	}
	corn("Glow", "Sparks")(m)
	img, warns, err := renderAt(m, path, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 {
		t.Fatalf("two CORN emitters: warnings %v, want two", warns)
	}
	for i, n := range []string{"Glow", "Sparks"} {
		w := warns[i]
		if w.Code != PopcornNotDrawn || !strings.Contains(w.Message, `"`+n+`"`) || !strings.Contains(w.Message, n+`.pkfx`) || strings.Contains(w.Message, "\n") {
			t.Errorf("warning %d = %+v, want one line of code %q naming %s and its effect file", i, w, PopcornNotDrawn, n)
		}
	}
	if !samePixels(img, ref) {
		t.Error("a CORN emitter changed the picture")
	}
	// Particles turned off: the user asked for no effects; nothing to say.
	v.Particles.Off = true
	if _, warns, _ := renderAt(m, path, v); len(warns) != 0 {
		t.Errorf("particles off: warnings %v", warns)
	}
}
