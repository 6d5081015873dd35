package mdx

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// fuzzSeeds are small hand-built models covering every chunk (see
// chunks_test.go for how they are laid out).
func fuzzSeeds() [][]byte {
	var seeds [][]byte
	for _, v := range []uint32{800, 900, 1000, 1100, 1200} {
		w := header(v)
		w.chunk("SEQS", func(c *bb) {
			c.str("Stand", 80).u32(0, 1000).f32(0).u32(0).f32(0).u32(0).f32(1, 0, 0, 0, 1, 1, 1)
		})
		w.chunk("GLBS", func(c *bb) { c.u32(100) })
		w.chunk("MTLS", func(c *bb) {
			c.sized(func(mt *bb) {
				mt.i32(0).u32(0)
				if v > 800 && v < 1100 {
					mt.str("Shader_SD_FixedFunction", 80)
				}
				mt.tag("LAYS").u32(1)
				layerV(mt, v, func(l *bb) { l.floatTrack("KMTA", uint32(Hermite), -1, 0, 1, 100, 0) })
			})
		})
		w.chunk("TEXS", func(c *bb) { c.u32(0).str("a.blp", 260).u32(0) })
		w.chunk("TXAN", func(c *bb) {
			c.sized(func(t *bb) { t.tag("KTAT").u32(1, 1).i32(-1).u32(0).f32(1, 2, 3) })
		})
		w.chunk("GEOS", func(c *bb) { geosetV(c, v) })
		w.chunk("GEOA", func(c *bb) {
			c.sized(func(g *bb) { g.f32(1).u32(0).f32(1, 1, 1).i32(0).floatTrack("KGAO", 0, -1, 0, 1) })
		})
		w.chunk("BONE", func(c *bb) {
			c.node("b", 0, -1, NodeBone, func(n *bb) {
				n.tag("KGRT").u32(1, uint32(Bezier)).i32(-1).u32(0).f32(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)
			}).i32(0).i32(-1)
		})
		w.chunk("LITE", func(c *bb) {
			c.sized(func(l *bb) {
				l.node("Light", 3, -1, NodeLight, nil)
				l.u32(uint32(LightOmni)).f32(80, 200, 1, 0.5, 0.25, 2, 0.1, 0.2, 0.3, 0.7)
				if v >= 1200 {
					l.f32(0.4)
				}
				l.floatTrack("KLAV", uint32(DontInterp), -1, 0, 1)
			})
		})
		w.chunk("EVTS", func(c *bb) {
			c.node("SNDx", 1, -1, NodeEventObject, nil).tag("KEVT").u32(1).i32(-1).u32(5)
		})
		w.chunk("CLID", func(c *bb) { c.node("s", 2, -1, 0, nil).u32(2).f32(0, 0, 0, 9) })
		w.chunk("PIVT", func(c *bb) { c.f32(0, 0, 0, 1, 1, 1, 2, 2, 2) })
		seeds = append(seeds, w.b)
	}
	return seeds
}

// addCorpusSeeds adds the files list gives of at most max bytes as seeds,
// when the shared corpus is there: large files only slow the fuzzer down,
// the small ones cover the same chunks.
func addCorpusSeeds(f *testing.F, list func(testing.TB) []testshared.CorpusFile, max int) {
	if _, err := os.Stat(filepath.Join(testshared.Root(), "corpus", "manifest.tsv")); err != nil {
		return
	}
	for _, e := range list(f) {
		if b, err := os.ReadFile(e.Path); err == nil && len(b) <= max {
			f.Add(b)
		}
	}
}

// FuzzDecodeMDX checks that no input panics or hangs the decoder, that errors
// are typed, and that whatever decodes re-encodes to the same bytes and
// decodes again to the same model.
func FuzzDecodeMDX(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	addCorpusSeeds(f, corpusMDX, 64<<10)
	f.Fuzz(checkRoundTrip)
}

// checkRoundTrip is what the MDX fuzzers (both dialects) check of any input
// b: decoding does not panic and fails only with a typed error; a decoded
// model re-encodes to b; its canonical encoding decodes to the same model
// and is stable.
func checkRoundTrip(t *testing.T, b []byte) {
	m, err := decodeBytes(b)
	if err != nil {
		var fe *FormatError
		var be *budget.Error
		var ue UnsupportedError
		if !errors.As(err, &fe) && !errors.As(err, &be) && !errors.As(err, &ue) && !errors.Is(err, ErrNotMDX) {
			t.Fatalf("untyped error %T: %v", err, err)
		}
		return
	}
	out, err := encodeBytesT(m)
	if err != nil {
		t.Fatalf("encode of a decoded model: %v", err)
	}
	if !bytes.Equal(out, b) {
		t.Fatalf("re-encoding differs (len %d, want %d)", len(out), len(b))
	}
	m.ClearFileDetails()
	canon, m2, err := viaMDX(m)
	if err != nil {
		t.Fatalf("canonical round trip: %v", err)
	}
	m2.ClearFileDetails()
	if diff := modelDiff(m, m2, 5); len(diff) > 0 {
		t.Fatalf("canonical round trip changed the model: %v", diff)
	}
	again, err := encodeBytesT(m2)
	if err != nil || !bytes.Equal(again, canon) {
		t.Fatalf("canonical encoding is not stable: %v", err)
	}
}
