package mdx

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// corpusMDL lists the corpus files whose manifest magic is MDL text.
func corpusMDL(t testing.TB) []testshared.CorpusFile {
	var out []testshared.CorpusFile
	for _, e := range testshared.CorpusFiles(t) {
		if e.Magic == "MDL-text" {
			out = append(out, e)
		}
	}
	return out
}

// mdlNotAModel reports corpus MDL-text files that are not models, so that
// parsing them must fail with a clean *MDLError: the empty file, and
// wc3lib's parser-test snippets whose manifest note says "not a full model"
// (a bare Faces, Groups or extent list outside any Geoset or Model block).
func mdlNotAModel(e testshared.CorpusFile) (string, bool) {
	if strings.HasSuffix(e.Rel, "war3mdlx/test/empty.mdl") {
		return "an empty file", true
	}
	if strings.Contains(e.Note, "not a full model") {
		return "a snippet, not a full model", true
	}
	return "", false
}

// TestMDLCorpus parses the corpus MDL files, compares counts with the
// reference parser where it succeeded, and checks that MDL -> model -> MDL
// is stable after the first rewrite and gives the same model. By default
// it covers every 4th file of each version and malformedness and every
// file that is not a model; MDXR_FULL=1 every file.
func TestMDLCorpus(t *testing.T) {
	files, sample := sampleCorpus(corpusMDL(t), 4, func(e testshared.CorpusFile) bool {
		_, not := mdlNotAModel(e)
		return not
	})
	peer := peerParse(t)
	if len(files) == 0 {
		t.Skip("no MDL files in the manifest")
	}
	parsed, compared, beat := 0, 0, 0
	for _, e := range files {
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		m, err := decodeMDL(b)
		if err != nil {
			if e.Malformed() {
				var me *MDLError
				if !asMDLError(err, &me) {
					t.Errorf("%s: malformed file gave %T, want *MDLError: %v", e.Rel, err, err)
				}
				continue
			}
			if why, ok := mdlNotAModel(e); ok {
				if _, isMDL := err.(*MDLError); !isMDL {
					t.Errorf("%s: %T, want *MDLError: %v", e.Rel, err, err)
				}
				t.Logf("%s: %v (expected: %s)", e.Rel, err, why)
				continue
			}
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		if why, ok := mdlNotAModel(e); ok {
			t.Logf("%s: parses although it is %s", e.Rel, why)
		}
		parsed++
		if p, ok := peer[e.Rel]; ok {
			if p.Error == "" && p.Counts != nil {
				compared++
				compareMDLCounts(t, e.Rel, m, p.Counts)
			} else if p.Error != "" && !e.Malformed() {
				beat++
				t.Logf("%s: reference rejects it (%s); we parse it", e.Rel, p.Error)
			}
		}
		checkMDLStable(t, e.Rel, m)
	}
	t.Logf("MDL files %s: %d parsed, %d compared with the reference, %d the reference rejects", sample, parsed, compared, beat)
}

func asMDLError(err error, target **MDLError) bool {
	me, ok := err.(*MDLError)
	if ok {
		*target = me
	}
	return ok
}

// checkMDLStable writes m as MDL, reads it back (same model) and writes it
// again (same bytes).
func checkMDLStable(t *testing.T, name string, m *Model) {
	t.Helper()
	out1, m2, err := viaMDL(m)
	if err != nil {
		t.Errorf("%s: MDL: %v", name, err)
		return
	}
	if d := modelDiff(m, m2, 5); len(d) > 0 {
		t.Errorf("%s: MDL -> model -> MDL -> model differs:\n%s", name, strings.Join(d, "\n"))
	}
	out2, err := encodeMDLT(m2)
	if err != nil {
		t.Errorf("%s: second EncodeMDL: %v", name, err)
		return
	}
	if !bytes.Equal(out1, out2) {
		t.Errorf("%s: MDL rewrite not stable (%d vs %d bytes)", name, len(out1), len(out2))
	}
}

func compareMDLCounts(t *testing.T, name string, m *Model, c *peerCounts) {
	t.Helper()
	verts, faces, layers := 0, 0, 0
	for i := range m.Geosets {
		verts += len(m.Geosets[i].Vertices)
		faces += len(m.Geosets[i].Faces) / 3
	}
	for i := range m.Materials {
		layers += len(m.Materials[i].Layers)
	}
	got := map[string][2]int{
		"version":            {int(m.Version), c.Version},
		"geosets":            {len(m.Geosets), c.Geosets},
		"vertices":           {verts, c.Vertices},
		"faces":              {faces, c.Faces},
		"bones":              {len(m.Bones), c.Bones},
		"helpers":            {len(m.Helpers), c.Helpers},
		"attachments":        {len(m.Attachments), c.Attachments},
		"sequences":          {len(m.Sequences), c.Sequences},
		"global sequences":   {len(m.GlobalSequences), c.GlobalSequences},
		"materials":          {len(m.Materials), c.Materials},
		"layers":             {layers, c.Layers},
		"textures":           {len(m.Textures), c.Textures},
		"texture animations": {len(m.TextureAnims), c.TextureAnims},
		"geoset animations":  {len(m.GeosetAnims), c.GeosetAnims},
		"lights":             {len(m.Lights), c.Lights},
		"particle emitters":  {len(m.ParticleEmitters), c.Emitters},
		"particle emitters2": {len(m.ParticleEmitters2), c.Emitters2},
		"ribbon emitters":    {len(m.RibbonEmitters), c.Ribbons},
		"event objects":      {len(m.EventObjects), c.EventObjects},
		"cameras":            {len(m.Cameras), c.Cameras},
		"collision shapes":   {len(m.CollisionShapes), c.CollisionShapes},
		"pivot points":       {len(m.PivotPoints), c.PivotPoints},
	}
	for k, v := range got {
		if v[0] != v[1] {
			t.Errorf("%s: %s = %d, reference says %d", name, k, v[0], v[1])
		}
	}
	// The reference prints MDL extents as parsed floats; ours must agree.
	for i := 0; i < 3; i++ {
		if float64(m.Extent.Min[i]) != float64(float32(c.Extent.Min[i])) || float64(m.Extent.Max[i]) != float64(float32(c.Extent.Max[i])) {
			t.Errorf("%s: extent %v..%v, reference %v..%v", name, m.Extent.Min, m.Extent.Max, c.Extent.Min, c.Extent.Max)
			break
		}
	}
}

// TestMDXToMDLToMDX converts the corpus MDX of versions 800-1100 to MDL
// and back and compares the models (file layout details cleared): by
// default every 4th file of each version and every file MDL cannot hold,
// MDXR_FULL=1 every file.
func TestMDXToMDLToMDX(t *testing.T) {
	files, sample := sampleCorpus(corpusMDX(t), 4, func(e testshared.CorpusFile) bool {
		_, lossy := mdlLossyMDX[filepath.Base(e.Rel)]
		return lossy
	})
	ok, exceptions := 0, 0
	for _, e := range files {
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		if e.Malformed() {
			continue // HiveWE's broken fixtures; the MDX tests cover them
		}
		m, err := decodeBytes(b)
		if err != nil {
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		m.ClearFileDetails()
		_, m2, err := viaMDL(m)
		if err != nil {
			if why, ok := mdlLossyMDX[filepath.Base(e.Rel)]; ok && errors.Is(err, errEncoding) {
				exceptions++
				t.Logf("%s: %v (known: %s)", e.Rel, err, why)
				continue
			}
			t.Errorf("%s: MDL: %v", e.Rel, err)
			continue
		}
		if d := modelDiff(m, m2, 8); len(d) > 0 {
			t.Errorf("%s: MDX -> MDL -> model differs:\n%s", e.Rel, strings.Join(d, "\n"))
			continue
		}
		again, err := encodeBytesT(m2)
		if err != nil {
			t.Errorf("%s: re-encoding MDX: %v", e.Rel, err)
			continue
		}
		canon, _ := encodeBytesT(m)
		if !bytes.Equal(again, canon) {
			t.Errorf("%s: MDX from MDL differs from the canonical MDX encoding", e.Rel)
			continue
		}
		ok++
	}
	t.Logf("MDX files %s: %d round-trip through MDL exactly, %d known exceptions", sample, ok, exceptions)
}

// mdlLossyMDX names corpus MDX files holding something MDL cannot
// represent, with the reason.
var mdlLossyMDX = map[string]string{
	"Sword06.mdx": `an unknown chunk "MDVI" (kept raw by the MDX codec); MDL has no syntax for raw chunks, so EncodeMDL refuses rather than drop it`,
}

// TestWoWMDXToMDL converts the corpus's early-WoW MDX (v1300-1500, read by
// wow*.go into the same types) to MDL and back: MDL is a Warcraft III
// format, but the WoW-only fields are written with their own keywords, so
// the model survives.
func TestWoWMDXToMDL(t *testing.T) {
	n := 0
	for _, e := range testshared.CorpusFiles(t) {
		if e.Magic != "MDLX" || e.Malformed() {
			continue
		}
		if v, _ := strconv.Atoi(e.Version); v < 1300 || v > 1500 {
			continue
		}
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := decodeBytes(b)
		if err != nil {
			t.Logf("%s: %v (the WoW tests cover it)", e.Rel, err)
			continue
		}
		m.ClearFileDetails()
		if len(m.Unknown) > 0 {
			// EncodeMDL refuses raw chunks (TestMDLWriterRefuses); the
			// rest of the model is what this test is about.
			t.Logf("%s: dropping %d raw chunk(s) MDL cannot hold (first %q)", e.Rel, len(m.Unknown), m.Unknown[0].Tag)
			m.Unknown = nil
		}
		_, m2, err := viaMDL(m)
		if err != nil {
			t.Errorf("%s: MDL: %v", e.Rel, err)
			continue
		}
		if d := modelDiff(m, m2, 8); len(d) > 0 {
			t.Errorf("%s: WoW MDX -> MDL -> model differs:\n%s", e.Rel, strings.Join(d, "\n"))
			continue
		}
		n++
	}
	t.Logf("%d WoW MDX files round-trip through MDL", n)
}
