package mdx

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// notByteIdentical names the valid v800-1100 corpus MDX files that do not
// re-encode byte-identically, with the reason; at most 1 % of them may.
// Currently none.
var notByteIdentical = map[string]string{}

// failsValidate names valid-format corpus files whose geometry is
// inconsistent, which Validate must report.
var failsValidate = map[string]string{
	"files/war3mdlx/test/all.mdx":    "synthetic test: a one-vertex geoset whose triangle uses vertices 0, 1, 2",
	"files/war3mdlx/test/geoset.mdx": "synthetic test: a one-vertex geoset whose triangle uses vertices 0, 1, 2",
}

// mustDecodeWhereReferenceFails lists valid files the reference parser
// (mdx-m3-viewer 5.12.0) rejects; we must read them.
var mustDecodeWhereReferenceFails = []string{
	"files/pqhuy98-Warcraft3/frozen-throne/maps/frozen-throne.w3x/Models/BossMinimapIcon/BossMinimapIcon.mdx",
	"files/pqhuy98-Warcraft3/silverpine-forest/maps/silverpine.w3x/Models/HarvestGolem/HarvestGolem_Portrait.mdx",
}

func modelCounts(m *Model) peerCounts {
	c := peerCounts{
		Version:         int(m.Version),
		Geosets:         len(m.Geosets),
		Bones:           len(m.Bones),
		Helpers:         len(m.Helpers),
		Attachments:     len(m.Attachments),
		Sequences:       len(m.Sequences),
		GlobalSequences: len(m.GlobalSequences),
		Materials:       len(m.Materials),
		Textures:        len(m.Textures),
		TextureAnims:    len(m.TextureAnims),
		GeosetAnims:     len(m.GeosetAnims),
		Lights:          len(m.Lights),
		Emitters:        len(m.ParticleEmitters),
		Emitters2:       len(m.ParticleEmitters2),
		Ribbons:         len(m.RibbonEmitters),
		EventObjects:    len(m.EventObjects),
		Cameras:         len(m.Cameras),
		CollisionShapes: len(m.CollisionShapes),
		PivotPoints:     len(m.PivotPoints),
	}
	for i := 0; i < 3; i++ {
		c.Extent.Min[i] = float64(m.Extent.Min[i])
		c.Extent.Max[i] = float64(m.Extent.Max[i])
	}
	c.Extent.BoundsRadius = float64(m.Extent.BoundsRadius)
	for _, g := range m.Geosets {
		c.Vertices += len(g.Vertices)
		c.Faces += len(g.Faces) / 3
	}
	for _, mt := range m.Materials {
		c.Layers += len(mt.Layers)
	}
	return c
}

// TestCorpusMDX decodes the corpus's v800-1100 MDX files, compares their
// counts with the reference parser's, and re-encodes them: byte for byte
// as read, and canonically to the same model. By default it covers every
// 4th file of each version and malformedness and every file the lists
// above name; MDXR_FULL=1 every file.
func TestCorpusMDX(t *testing.T) {
	files, sample := sampleCorpus(corpusMDX(t), 4, func(e testshared.CorpusFile) bool {
		_, fails := failsValidate[e.Rel]
		_, differs := notByteIdentical[e.Rel]
		return fails || differs || slices.Contains(mustDecodeWhereReferenceFails, e.Rel)
	})
	peer := peerParse(t)
	var valid, identical, compared int
	decoded := map[string]bool{}
	for _, e := range files {
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := decodeBytes(b)
		if e.Malformed() {
			// Broken on purpose: they may decode (if the flaw is semantic)
			// but must not panic, and a failure must be a FormatError.
			var fe *FormatError
			if err != nil && !errors.As(err, &fe) {
				t.Errorf("%s: malformed file gave %T %v, want *FormatError", e.Rel, err, err)
			}
			if err == nil {
				if err = m.Validate(); err == nil {
					t.Errorf("%s: malformed file passes Decode and Validate", e.Rel)
				}
			}
			t.Logf("%s: %v", e.Rel, err)
			continue
		}
		valid++
		if err != nil {
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		decoded[e.Rel] = true
		if err := m.Validate(); err != nil {
			if _, ok := failsValidate[e.Rel]; !ok {
				t.Errorf("%s: %v", e.Rel, err)
			}
		} else if why, ok := failsValidate[e.Rel]; ok {
			t.Errorf("%s: listed as failing Validate (%s) but passes", e.Rel, why)
		}

		if p, ok := peer[e.Rel]; ok && p.Error == "" && p.Counts != nil {
			compared++
			if got := modelCounts(m); got != *p.Counts {
				t.Errorf("%s: counts differ from the reference parser:\n got %+v\nwant %+v", e.Rel, got, *p.Counts)
			}
		}

		out, err := encodeBytesT(m)
		if err != nil {
			t.Errorf("%s: encode: %v", e.Rel, err)
			continue
		}
		if bytes.Equal(out, b) {
			identical++
			if why, ok := notByteIdentical[e.Rel]; ok {
				t.Errorf("%s: listed as not byte-identical (%s) but is; update the list", e.Rel, why)
			}
		} else if _, ok := notByteIdentical[e.Rel]; !ok {
			t.Errorf("%s: re-encoding differs from offset %#x (len %d, want %d)", e.Rel, firstDiff(out, b), len(out), len(b))
		}

		// The canonical form must carry the same model.
		m2, err := decodeBytes(out)
		if err != nil {
			t.Errorf("%s: decoding our own output: %v", e.Rel, err)
			continue
		}
		if d := modelDiff(m, m2, 5); len(d) > 0 {
			t.Errorf("%s: decode(encode(m)) != m: %v", e.Rel, d)
		}
		m.ClearFileDetails()
		_, m3, err := viaMDX(m)
		if err != nil {
			t.Errorf("%s: canonical encoding: %v", e.Rel, err)
			continue
		}
		if d := modelDiff(m, m3, 5); len(d) > 0 {
			t.Errorf("%s: canonical encoding does not decode to the same model: %v", e.Rel, d)
		}
	}
	for _, rel := range mustDecodeWhereReferenceFails {
		if !decoded[rel] {
			t.Errorf("%s: the reference parser fails on it and so do we", rel)
		}
	}
	if valid == 0 {
		t.Fatal("no MDX files in the corpus manifest")
	}
	if compared < valid/2 {
		t.Errorf("only %d of %d files had reference counts to compare", compared, valid)
	}
	pct := 100 * float64(identical) / float64(valid)
	t.Logf("MDX files %s; %d valid v800-1100 MDX: %d byte-identical (%.1f%%), counts compared with the reference on %d", sample, valid, identical, pct, compared)
	if pct < 99 {
		t.Errorf("byte-identical re-encoding %.1f%% < 99%%", pct)
	}
}
