package batch

import (
	"math"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// stillAt returns the absolute model time (ms) of a still at t in the
// sequence [start, end]: whole ms (model times are integers), at most the
// end.
func stillAt(t render.Time, start, end uint32) uint32 {
	if end <= start {
		return start
	}
	n := float64(end - start)
	off := math.Round(t.MsIn(n))
	if off >= n {
		return end
	}
	return start + uint32(off)
}
