package mdx

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mdlFuzzSeeds are small MDL texts: the testdata files, snippets exercising
// every block, and MDL written from the MDX fuzz seeds.
func mdlFuzzSeeds() [][]byte {
	var seeds [][]byte
	files, _ := filepath.Glob(filepath.Join("testdata", "mdl", "*.mdl"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			seeds = append(seeds, b)
		}
	}
	for _, s := range fuzzSeeds() {
		if m, err := decodeBytes(s); err == nil {
			if b, err := encodeMDLT(m); err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	seeds = append(seeds,
		[]byte("Version { FormatVersion 1100 }\nMaterials 1 { Material { Layer { Shader \"Shader_HD_DefaultUnit\", static TextureID 1 <= 0, TextureID 1 { DontInterp, 0: 2, } <= 0 } } }\n"),
		[]byte("/* block */ Bone b { ObjectId 0, NodeFlags 5, Visibility 1 { 7, 0: 1, } }\n"),
		[]byte("GeosetAnim { Flags 1, Color 1 { Hermite, 0: {1,2,3}, InTan {0,0,0}, OutTan {1,1,1}, }, }\n"),
		[]byte("Sequences 1 { Anim \"a\" { Frequency 0.5, Replay { 1, 2 }, BlendTime 150, SyncPoint 3 } }\nGeoset { BoneIndices 2 { 1, 2 } BoneWeights { 255, 0 } SelectionFlags 1 }\n"),
		[]byte("Geoset { Faces 2 4 { Points { 0 } 17 { { 1, 2 } 3 } } Groups 1 0 { Matrices { } } }\n"),
	)
	return seeds
}

// FuzzParseMDL checks that no text panics or hangs the MDL parser, that
// errors are *MDLError, and that whatever parses is written, read back to
// the same model, and written again to the same bytes.
func FuzzParseMDL(f *testing.F) {
	for _, s := range mdlFuzzSeeds() {
		f.Add(s)
	}
	addCorpusSeeds(f, corpusMDL, 32<<10)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeMDL(b)
		if err != nil {
			var me *MDLError
			if !errors.As(err, &me) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			if me.Line < 1 || me.Column < 1 || strings.TrimSpace(me.Reason) == "" {
				t.Fatalf("error without a position or reason: %v", err)
			}
			return
		}
		out, err := encodeMDLT(m)
		if err != nil {
			t.Fatalf("writing a parsed model: %v", err)
		}
		m2, err := decodeMDL(out)
		if err != nil {
			t.Fatalf("our own MDL does not parse: %v\n%s", err, out)
		}
		if d := modelDiff(m, m2, 5); len(d) > 0 {
			t.Fatalf("MDL rewrite changed the model: %v", d)
		}
		again, err := encodeMDLT(m2)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("MDL rewrite is not stable: %v", err)
		}
	})
}
