package mpq

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
)

// probeLookup is Storm's lookup spelled out entry by entry, the way the
// format describes it: the reference lookup is checked against.
func probeLookup(a *Archive, name string) int {
	if a.hashSize == 0 {
		return -1
	}
	name1, name2 := mpqcrypt.Hash(name, mpqcrypt.NameA), mpqcrypt.Hash(name, mpqcrypt.NameB)
	start := a.startSlot(name)
	n := uint32(len(a.hashes))
	first, neutral := -1, -1
	visit := func(from, to uint32) bool {
		for i := from; i < to; i++ {
			e := &a.hashes[i]
			if e.block == hashFree {
				return false
			}
			if e.name1 == name1 && e.name2 == name2 && uint64(e.block) < uint64(len(a.blocks)) {
				if first < 0 {
					first = int(i)
				}
				if e.locale == 0 {
					neutral = int(i)
					return false
				}
			}
		}
		return true
	}
	if start < n {
		if visit(start, n) {
			visit(0, start)
		}
	} else {
		visit(0, n)
	}
	if neutral >= 0 {
		return neutral
	}
	return first
}

// TestLookupMatchesProbe compares lookup, which visits only the entries
// carrying a name's hashes, with the entry-by-entry probe over random
// tables: free and deleted entries, locales, blocks inside and past the
// block table, clipped tables and sizes that are not powers of two.
func TestLookupMatchesProbe(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := make([]string, 12)
	for i := range names {
		names[i] = fmt.Sprintf("file%d.txt", i)
	}
	for round := range 3000 {
		size := uint32(1 + rng.IntN(40))
		present := size
		if rng.IntN(4) == 0 {
			present = uint32(rng.IntN(int(size) + 1)) // clipped
		}
		a := &Archive{hashSize: size, blocks: make([]blockEntry, 5)}
		a.hashes = make([]hashEntry, present)
		for i := range a.hashes {
			e := &a.hashes[i]
			switch r := rng.IntN(10); {
			case r < 2:
				e.block = hashFree
			case r < 3:
				e.block = hashDeleted
			default:
				n := names[rng.IntN(len(names))]
				e.name1, e.name2 = mpqcrypt.Hash(n, mpqcrypt.NameA), mpqcrypt.Hash(n, mpqcrypt.NameB)
				e.block = uint32(rng.IntN(7)) // 5 and 6 are past the block table
				if rng.IntN(3) == 0 {
					e.locale = 0x409
				}
			}
		}
		a.buildEntries()
		for _, n := range append(names, "missing") {
			if got, want := a.lookup(n), probeLookup(a, n); got != want {
				t.Fatalf("round %d, table of %d (%d present), %s: lookup %d, probe %d", round, size, present, n, got, want)
			}
		}
	}
}

// TestCmpSuffixed checks the folder tree's comparison against building
// the string it stands for.
func TestCmpSuffixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := func() string {
		b := make([]byte, rng.IntN(5))
		for i := range b {
			b[i] = "/0A."[rng.IntN(4)]
		}
		return string(b)
	}
	for range 100000 {
		key, dir, c := word(), word(), "/0"[rng.IntN(2)]
		if got, want := cmpSuffixed(key, dir, c), strings.Compare(key, dir+string(c)); got != want {
			t.Fatalf("cmpSuffixed(%q, %q, %q) = %d, want %d", key, dir, c, got, want)
		}
	}
}
