package extsort

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// byFirst compares records by their first byte only, so that records
// equal to the sort are told apart by the rest and stability shows.
func byFirst(a, b []byte) int {
	switch {
	case len(a) == 0 || len(b) == 0:
		return len(a) - len(b)
	case a[0] != b[0]:
		return int(a[0]) - int(b[0])
	}
	return 0
}

// check sorts recs with a Sorter holding mem bytes and compares the
// result with a stable sort in memory, twice (Each may be repeated).
func check(t *testing.T, recs [][]byte, mem int) {
	t.Helper()
	s := New(byFirst, mem)
	defer s.Close()
	for _, r := range recs {
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	want := slices.Clone(recs)
	slices.SortStableFunc(want, byFirst)
	for pass := 0; pass < 2; pass++ {
		var got [][]byte
		if err := s.Each(func(r []byte) error { got = append(got, slices.Clone(r)); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("pass %d: %d records, want %d", pass, len(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("pass %d: record %d is %q, want %q", pass, i, got[i], want[i])
			}
		}
	}
}

func TestSortMatchesStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 100, 5000} {
		recs := make([][]byte, n)
		for i := range recs {
			// A few distinct first bytes, so many records tie; the
			// index after them shows the order they were added in.
			recs[i] = fmt.Appendf([]byte{byte(r.IntN(7))}, "%d%s", i, bytes.Repeat([]byte("x"), r.IntN(40)))
		}
		if n > 0 {
			recs[0] = []byte{} // an empty record sorts first
		}
		for _, mem := range []int{1, 64, 4096, DefaultMemory} {
			t.Run(fmt.Sprintf("n%d-mem%d", n, mem), func(t *testing.T) { check(t, recs, mem) })
		}
	}
}

// A sorter that wrote runs holds no records in memory once read.
func TestRunsFreeMemory(t *testing.T) {
	s := New(bytes.Compare, 100)
	defer s.Close()
	for i := 0; i < 1000; i++ {
		s.Add(fmt.Appendf(nil, "%08d", 999-i))
	}
	var prev []byte
	n := 0
	err := s.Each(func(r []byte) error {
		if prev != nil && bytes.Compare(prev, r) >= 0 {
			return fmt.Errorf("%q after %q", r, prev)
		}
		prev = slices.Clone(r)
		n++
		return nil
	})
	if err != nil || n != 1000 {
		t.Fatalf("%d records, %v", n, err)
	}
	if len(s.runs) < 10 || s.arena != nil {
		t.Fatalf("%d runs, %d bytes held: want many runs and none held", len(s.runs), len(s.arena))
	}
}

func TestEachStopsOnError(t *testing.T) {
	for _, mem := range []int{10, DefaultMemory} {
		s := New(bytes.Compare, mem)
		for i := 0; i < 50; i++ {
			s.Add(fmt.Appendf(nil, "%03d", i))
		}
		stop := fmt.Errorf("stop")
		n := 0
		err := s.Each(func([]byte) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("mem %d: %d calls, %v", mem, n, err)
		}
		s.Close()
		if err := s.Add([]byte("x")); err == nil {
			t.Errorf("mem %d: Add after Close took the record", mem)
		}
	}
}
