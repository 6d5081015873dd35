package m2

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// checkModel checks a converted model against its File: every structure
// the converter reads is consistent, as the format requires.
func checkModel(t *testing.T, name string, f *File, m *mdx.Model) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if len(m.Sequences) != len(f.Sequences) || len(m.Bones) != len(f.Bones) || len(m.PivotPoints) != len(f.Bones) ||
		len(m.Textures) != len(f.Textures) {
		t.Errorf("%s: counts differ from the file", name)
	}
	drawn := map[uint16]bool{}
	for _, u := range f.Views[0].TexUnits {
		drawn[u.Submesh] = true
	}
	if len(m.Geosets) != len(drawn) || len(m.Materials) != len(m.Geosets) {
		t.Errorf("%s: %d geosets, %d materials for %d drawn submeshes", name, len(m.Geosets), len(m.Materials), len(drawn))
	}
	for gi, g := range m.Geosets {
		if len(g.Faces) == 0 || len(g.Faces)%3 != 0 {
			t.Errorf("%s geoset %d: %d indices", name, gi, len(g.Faces))
		}
		for v := range g.Vertices {
			s := g.Skin[8*v:]
			sum := int(s[4]) + int(s[5]) + int(s[6]) + int(s[7])
			if sum != 255 && len(f.Bones) > 0 {
				t.Fatalf("%s geoset %d vertex %d: weights sum to %d", name, gi, v, sum)
			}
		}
		for _, l := range m.Materials[g.MaterialID].Layers {
			if l.TextureID < 0 || int(l.TextureID) >= len(m.Textures) || l.FilterMode > mdx.FilterModulate2x {
				t.Errorf("%s geoset %d: layer %+v", name, gi, l)
			}
		}
	}
	for _, s := range m.Sequences {
		if s.Interval[1] < s.Interval[0] {
			t.Errorf("%s: sequence %q interval %v", name, s.Name, s.Interval)
		}
	}
	for i, b := range m.Bones {
		for _, tr := range []*mdx.Track[mdx.Vec3]{b.Translation, b.Scaling} {
			if tr != nil && tr.GlobalSeqID < 0 && len(m.Sequences) > 0 {
				last := m.Sequences[len(m.Sequences)-1].Interval[1]
				for _, k := range tr.Keys {
					if uint32(k.Frame) > last {
						t.Errorf("%s bone %d: key at %d after the last sequence ends (%d)", name, i, k.Frame, last)
						break
					}
				}
			}
		}
	}
	t.Logf("%s: v%d, %d sequences, %d bones, %d vertices, %d views, %d geosets, %d textures, %d render flags, %d colors, %d transparencies, %d texture anims",
		name, f.Header.Version, len(f.Sequences), len(f.Bones), len(f.Vertices), len(f.Views), len(m.Geosets), len(f.Textures),
		len(f.RenderFlags), len(f.Colors), len(f.Transparency), len(f.TextureAnims))
}

var (
	reSeqs  = regexp.MustCompile(`sequences=(\d+)`)
	reViews = regexp.MustCompile(`views/skins=(\d+)`)
)

// checkNote compares the counts the corpus manifest (written by another
// tool) gives for a file.
func checkNote(t *testing.T, e testshared.CorpusFile, f *File) {
	t.Helper()
	if s := reSeqs.FindStringSubmatch(e.Note); s != nil {
		if n, _ := strconv.Atoi(s[1]); n != len(f.Sequences) {
			t.Errorf("%s: %d sequences, manifest says %d", e.Rel, len(f.Sequences), n)
		}
	}
	if s := reViews.FindStringSubmatch(e.Note); s != nil {
		if n, _ := strconv.Atoi(s[1]); n != len(f.Views) {
			t.Errorf("%s: %d views, manifest says %d", e.Rel, len(f.Views), n)
		}
	}
}
