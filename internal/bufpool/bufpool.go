// Package bufpool keeps byte buffers for reuse by code that fills a
// buffer, uses it and is done with it before it returns: reading a file
// to decode it, putting a stream together to decode it. A new buffer each
// time was cleared by the runtime, overwritten, and left to the collector.
package bufpool

import "sync"

// Pool keeps buffers of up to Max bytes of capacity; a larger one is let
// go, so that one huge input does not stay in memory. The zero value
// keeps none; a Pool must not be copied after first use.
type Pool struct {
	Max int
	p   sync.Pool // of *[]byte
}

// Get returns an empty buffer, with room from an earlier use or none.
func (p *Pool) Get() []byte {
	if b, ok := p.p.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return nil
}

// Put gives b's storage back for a later Get. Nothing may use b after.
func (p *Pool) Put(b []byte) {
	if c := cap(b); c > 0 && c <= p.Max {
		b = b[:0]
		p.p.Put(&b)
	}
}
