package texture

import (
	"math/rand/v2"
	"testing"
)

// idctVecBlocks skips t without the vector passes, else hands check
// 100,000 blocks whose coefficients fill draws (for the block's round and
// the coefficient's natural index).
func idctVecBlocks(t *testing.T, seed uint64, fill func(rng *rand.Rand, round, i int) int32, check func(round int, blk *[64]int32)) {
	if !haveIDCTVec {
		t.Skip("no vector IDCT on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for round := range 100000 {
		var blk [64]int32
		for i := range blk {
			blk[i] = fill(rng, round, i)
		}
		check(round, &blk)
	}
}

// TestIDCTColsVec checks the vector column pass against idctCols on random
// blocks: small coefficients as real row passes leave them, values of
// every size up to the full int32 range (where the products wrap), and
// blocks whose rows 4-7 are zero, which the Go decoder sends to
// idctColsTop.
func TestIDCTColsVec(t *testing.T) {
	idctVecBlocks(t, 1, func(rng *rand.Rand, round, i int) int32 {
		switch round % 4 {
		case 0:
			return int32(rng.IntN(1<<22)) - 1<<21
		case 1:
			return int32(rng.Uint32())
		case 2:
			return int32(rng.IntN(1<<28)) - 1<<27
		}
		if i < 32 {
			return int32(rng.IntN(1<<24)) - 1<<23
		}
		return 0
	}, func(round int, blk *[64]int32) {
		want, got := *blk, *blk
		if round%4 == 3 {
			idctColsTop(&want)
		} else {
			idctCols(&want)
		}
		idctColsVec(&got)
		if got != want {
			t.Fatalf("round %d: block %v: vector %v, Go %v", round, *blk, got, want)
		}
	})
}

// TestIDCTRowsVec checks the vector row pass against idctRows, with the
// block's own row mask (as the decoder calls it) and with every row
// taking the whole transform, on random blocks: coefficients as
// dequantisation leaves them, values of every size, and blocks with only
// a few rows or columns set, which idctRows takes by its shortcuts.
func TestIDCTRowsVec(t *testing.T) {
	idctVecBlocks(t, 3, func(rng *rand.Rand, round, i int) int32 {
		r, c := i/8, i%8
		switch round % 5 {
		case 0:
			return int32(rng.IntN(1<<16)) - 1<<15
		case 1:
			return int32(rng.Uint32())
		case 2:
			if rng.IntN(4) == 0 {
				return int32(rng.IntN(1<<12)) - 1<<11
			}
		case 3:
			if c < 4 && r < 3 {
				return int32(rng.IntN(1<<20)) - 1<<19
			}
		case 4:
			if c == 0 {
				return int32(rng.IntN(1<<24)) - 1<<23
			}
		}
		return 0
	}, func(round int, blk *[64]int32) {
		var rows uint32
		for i, v := range blk {
			if r, c := i/8, i%8; v != 0 {
				rows |= 1 << (8 + r)
				if c != 0 {
					rows |= 1 << r
				}
				if c >= 4 {
					rows |= 1 << (16 + r)
				}
			}
		}
		var want, all, got [64]int32
		idctRows(blk, &want, rows)
		idctRows(blk, &all, ^uint32(0))
		idctRowsVec(blk, &got)
		if got != want || all != want {
			t.Fatalf("round %d: block %v: vector %v, Go %v, Go without shortcuts %v", round, *blk, got, want, all)
		}
	})
}
