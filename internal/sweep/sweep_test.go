package sweep

import "testing"

func TestSamplerTakesFirstAndEveryNthOfEachKind(t *testing.T) {
	t.Setenv("MDXR_FULL", "")
	s := New(3)
	var got []int
	kinds := []string{"a", "a", "b", "a", "a", "b", "a", "c", "b", "b"}
	for i, k := range kinds {
		if s.Take(k) {
			got = append(got, i)
		}
	}
	// a: items 0,1,3,4,6 -> 0 and 4 (its 1st and 4th); b: 2,5,8,9 -> 2, 9; c: 7.
	want := []int{0, 2, 4, 7, 9}
	if len(got) != len(want) {
		t.Fatalf("took %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("took %v, want %v", got, want)
		}
	}
	if s.String() != "5 of 10 (every 3rd of each of 3 kinds; MDXR_FULL=1 for all)" {
		t.Errorf("String: %q", s)
	}
}

func TestFullTakesAll(t *testing.T) {
	t.Setenv("MDXR_FULL", "1")
	s := New(5)
	for range 7 {
		if !s.Take("x") {
			t.Fatal("a full sweep left an item out")
		}
	}
	if s.String() != "7 of 7" {
		t.Errorf("String: %q", s)
	}
}
