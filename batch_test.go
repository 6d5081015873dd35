package mdxrender_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batch"
)

// A batch over an fs.FS tree writes the same files, byte for byte, as the
// same batch over the folder on disk: models and their textures are read
// through the tree.
func TestBatchOverTreeMatchesFolder(t *testing.T) {
	run := func(tree bool) string {
		t.Helper()
		cfg := batch.DefaultConfig()
		if tree {
			cfg.Inputs.Trees = []batch.Tree{{Name: "models", FS: os.DirFS("testdata/models")}}
		} else {
			cfg.Inputs.Dirs = []string{"testdata/models"}
		}
		cfg.Inputs.Extensions = []string{".mdl"}
		cfg.Output.Dir = t.TempDir()
		cfg.Output.Gallery = false
		cfg.Render.Size = batch.Square(48)
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		r := batch.Runner{Config: &cfg, Renderer: mdxrender.NewBatchRenderer(0, cfg.Jobs), Version: "test"}
		m, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if m.Summary.Failed != 0 || m.Summary.OK < 20 {
			t.Fatalf("tree=%v: %+v", tree, m.Summary)
		}
		return cfg.Output.Dir
	}
	a, b := run(false), run(true)
	pngs, _ := filepath.Glob(filepath.Join(a, "*.png"))
	if len(pngs) < 20 {
		t.Fatalf("%d pictures from the folder", len(pngs))
	}
	for _, p := range pngs {
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(b, filepath.Base(p)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the tree's picture differs from the folder's (%v)", filepath.Base(p), err)
		}
	}
}
