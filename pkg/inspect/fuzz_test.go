package inspect

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
)

// FuzzBuild describes whatever the decoders accept: building the report,
// marshalling it and writing its text must neither panic nor fail.
func FuzzBuild(f *testing.F) {
	for _, p := range []string{
		filepath.Join("testdata", "box.mdl"),
		filepath.Join("..", "mdx", "testdata", "mdl", "allblocks_v1000.mdl"),
		filepath.Join("..", "..", "testdata", "models", "wow_v1400.mdx"),
		filepath.Join("..", "..", "testdata", "models", "wow_v1500.mdx"),
		filepath.Join("..", "..", "testdata", "models", "m2_skinned.m2"),
		filepath.Join("..", "..", "testdata", "models", "hd_alpha_test.mdl"),
		filepath.Join("..", "..", "testdata", "models", "hd_diffuse_v1100.mdl"),
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		// The binary form too, so the fuzzer mutates MDX as well as MDL.
		if m, err := mdx.DecodeMDL(b, budget.Limits{}); err == nil {
			if mb, err := testmodel.EncodeMDX(m); err == nil {
				f.Add(mb)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := model.Load(b, "fuzz", budget.Limits{})
		if err != nil {
			return
		}
		r := Build(file, "fuzz")
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if err := r.WriteText(io.Discard); err != nil {
			t.Fatalf("text: %v", err)
		}
	})
}
