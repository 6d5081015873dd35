package render

import (
	"bufio"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// TestStockEmittersMatchReferenceViewer renders the stock emitter models
// of Retera Model Studio (particles only, no geometry) at the views in
// testdata/golden/peer-stock/jobs.txt and compares them with the reference
// viewer's renders stored beside it: each must be close (< 1% mismatch,
// IoU ≥ 0.98; measured at most 0.21% and at least 0.991) and must not be
// empty.
func TestStockEmittersMatchReferenceViewer(t *testing.T) {
	shared := testshared.Root()
	if _, err := os.Stat(filepath.Join(shared, "corpus")); err != nil {
		t.Skipf("shared corpus not found (%v)", err)
	}
	dir := filepath.Join(goldenDir, "peer-stock")
	f, err := os.Open(filepath.Join(dir, "jobs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The camera the viewer uses for a model without vertices (its default
	// fit box), see the folder's README.
	target := fauxgl.V(0, 0, 50)
	black := color.NRGBA{0, 0, 0, 255}
	res := &texture.Resolver{
		Sources: []texture.Source{texture.Folder(filepath.Join(shared, "corpus", "files", "warcraft3-icc", "ICC.w3x"))},
		Cache:   texture.NewCache(0),
	}
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// "MODEL" --time MS --out NAME [--sequence N]
		q := strings.Index(line[1:], `"`)
		if line[0] != '"' || q < 0 {
			t.Fatalf("jobs.txt: bad line %q", line)
		}
		model, args := line[1:q+1], strings.Fields(line[q+2:])
		rel, ok := strings.CutPrefix(model, "../../../../shared/")
		if !ok {
			t.Fatalf("jobs.txt: model %q is not under ../shared", model)
		}
		mpath := filepath.Join(shared, filepath.FromSlash(rel))
		opt := View{
			Width: 256, Sequence: SequenceAt(0), Background: &black, Yaw: 30, Pitch: 20, Fov: 45, Distance: 248.9337, Target: &target, Near: 2.4893, Far: 605.3438, Particles: Particles{Seed: 6, StepMs: 1000.0 / 60, Preroll: NoPreroll},
			// Some stock textures are not in the corpus: the viewer's
			// white stand-in, as its renders have.
			MissingTextures: MissingWhite,
		}
		var out string
		for i := 0; i+1 < len(args); i += 2 {
			switch args[i] {
			case "--time":
				opt.Time, err = harnessTime(args[i+1])
				if err != nil {
					t.Fatalf("jobs.txt: %v", err)
				}
			case "--out":
				out = args[i+1]
			case "--sequence":
				opt.Sequence = harnessSequence(args[i+1])
			default:
				t.Fatalf("jobs.txt: unknown option %q", args[i])
			}
		}
		n++
		m := loadFixture(t, mpath)
		img, _, err := NewAnimator(m, mpath, besideModel(mpath, res)).Render(opt)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		ref := golden.ReadPNG(t, filepath.Join(dir, out))
		pct, iou := compareRef(ref, img, black)
		if pct >= 1 || iou < 0.98 {
			t.Errorf("%s: mismatch %.2f%% (want < 1%%), IoU %.3f (want ≥ 0.98)", out, pct, iou)
		}
		lit := 0
		for i := 0; i < len(img.Pix); i += 4 {
			if img.Pix[i] > 16 || img.Pix[i+1] > 16 || img.Pix[i+2] > 16 {
				lit++
			}
		}
		if lit < 100 {
			t.Errorf("%s: only %d pixels drawn; the emitter's particles are missing", out, lit)
		}
	}
	if n != 11 {
		t.Fatalf("jobs.txt: %d views, want 11", n)
	}
}
