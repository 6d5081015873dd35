package texture

import (
	"container/list"
	"errors"
	"sync"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// DefaultCacheBytes is the decoded-size budget NewCache uses for 0.
const DefaultCacheBytes = 256 << 20

// Cache keeps opened texture files and the mip levels decoded from them,
// least recently used first out, within a budget of bytes: the decoded
// levels, and the file data kept to decode further levels. It holds
// levels, not whole textures: a file whose thumbnails only ever sample its
// small levels never has its large ones decoded or kept. It is keyed by
// file system, path, the file's size and modification time (so an edited
// file is read again) and the decode options. Concurrent requests for the
// same file read and check it once, and a level is decoded once. A Cache
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

// CacheStats counts what a Cache did. Hits and Misses count files asked
// for; Evictions, files dropped with their levels.
type CacheStats struct {
	Hits, Misses, Evictions int64
	Bytes                   int64 // bytes held now
	Entries                 int
}

type cacheKey struct {
	file fileKey
	opts Options
}

type cacheEntry struct {
	key     cacheKey
	lazy    *Lazy
	el      *list.Element
	size    int64 // bytes counted for this file now
	removed bool
}

type cacheCall struct {
	done chan struct{}
	lazy *Lazy
	err  error
}

// NewCache returns a cache holding at most maxBytes (DefaultCacheBytes
// when maxBytes <= 0). A texture larger than the whole budget is returned
// but not kept.
func NewCache(maxBytes int64) *Cache {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	return &Cache{max: maxBytes, order: list.New(), entries: map[cacheKey]*list.Element{}, inflight: map[cacheKey]*cacheCall{}}
}

// Load returns the decoded texture f with all of its levels, from the
// cache when the file has not changed since it was decoded, charged to m
// as Open and Lazy.Texture charge it. o may be nil.
func (c *Cache) Load(f File, o *Options, m *budget.Meter) (*Texture, error) {
	l, err := c.Open(f, o, m)
	if err != nil {
		return nil, err
	}
	return l.Texture(0, m)
}

// Open returns file f read and checked, from the cache when the file has
// not changed since; its levels are decoded as its Texture method is asked
// for them, and kept in the cache. o may be nil. A file whose file system
// cannot be told apart from others is opened without the cache.
//
// What opening the file costs is charged to m whether or not the cache
// has it, so that a model's budget runs out at the same texture whatever
// other models did before: the file's bytes, and for a TGA, PNG or JPEG
// (decoded whole when opened) its pixels. A charge m refuses fails Open
// before the file is read or decoded.
func (c *Cache) Open(f File, o *Options, m *budget.Meter) (*Lazy, error) {
	fk, ok := f.stamp()
	if !ok {
		return f.Open(o, m)
	}
	name := f.String()
	if err := m.ChargeRead(name, fk.size); err != nil {
		return nil, err
	}
	key := cacheKey{file: fk}
	if o != nil {
		key.opts = *o
	}
	for {
		c.mu.Lock()
		if el, ok := c.entries[key]; ok {
			c.order.MoveToFront(el)
			c.stats.Hits++
			c.mu.Unlock()
			l := el.Value.(*cacheEntry).lazy
			if err := l.chargeOpen(m); err != nil {
				return nil, err
			}
			return l, nil
		}
		call, ok := c.inflight[key]
		if !ok {
			break
		}
		c.stats.Hits++
		c.mu.Unlock()
		<-call.done
		if call.err == errRefused {
			continue // the opener's budget ran out, not necessarily ours
		}
		if call.err != nil {
			return nil, call.err
		}
		if err := call.lazy.chargeOpen(m); err != nil {
			return nil, err
		}
		return call.lazy, nil
	}
	call := &cacheCall{done: make(chan struct{})}
	c.inflight[key] = call
	c.stats.Misses++
	c.mu.Unlock()

	data, err := f.Read(m)
	if err == nil {
		err = chargeDecode(m, name, data, true)
	}
	if err != nil {
		// Refused by this opener's budget, or unreadable: the goroutines
		// waiting try for themselves.
		call.err = errRefused
	} else {
		call.lazy, err = OpenLazy(data, name, o)
		call.err = err
	}

	c.mu.Lock()
	delete(c.inflight, key)
	if err == nil {
		kept := int64(len(data))
		if call.lazy.mf.tex != nil {
			kept = call.lazy.mf.tex.Bytes() // decoded whole; the data is not kept
		}
		c.insert(key, call.lazy, kept)
	}
	c.mu.Unlock()
	close(call.done)
	return call.lazy, err
}

// errRefused tells the goroutines waiting for a file that its opener's
// budget refused it: they open it themselves, within their own.
var errRefused = errors.New("texture: refused by the opener's budget")

// Open reads f and checks it as Decode would, without decoding its levels,
// charging m as Cache.Open does.
func (f File) Open(o *Options, m *budget.Meter) (*Lazy, error) {
	data, err := f.readCharged(m, true)
	if err != nil {
		return nil, err
	}
	return OpenLazy(data, f.String(), o)
}

// insert adds an opened file of size bytes and evicts the least recently
// used ones beyond the budget. c.mu must be held.
func (c *Cache) insert(key cacheKey, l *Lazy, size int64) {
	if size > c.max {
		return
	}
	e := &cacheEntry{key: key, lazy: l, size: size}
	e.el = c.order.PushFront(e)
	c.entries[key] = e.el
	c.used += size
	l.mu.Lock()
	l.cache, l.el = c, e
	l.mu.Unlock()
	c.evict()
}

// grow counts n more bytes of decoded levels for e and evicts beyond the
// budget, e itself last.
func (c *Cache) grow(e *cacheEntry, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.removed {
		return
	}
	e.size += n
	c.used += n
	c.order.MoveToFront(e.el)
	c.evict()
}

// touch marks e as just used.
func (c *Cache) touch(e *cacheEntry) {
	c.mu.Lock()
	if !e.removed {
		c.order.MoveToFront(e.el)
	}
	c.mu.Unlock()
}

// evict drops least recently used files, with their levels, until the
// budget is kept. c.mu must be held.
func (c *Cache) evict() {
	for c.used > c.max {
		el := c.order.Back()
		e := el.Value.(*cacheEntry)
		c.order.Remove(el)
		delete(c.entries, e.key)
		c.used -= e.size
		e.removed = true
		e.lazy.release()
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
