// Package sweep picks what a test's sweep over the shared corpus covers:
// by default a fixed sample that keeps every kind of file (every format
// and version a test groups its files by), and everything when the
// environment sets MDXR_FULL=1 (scripts/full-sweeps.sh). The sample
// depends only on the order the test meets its files in, which the
// corpus manifest or a sorted walk fixes, so every run covers the same
// files.
package sweep

import (
	"fmt"
	"os"
)

// Full reports whether MDXR_FULL=1 asks for the full sweeps.
func Full() bool { return os.Getenv("MDXR_FULL") == "1" }

// A Sampler takes, of each kind of item, the first and then every n-th
// after it, in the order they come; with Full, it takes them all.
type Sampler struct {
	every       int
	seen        map[string]int
	total, took int
}

// New returns a Sampler taking every n-th item of each kind (n < 1 is
// taken as 1).
func New(n int) *Sampler {
	if Full() || n < 1 {
		n = 1
	}
	return &Sampler{every: n, seen: map[string]int{}}
}

// Take reports whether the next item of kind k is covered.
func (s *Sampler) Take(k string) bool {
	i := s.seen[k]
	s.seen[k] = i + 1
	s.total++
	if i%s.every != 0 {
		return false
	}
	s.took++
	return true
}

// String says what was covered, for a test's log: "24 of 210 (every 8th
// of each of 5 kinds; MDXR_FULL=1 for all)".
func (s *Sampler) String() string {
	switch {
	case s.every == 1:
		return fmt.Sprintf("%d of %d", s.took, s.total)
	case len(s.seen) == 1:
		return fmt.Sprintf("%d of %d (every %s; MDXR_FULL=1 for all)", s.took, s.total, ordinal(s.every))
	}
	return fmt.Sprintf("%d of %d (every %s of each of %d kinds; MDXR_FULL=1 for all)", s.took, s.total, ordinal(s.every), len(s.seen))
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}
