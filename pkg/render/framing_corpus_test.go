package render

import (
	"context"
	"image"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// referenceModels lists the models of the reference renders
// (reference/peer/jobs.tsv), each once, as paths.
func referenceModels(t *testing.T) []string {
	shared := testshared.Dir(t, "reference/peer/jobs.tsv")
	data, err := os.ReadFile(filepath.Join(shared, "reference", "peer", "jobs.tsv"))
	if err != nil {
		t.Skip(err)
	}
	seen := map[string]bool{}
	var out []string
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(l, "\t")
		if i == 0 || len(f) < 2 || seen[f[1]] {
			continue
		}
		seen[f[1]] = true
		out = append(out, filepath.Join(shared, "reference", filepath.FromSlash(f[1])))
	}
	sort.Strings(out)
	return out
}

// opaqueBounds is the bounding box of the pixels with alpha of at least
// min.
func opaqueBounds(img *image.NRGBA, min uint8) image.Rectangle {
	var r image.Rectangle
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.NRGBAAt(x, y).A >= min {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

// isUnit reports whether a model has the sequences of a unit: it stands
// and walks or attacks (effects, doodads and portraits do not).
func isUnit(m *mdx.Model) bool {
	var stand, move bool
	for _, s := range m.Sequences {
		n := strings.ToLower(s.Name)
		stand = stand || strings.HasPrefix(n, "stand")
		move = move || strings.HasPrefix(n, "walk") || strings.HasPrefix(n, "attack")
	}
	return stand && move
}

// TestFramingFillsStills renders a default still of every unit among the
// reference models (its Stand sequence at its start, as a batch thumbnail) and checks that its
// drawn pixels span at least 85% of the picture's limiting side at the
// default margin, and that what shows (alpha of at least 1/16, as the
// framing counts it) does not touch the picture's edges.
func TestFramingFillsStills(t *testing.T) {
	models := referenceModels(t)
	// The default size: the framing reads textures' level 0, so at a
	// smaller size, where particles sample coarser, blurrier levels, their
	// faint edges fade and a unit with an aura of particles fills a little
	// less (84% at 128 pixels, for one).
	const size = DefaultSize
	units := 0
	for _, path := range models {
		m, err := testmodel.LoadPath(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !isUnit(m) {
			continue
		}
		units++
		img, _, err := NewAnimator(m, path, besideModel(path, nil)).Render(View{Width: size, Sequence: SequenceNamed("stand")})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if d := os.Getenv("FRAMING_DIR"); d != "" { // for looking at them
			golden.WritePNG(t, filepath.Join(d, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".png"), img)
		}
		name := filepath.Base(path)
		if Blank(img) { // a ground ring seen edge-on
			t.Logf("%s: blank at the default view; skipped", name)
			continue
		}
		b := opaqueBounds(img, 1)
		if span := max(b.Dx(), b.Dy()); float64(span) < 0.85*size {
			t.Errorf("%s: drawn pixels span %v, %.0f%% of the %d-pixel side, want at least 85%%", name, b, 100*float64(span)/size, size)
		}
		if shown := opaqueBounds(img, 16); !shown.In(img.Rect.Inset(1)) {
			t.Errorf("%s: pixels that show (%v) reach the picture's edge", name, shown)
		}
	}
	if units < 10 {
		t.Errorf("only %d units among %d reference models", units, len(models))
	}
	t.Logf("%d units of %d reference models", units, len(models))
}

// TestFramingKeepsSheetFramesWhole renders runs of frames of the reference
// units (up to three sequences, three frames each, seen from two yaws)
// with a camera per sequence (the default) and checks that no frame is
// clipped: nothing that shows touches a frame's edge, the model's origin
// stays put within a sequence and yaw, and the frames together still fill
// the picture. The first few units are drawn again with one camera for
// the whole run (FrameShared), whose origin stays put across sequences.
// By default it covers every 3rd unit, with MDXR_FULL=1 every one.
func TestFramingKeepsSheetFramesWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("renders many frames")
	}
	// Not smaller: a ground glow seen edge-on samples its coarsest mip
	// levels, whose blur spreads its alpha past what the framing, which
	// reads level 0, counts (docs/rendering.md#silhouette); at 48 pixels
	// that reached the edge of a unit's Stand.
	const size = 64
	shared := 0
	sample := sweep.New(3)
	defer func() { t.Logf("units %s", sample) }()
	for _, path := range referenceModels(t) {
		m, err := testmodel.LoadPath(path)
		if err != nil || !isUnit(m) || !sample.Take("unit") {
			continue
		}
		var frames []Frame
		for _, yaw := range []float64{0, 135} {
			for si := range min(3, len(m.Sequences)) {
				s := m.Sequences[si]
				for k := range 3 {
					frames = append(frames, Frame{Sequence: si, Time: float64(k) * float64(s.Interval[1]-s.Interval[0]) / 3, Yaw: yaw})
				}
			}
		}
		framings := []RunFraming{FramePerSequence}
		if shared < 4 {
			shared++
			framings = append(framings, FrameShared)
		}
		for _, fr := range framings {
			pics, _, err := NewAnimator(m, path, besideModel(path, nil)).RenderPictures(context.Background(), View{Width: size, RunFraming: fr}, frames)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			name := filepath.Base(path) + " (" + fr.String() + ")"
			var union image.Rectangle
			for i, p := range pics {
				shown := opaqueBounds(p.Image, 16)
				union = union.Union(opaqueBounds(p.Image, 1))
				if !shown.Empty() && !shown.In(p.Image.Rect.Inset(1)) {
					t.Errorf("%s: frame %d (%+v) is clipped: %v", name, i, frames[i], shown)
				}
				if math.IsNaN(p.Origin[0]) {
					t.Errorf("%s: frame %d: no origin", name, i)
				}
				if i > 0 && frames[i].Yaw == frames[i-1].Yaw && (fr == FrameShared || frames[i].Sequence == frames[i-1].Sequence) && p.Origin != pics[i-1].Origin {
					t.Errorf("%s: the origin moves between frames %d and %d: %v, %v", name, i-1, i, pics[i-1].Origin, p.Origin)
				}
			}
			if !union.Empty() && max(union.Dx(), union.Dy()) < size*3/4 {
				t.Errorf("%s: the frames together span only %v of %d pixels", name, union, size)
			}
		}
	}
}

// BenchmarkSheetRun measures a sheet of the corpus unit (Walk and Death,
// 8 frames each, from 4 yaws, 96 px, particles on) drawn with one camera,
// and the framing pass alone (posing, simulating and fitting every
// frame), which is what the shared camera adds to drawing the frames.
func BenchmarkSheetRun(b *testing.B) {
	m, p := corpusModel(b, "war3-ap-maps/mods/apimports/evilshadowhunter.mdx")
	var frames []Frame
	for _, yaw := range []float64{0, 90, 180, 270} {
		for _, si := range []int{0, 4} { // Walk, Death
			s := m.Sequences[si]
			for k := range 8 {
				frames = append(frames, Frame{Sequence: si, Time: float64(k) * float64(s.Interval[1]-s.Interval[0]) / 8, Yaw: yaw})
			}
		}
	}
	v := View{Width: 96, Workers: 1}
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	b.Run("framing", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewAnimator(m, p, besideModel(p, res)).runCamera(context.Background(), v, frames); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sheet", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := NewAnimator(m, p, besideModel(p, res)).RenderPictures(context.Background(), v, frames); err != nil {
				b.Fatal(err)
			}
		}
	})
}
