package render

import (
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
)

// goldenTol is how far a render may stray from its golden: renders are
// bit-identical on one architecture; the slack is for architectures where
// Go fuses multiply-adds.
var goldenTol = golden.Tolerance{Channel: 4, MaxPercent: 0.2}

// TestGoldenFixtures renders every fixture MDL in testdata/models as
// checked in and compares decoded pixels with testdata/golden/<name>.png.
// UPDATE_GOLDEN=1 rewrites the goldens; a failure writes the actual image
// and a diff next to the test output (the path is logged).
func TestGoldenFixtures(t *testing.T) {
	for _, f := range fixtures() {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(modelsDir, f.name+".mdl")
			img, warns, err := renderAt(loadFixture(t, path), path, f.opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range warns {
				t.Errorf("warning: %v", w)
			}
			golden.Check(t, filepath.Join(goldenDir, f.name+".png"), img, goldenTol)
		})
	}
}
