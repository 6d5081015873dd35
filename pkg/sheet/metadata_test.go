package sheet

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// goldenLayout has what makes metadata interesting: looping and one-shot
// sequences, an unnamed one, a name used twice, frame-rate sampling, a
// fractional yaw and wrapped rows.
func goldenLayout(t *testing.T) *Layout {
	t.Helper()
	seqs := []Sequence{
		{Name: "Stand", Start: 0, End: 1000, Looping: true},
		{Name: "Walk", Start: 2000, End: 2700, Looping: true},
		{Name: "", Start: 3000, End: 3001},
		{Name: "Walk", Start: 4000, End: 4333},
		{Name: "Death", Start: 5000, End: 6500},
	}
	var strips []Strip
	for i, s := range seqs {
		smp := SampleSequence(s, 3, 0)
		if i == 3 {
			smp = SampleSequence(s, 0, 12)
		}
		strips = append(strips, Strip{Index: i * 2, Sequence: s, Samples: smp})
	}
	l, err := NewLayout(strips, []float64{0, 22.5, 90}, 16, 12, 2)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The metadata files are byte for byte what earlier releases wrote (the
// files in testdata were written by the code before it became this
// package), so game projects that commit them see no churn.
func TestMetadataBytes(t *testing.T) {
	l := goldenLayout(t)
	tp, err := l.TexturePackerJSON("unit-sheet.png", "v1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := l.PlainJSON("unit-sheet.png")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"texturepacker.json": tp, "plain.json": plain} {
		want, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata (%d bytes, want %d)", name, len(got), len(want))
		}
	}
}

func TestLayoutRejects(t *testing.T) {
	s := []Strip{{Sequence: Sequence{Name: "Stand", End: 100}, Samples: []Sample{{0, 50}, {50, 50}}}}
	for name, f := range map[string]func() (*Layout, error){
		"no strips":      func() (*Layout, error) { return NewLayout(nil, nil, 8, 8, 0) },
		"no samples":     func() (*Layout, error) { return NewLayout([]Strip{{}}, nil, 8, 8, 0) },
		"no frame size":  func() (*Layout, error) { return NewLayout(s, nil, 0, 8, 0) },
		"absurd columns": func() (*Layout, error) { return NewLayout(s, nil, 8, 8, 1<<62) },
		"too tall":       func() (*Layout, error) { return NewLayout(s, make([]float64, 3000), 8, 8, 0) },
	} {
		if l, err := f(); err == nil {
			t.Errorf("%s: laid out %dx%d", name, l.Cols, l.Rows)
		}
	}
}
