package batch

import (
	"math/rand/v2"
	"testing"
)

// offsetsOf is a table with every model placed at offs[i].
func offsetsOf(offs []int64) *offsetTable {
	t := newOffsetTable(len(offs))
	for i, o := range offs {
		t.set(i, o)
	}
	return t
}

// Models placed nearly in order, as a run's workers place them, come
// back in order, and the pages every model of which is placed are on
// disk, not in memory; a page with a model not placed stays in memory
// and reads 0 for it, as does a page none of which is placed.
func TestOffsetTable(t *testing.T) {
	n := 3*offsetPage + 17
	want := make([]int64, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
		want[i] = int64(i)*1000 + 7
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i+8 <= n; i += 8 {
		r.Shuffle(8, func(a, b int) { order[i+a], order[i+b] = order[i+b], order[i+a] })
	}
	skip := 1*offsetPage + 5 // never placed: an interrupted model
	want[skip] = 0
	tab := newOffsetTable(n)
	defer tab.close()
	for _, i := range order {
		// Nor any model of the last page (the run was interrupted
		// before it).
		if i >= 3*offsetPage {
			want[i] = 0
			continue
		}
		if i != skip {
			tab.set(i, want[i])
		}
	}
	if len(tab.pages) != 1 || tab.pages[1] == nil {
		t.Errorf("%d pages in memory, want the one with the model not placed", len(tab.pages))
	}
	for pass := 0; pass < 2; pass++ {
		next := 0
		err := tab.each(func(i int, off int64) error {
			if i != next || off != want[i] {
				t.Fatalf("model %d at %d; want model %d at %d", i, off, next, want[next])
			}
			next++
			return nil
		})
		if err != nil || next != n {
			t.Fatalf("%d models, %v", next, err)
		}
	}
}
