package texture

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestStoreChan8 checks the vector store against clampSample on random
// blocks (samples of every size, where the level shift wraps) into random
// pixels: byte ch of each of the eight pixels of ny rows takes its
// sample, and every other byte stays as it was.
func TestStoreChan8(t *testing.T) {
	if !haveStoreVec {
		t.Skip("no vector store on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 20000 {
		var tmp [64]int32
		for i := range tmp {
			switch round % 3 {
			case 0:
				tmp[i] = int32(rng.IntN(512)) - 256
			case 1:
				tmp[i] = int32(rng.Uint32())
			default:
				tmp[i] = int32(rng.IntN(1<<20)) - 1<<19
			}
		}
		stride, ny, ch := 32+4*rng.IntN(3), 1+rng.IntN(8), rng.IntN(4)
		dst := make([]byte, 8*stride)
		for i := range dst {
			dst[i] = byte(rng.Uint32())
		}
		want := bytes.Clone(dst)
		for y := range ny {
			for x := range 8 {
				want[y*stride+4*x+ch] = clampSample(tmp[8*y+x])
			}
		}
		storeChan8(&tmp, &dst[0], stride, ny, ch)
		if !bytes.Equal(dst, want) {
			t.Fatalf("round %d (stride %d, %d rows, channel %d): vector %v, want %v", round, stride, ny, ch, dst, want)
		}
	}
}
