package mdx

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestV1200Light: version 1200 lights carry a shadow intensity after the
// ambient intensity, in MDX and in MDL; earlier versions have none.
func TestV1200Light(t *testing.T) {
	light := func(v uint32, shadow ...float32) *bb {
		w := header(v)
		w.chunk("LITE", func(c *bb) {
			c.sized(func(l *bb) {
				l.node("Light", 0, -1, NodeLight, nil)
				l.u32(uint32(LightOmni)).f32(80, 200, 1, 0.5, 0.25, 2, 0.1, 0.2, 0.3, 0.7).f32(shadow...)
				l.floatTrack("KLAV", uint32(DontInterp), -1, 0, 1)
			})
		})
		return w
	}
	m := decodeOK(t, light(1200, 0.65).b)
	l := m.Lights[0]
	if l.AmbIntensity != 0.7 || l.ShadowIntensity != 0.65 || l.Visibility == nil {
		t.Fatalf("v1200 light: %+v", l)
	}
	// The same bytes read as version 1100 leave the shadow intensity in the
	// record's tail, unread.
	if m := decodeOK(t, light(1100, 0.65).b); m.Lights[0].ShadowIntensity != 0 || m.Lights[0].Visibility != nil {
		t.Errorf("v1100 read the shadow intensity: %+v", m.Lights[0])
	}
	// A light built in code gets its field written.
	built := &Model{Version: 1200, Lights: []Light{{Node: Node{Name: "L", ObjectID: 0, ParentID: -1, Flags: NodeLight}, ShadowIntensity: 0.25}}}
	b, err := encodeBytesT(built)
	if err != nil {
		t.Fatal(err)
	}
	if m := decodeOK(t, b); m.Lights[0].ShadowIntensity != 0.25 {
		t.Errorf("built light: %+v", m.Lights[0])
	}

	// MDL: written as "static ShadowIntensity" and read back; a 1200 light
	// without it reads as the default.
	text, err := encodeMDLT(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "static ShadowIntensity 0.65,") {
		t.Errorf("MDL lacks the shadow intensity:\n%s", text)
	}
	back, err := decodeMDL(text)
	if err != nil || back.Lights[0].ShadowIntensity != 0.65 {
		t.Fatalf("MDL round trip: %v %+v", err, back.Lights)
	}
	without := strings.Replace(string(text), "static ShadowIntensity 0.65,", "", 1)
	if back, err := decodeMDL([]byte(without)); err != nil || back.Lights[0].ShadowIntensity != DefaultShadowIntensity {
		t.Errorf("v1200 MDL light without a shadow intensity: %v %+v", err, back.Lights)
	}
	old := strings.Replace(without, "FormatVersion 1200", "FormatVersion 1100", 1)
	if back, err := decodeMDL([]byte(old)); err != nil || back.Lights[0].ShadowIntensity != 0 {
		t.Errorf("v1100 MDL light: %v %+v", err, back.Lights)
	}
}

// TestMDLCorpusV1200ToMDX converts every corpus MDL of version 1200 to MDX
// and back: the MDX decodes to the same model, and re-encodes to the same
// bytes.
func TestMDLCorpusV1200ToMDX(t *testing.T) {
	n := 0
	for _, e := range corpusMDL(t) {
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("FormatVersion 1200")) {
			continue
		}
		n++
		m, err := decodeMDL(b)
		if err != nil {
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		bin, m2, err := viaMDX(m)
		if err != nil {
			t.Errorf("%s: MDX: %v", e.Rel, err)
			continue
		}
		if m2.Version != 1200 {
			t.Errorf("%s: MDX version %d", e.Rel, m2.Version)
		}
		again, err := encodeBytesT(m2)
		if err != nil || !bytes.Equal(again, bin) {
			t.Errorf("%s: MDX re-encoding differs: %v", e.Rel, err)
		}
		m.ClearFileDetails()
		m2.ClearFileDetails()
		if d := modelDiff(m, m2, 5); len(d) > 0 {
			t.Errorf("%s: MDL -> MDX -> model changed it: %v", e.Rel, d)
		}
	}
	if n == 0 {
		t.Skip("no version 1200 MDL in the corpus")
	}
	t.Logf("%d version 1200 models converted", n)
}
