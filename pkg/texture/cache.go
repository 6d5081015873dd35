package texture

import (
	"container/list"
	"sync"
)

// DefaultCacheBytes is the decoded-size budget NewCache uses for 0.
const DefaultCacheBytes = 256 << 20

// Cache keeps decoded textures, least recently used first out, within a
// budget of decoded bytes. It is keyed by file system, path, the file's
// size and modification time (so an edited file is decoded again) and the
// decode options. Concurrent requests for the same file decode it once. A Cache
// is safe for concurrent use; the textures it returns are shared and must
// not be modified.
type Cache struct {
	mu       sync.Mutex
	max      int64
	used     int64
	order    *list.List // of *cacheEntry, most recent at the front
	entries  map[cacheKey]*list.Element
	inflight map[cacheKey]*cacheCall
	stats    CacheStats
}

// CacheStats counts what a Cache did.
type CacheStats struct {
	Hits, Misses, Evictions int64
	Bytes                   int64 // decoded bytes held now
	Entries                 int
}

type cacheKey struct {
	file fileKey
	opts Options
}

type cacheEntry struct {
	key cacheKey
	tex *Texture
}

type cacheCall struct {
	done chan struct{}
	tex  *Texture
	err  error
}

// NewCache returns a cache holding at most maxBytes of decoded pixels
// (DefaultCacheBytes when maxBytes <= 0). A texture larger than the whole
// budget is returned but not kept.
func NewCache(maxBytes int64) *Cache {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	return &Cache{max: maxBytes, order: list.New(), entries: map[cacheKey]*list.Element{}, inflight: map[cacheKey]*cacheCall{}}
}

// Load returns the decoded texture f, from the cache when the file has not
// changed since it was decoded. o may be nil. A file whose file system
// cannot be told apart from others is decoded without the cache.
func (c *Cache) Load(f File, o *Options) (*Texture, error) {
	fk, ok := f.stamp()
	if !ok {
		return f.Decode(o)
	}
	key := cacheKey{file: fk}
	if o != nil {
		key.opts = *o
	}
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		c.stats.Hits++
		c.mu.Unlock()
		return el.Value.(*cacheEntry).tex, nil
	}
	if call, ok := c.inflight[key]; ok {
		c.stats.Hits++
		c.mu.Unlock()
		<-call.done
		return call.tex, call.err
	}
	call := &cacheCall{done: make(chan struct{})}
	c.inflight[key] = call
	c.stats.Misses++
	c.mu.Unlock()

	call.tex, call.err = f.Decode(o)

	c.mu.Lock()
	delete(c.inflight, key)
	if call.err == nil {
		c.insert(key, call.tex)
	}
	c.mu.Unlock()
	close(call.done)
	return call.tex, call.err
}

// insert adds a texture and evicts the least recently used ones beyond
// the budget. c.mu must be held.
func (c *Cache) insert(key cacheKey, t *Texture) {
	n := t.Bytes()
	if n > c.max {
		return
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key: key, tex: t})
	c.used += n
	for c.used > c.max {
		el := c.order.Back()
		e := el.Value.(*cacheEntry)
		c.order.Remove(el)
		delete(c.entries, e.key)
		c.used -= e.tex.Bytes()
		c.stats.Evictions++
	}
}

// Stats returns counters and the current size.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Bytes = c.used
	s.Entries = c.order.Len()
	return s
}
