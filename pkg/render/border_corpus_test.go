package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusStillsKeepTheMargin renders the default still of corpus
// models (the zero View: 256², the Stand sequence at its start, the
// camera rule of every entry point, missing textures grey) and checks
// that nothing that shows touches the picture's outer rows and columns:
// no pixel of alpha 16/255 or more (the least opacity the framing counts,
// framingAlpha; fainter fringes are allowed there,
// docs/rendering.md#silhouette). A model camera (a portrait's) frames the
// picture as its author chose: its stills are left out. By default it
// takes every eighth model; MDXR_BORDER_ALL=1 takes all of them, and
// BORDER_DIR=dir keeps the pictures there for looking at.
func TestCorpusStillsKeepTheMargin(t *testing.T) {
	models := corpusModels(t)
	step := 8
	if os.Getenv("MDXR_BORDER_ALL") != "" {
		step = 1
	} else if testing.Short() {
		t.Skip("renders many models; MDXR_BORDER_ALL=1 renders all")
	}
	checked := 0
	for i := 0; i < len(models); i += step {
		path := models[i]
		m, err := loadPath(path)
		if err != nil {
			continue // the corpus holds broken files on purpose
		}
		name, _ := filepath.Rel(filepath.Join(sharedRoot(), "corpus"), path)
		a := NewAnimator(m, path, besideModel(path, nil))
		if a.modelCamera(&View{}) != "" {
			t.Logf("%s: seen through its portrait camera; skipped", name)
			continue
		}
		img, _, err := a.Render(View{})
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		checked++
		if d := os.Getenv("BORDER_DIR"); d != "" {
			writePNGFile(t, filepath.Join(d, strings.NewReplacer("/", "_", " ", "_").Replace(name)+".png"), img)
		}
		if shown := opaqueBounds(img, 16); !shown.Empty() && !shown.In(img.Rect.Inset(1)) {
			t.Errorf("%s: what shows (%v) touches the edge of the %v picture", name, shown, img.Rect.Size())
		}
	}
	if checked < len(models)/step/2 {
		t.Errorf("only %d of %d models checked", checked, len(models)/step)
	}
	t.Logf("%d models checked", checked)
}
