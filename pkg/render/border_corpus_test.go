package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

// TestCorpusStillsKeepTheMargin renders the default still of corpus
// models (the zero View: 256², the Stand sequence at its start, the
// camera rule of every entry point, missing textures grey) and checks
// that nothing that shows touches the picture's outer rows and columns:
// no pixel of alpha 16/255 or more (the least opacity the framing counts,
// framingAlpha; fainter fringes are allowed there,
// docs/rendering.md#silhouette). A model camera (a portrait's) frames the
// picture as its author chose: its stills are left out. By default it
// takes every eighth model of each format and version; MDXR_FULL=1 takes
// all of them, and BORDER_DIR=dir keeps the pictures there for looking at.
func TestCorpusStillsKeepTheMargin(t *testing.T) {
	if testing.Short() && !sweep.Full() {
		t.Skip("renders many models; MDXR_FULL=1 renders all")
	}
	sample := sweep.New(8)
	defer func() { t.Logf("models %s", sample) }()
	checked := 0
	files := corpusModels(t, sample)
	for _, path := range files {
		m, err := testmodel.LoadPath(path)
		if err != nil {
			continue // the corpus holds broken files on purpose
		}
		name, _ := filepath.Rel(filepath.Join(testshared.Root(), "corpus"), path)
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
			golden.WritePNG(t, filepath.Join(d, strings.NewReplacer("/", "_", " ", "_").Replace(name)+".png"), img)
		}
		if shown := opaqueBounds(img, 16); !shown.Empty() && !shown.In(img.Rect.Inset(1)) {
			t.Errorf("%s: what shows (%v) touches the edge of the %v picture", name, shown, img.Rect.Size())
		}
	}
	if checked < len(files)/2 {
		t.Errorf("only %d of %d models checked", checked, len(files))
	}
	t.Logf("%d models checked", checked)
}
