package render

import (
	"testing"

	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// corpusModels lists the model files of the shared corpus manifest that
// s takes, of each format and version.
func corpusModels(t *testing.T, s *sweep.Sampler) []string {
	var out []string
	for _, e := range testshared.CorpusFiles(t) {
		if (e.Magic == "MDLX" || e.Magic == "MDL-text" || e.Magic == "MD20") && s.Take(e.Magic+" "+e.Version) {
			out = append(out, e.Path)
		}
	}
	return out
}

// TestCorpusOverdraw draws the corpus models at the default view,
// halfway through each of their first two sequences (the bind pose if
// they have none), with a quarter of the default MaxOverdraw: no real
// model comes near the default. By default it draws every 4th model of
// each format and version; with MDXR_FULL=1 every one, and the largest
// coverage it logs is then the one docs/hostile-input.md quotes.
func TestCorpusOverdraw(t *testing.T) {
	if testing.Short() {
		t.Skip("draws corpus models")
	}
	sample := sweep.New(4)
	files := corpusModels(t, sample)
	worst, worstAt := 0.0, ""
	for _, path := range files {
		f, err := testmodel.LoadFile(path)
		if err != nil {
			continue // malformed on purpose; the decoders' tests cover them
		}
		m := f.Model
		seqs := []Sequence{BindPose()}
		if len(m.Sequences) > 0 {
			seqs = []Sequence{SequenceAt(0)}
			if len(m.Sequences) > 1 {
				seqs = append(seqs, SequenceAt(1))
			}
		}
		a := NewAnimator(m, path, besideModel(path, nil))
		a.Meter = budget.NewMeter(budget.Limits{Overdraw: budget.Overdraw.Default() / 4})
		for _, s := range seqs {
			_, warns, err := a.Render(View{Sequence: s, Time: Share(0.5)})
			if err != nil {
				continue // sequences out of range and the like
			}
			for _, w := range warns {
				if w.Code == CappedPicture {
					t.Errorf("%s %v: %s", path, s, w)
				}
			}
			st := a.stats
			if r := float64(st.Fragments+st.SkippedFragments) / (DefaultSize * DefaultSize); r > worst {
				worst, worstAt = r, path+" sequence "+s.String()
			}
		}
	}
	t.Logf("models %s; the most coverage is %.1f times the picture (%s)", sample, worst, worstAt)
}
