package render

import (
	"sync"

	"github.com/mdxrender/mdxrender/pkg/raster"
)

// maxFreeFramebuffers bounds how many idle framebuffers a Framebuffers
// keeps: enough for every worker of a batch on a large machine, few
// enough that a batch of mixed sizes does not hoard memory.
const maxFreeFramebuffers = 16

// Framebuffers lends framebuffers to Animators. A batch draws every
// model with an Animator of its own; when they share one Framebuffers, a
// few buffers serve the whole batch, with the rasteriser's per-triangle
// storage already grown, instead of every model allocating, zeroing and
// leaving to the collector a new one. It is safe for concurrent use; the
// zero value is ready.
type Framebuffers struct {
	mu   sync.Mutex
	free []*raster.Target
}

// get returns a cleared w×h framebuffer, an idle one when there is one.
func (f *Framebuffers) get(w, h int) (*raster.Target, error) {
	f.mu.Lock()
	for i := len(f.free) - 1; i >= 0; i-- {
		if t := f.free[i]; t.Width == w && t.Height == h {
			f.free = append(f.free[:i], f.free[i+1:]...)
			f.mu.Unlock()
			t.Clear([4]float32{})
			return t, nil
		}
	}
	f.mu.Unlock()
	return raster.NewTarget(w, h)
}

// put gives t back for later pictures; the oldest idle one is dropped
// when too many are idle.
func (f *Framebuffers) put(t *raster.Target) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.free) == maxFreeFramebuffers {
		copy(f.free, f.free[1:])
		f.free = f.free[:len(f.free)-1]
	}
	f.free = append(f.free, t)
}
