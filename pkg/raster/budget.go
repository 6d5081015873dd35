package raster

import (
	"math"
	"sync/atomic"
)

// neverStop is the stop flag of a Draw whose context is never done; it
// is never set.
var neverStop atomic.Bool

// stopEvery is how many triangles a band worker draws between looks at
// the stop flag: a full-screen triangle takes well under a millisecond a
// band, so a cancelled Draw returns within a few milliseconds.
const stopEvery = 16

// DrawStats says what one Draw set up and drew.
type DrawStats struct {
	// Triangles were set up (after clipping, culling and dropping those
	// that cover no pixel centre's row or column) and drawn; Fragments is
	// their estimated coverage in pixels (see DrawOptions.MaxFragments).
	Triangles int
	Fragments int64
	// SkippedTriangles were left out by DrawOptions.MaxFragments; the
	// estimate says they would have covered SkippedFragments pixels.
	SkippedTriangles int
	SkippedFragments int64
}

// budget estimates the coverage of the set-up triangles, in order, and
// cuts t.tris at the first one that would take the total over max (0: no
// bound). The estimate is a triangle's area on the target, or its
// on-screen bounding box where that is smaller (a triangle reaching into
// the guard band); it depends only on the triangles, so the cut is the
// same on every run.
func (t *Target) budget(max int64) DrawStats {
	var st DrawStats
	var sum float64
	cut := -1
	for i := range t.tris {
		f := t.tris[i].cover
		if cut < 0 && max > 0 && sum+f > float64(max) {
			cut = i
		}
		if cut >= 0 {
			st.SkippedFragments += int64(f)
			continue
		}
		sum += f
	}
	st.Fragments = int64(sum)
	if cut >= 0 {
		st.SkippedTriangles = len(t.tris) - cut
		t.tris = t.tris[:cut]
	}
	st.Triangles = len(t.tris)
	return st
}

// coverage is a set-up triangle's area in pixels, at most its bounding
// box on the target. invArea is 1 over twice the area in squared
// sub-pixel units, in float32: the area is rounded to 1/256 pixel, which
// gives whole triangles their exact area back.
func coverage(tr *tri) float64 {
	area := math.Round(256/(2*float64(tr.invArea)*subOne*subOne)) / 256
	box := float64(tr.maxX-tr.minX+1) * float64(tr.maxY-tr.minY+1)
	return min(area, box)
}
