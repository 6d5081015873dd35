package render

import (
	"sync"

	"github.com/mdxrender/mdxrender/pkg/raster"
)

// maxIdleBytes bounds the memory a Framebuffers keeps idle: room for
// the buffers of a few workers at the usual sizes (a 1024² supersampled
// thumbnail takes 20 MiB), little next to a batch's texture cache; a
// buffer larger than that alone is not kept at all.
const maxIdleBytes = 64 << 20

// Framebuffers lends framebuffers to Animators. A batch draws every
// model with an Animator of its own; when they share one Framebuffers, a
// few buffers serve the whole batch, with the rasteriser's per-triangle
// storage already grown, instead of every model allocating, zeroing and
// leaving to the collector a new one. It is safe for concurrent use; the
// zero value is ready.
type Framebuffers struct {
	mu    sync.Mutex
	free  []*raster.Target
	bytes int64 // of free
}

// get returns an idle w×h framebuffer, as the last picture left it, or
// nil when there is none.
func (f *Framebuffers) get(w, h int) *raster.Target {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.free) - 1; i >= 0; i-- {
		if t := f.free[i]; t.Width == w && t.Height == h {
			f.free = append(f.free[:i], f.free[i+1:]...)
			f.bytes -= t.Bytes()
			return t
		}
	}
	return nil
}

// put gives t back for later pictures; the oldest idle buffers are
// dropped to keep within maxIdleBytes.
func (f *Framebuffers) put(t *raster.Target) {
	n := t.Bytes()
	if n > maxIdleBytes {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.free) > 0 && f.bytes+n > maxIdleBytes {
		f.bytes -= f.free[0].Bytes()
		f.free[0] = nil
		f.free = f.free[1:]
	}
	f.free = append(f.free, t)
	f.bytes += n
}
