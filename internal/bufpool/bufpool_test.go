package bufpool

import "testing"

func TestPool(t *testing.T) {
	p := Pool{Max: 64}
	if b := p.Get(); b != nil {
		t.Fatalf("a new pool gave a buffer of %d bytes", cap(b))
	}
	// sync.Pool may drop what it is given (the race detector makes it
	// drop some on purpose): a few tries.
	var b []byte
	for range 20 {
		p.Put(make([]byte, 10, 32))
		if b = p.Get(); b != nil {
			break
		}
	}
	if len(b) != 0 || cap(b) != 32 {
		t.Errorf("got len %d cap %d, want the buffer put, empty (cap 32)", len(b), cap(b))
	}
	p.Put(make([]byte, 0, 65))
	if b := p.Get(); b != nil {
		t.Errorf("kept a buffer of %d bytes over Max", cap(b))
	}
	var zero Pool
	zero.Put(make([]byte, 8))
	if b := zero.Get(); b != nil {
		t.Errorf("the zero Pool kept a buffer of %d bytes", cap(b))
	}
}
