package texture

import "sync"

// memo remembers values made from keys, for the shared tables and
// stand-ins that many decodes and renders ask for again. It holds at most
// max values and then starts over, which bounds its memory whatever keys
// callers bring. Values are made outside the lock, so two goroutines may
// make the same one; either is kept, and they must be interchangeable and
// never modified once made.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]V
	max int
}

// get returns the value remembered for k, or make's, which it remembers.
func (c *memo[K, V]) get(k K, make func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = make()
	c.mu.Lock()
	if len(c.m) >= c.max || c.m == nil {
		c.m = map[K]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
