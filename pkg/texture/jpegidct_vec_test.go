package texture

import (
	"math/rand/v2"
	"testing"
)

// TestIDCTColsVec checks the vector column pass against idctCols on random
// blocks: small coefficients as real row passes leave them, values of
// every size up to the full int32 range (where the products wrap), and
// blocks whose rows 4-7 are zero, which the Go decoder sends to
// idctColsTop.
func TestIDCTColsVec(t *testing.T) {
	if !haveIDCTVec {
		t.Skip("no vector column pass on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 100000 {
		var blk [64]int32
		for i := range blk {
			switch round % 4 {
			case 0:
				blk[i] = int32(rng.IntN(1<<22)) - 1<<21
			case 1:
				blk[i] = int32(rng.Uint32())
			case 2:
				blk[i] = int32(rng.IntN(1<<28)) - 1<<27
			case 3:
				if i < 32 {
					blk[i] = int32(rng.IntN(1<<24)) - 1<<23
				}
			}
		}
		want, got := blk, blk
		if round%4 == 3 {
			idctColsTop(&want)
		} else {
			idctCols(&want)
		}
		idctColsVec(&got)
		if got != want {
			t.Fatalf("round %d: block %v: vector %v, Go %v", round, blk, got, want)
		}
	}
}
