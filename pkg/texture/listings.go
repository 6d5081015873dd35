package texture

import (
	"container/list"
	"io/fs"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Listings remembers the folder listings that texture lookups read, so
// that each folder is listed once however many lookups and models ask
// it, and finds a name in a listing by a map, not by reading the listing
// through: a folder of ten thousand models costs one listing per batch,
// not one per model. Resolvers that share a Listings (a batch's, one per
// model) share what it has read. It keeps the listings used last, up to
// MaxNames names in all, so that a batch that goes through a hundred
// folders of ten thousand models holds a few of them, not all: a batch
// takes its models folder by folder. It is safe for concurrent use; the
// zero Listings is ready to use. A file added to a folder after it was
// listed is not seen through it.
type Listings struct {
	// MaxNames bounds the names of the listings kept; 0 means
	// DefaultMaxNames. The listing used last is kept whatever its size.
	MaxNames int

	mu    sync.Mutex
	dirs  map[dirKey]*list.Element // of *listing
	lru   list.List                // the listings, used last first
	names int
}

// DefaultMaxNames is Listings.MaxNames's default: some 2 MB of names,
// a folder of ten thousand models and the texture folders beside it.
const DefaultMaxNames = 1 << 14

// listing is one folder's names, indexed by their case-folded form.
type listing struct {
	key dirKey
	// byFold holds, per folded name, the names that fold to it in
	// listing order.
	byFold map[string][]string
	names  int
	// ready is closed once byFold and names are read.
	ready chan struct{}
}

// matches returns the names of the folder that are name without regard
// to case: the exact spelling first, then the others in listing order.
func (l *listing) matches(name string) []string {
	names := l.byFold[foldKey(name)]
	for i, n := range names {
		if n == name {
			if i == 0 {
				return names
			}
			out := make([]string, 0, len(names))
			out = append(out, n)
			out = append(out, names[:i]...)
			return append(out, names[i+1:]...)
		}
	}
	return names
}

// list returns the listing of dir in src, reading it the first time it is
// asked for (or again, once it was let go); lookups that ask for a
// folder being read wait for it. A file system that cannot be told
// apart from others (identity) is listed afresh each time.
func (ls *Listings) list(src Source, dir string) *listing {
	var key dirKey
	key.fs, key.dir = identity(src.FS, dir)
	if key.fs == nil {
		return readListing(src.FS, dir)
	}
	ls.mu.Lock()
	if e, ok := ls.dirs[key]; ok {
		ls.lru.MoveToFront(e)
		l := e.Value.(*listing)
		ls.mu.Unlock()
		<-l.ready
		return l
	}
	if ls.dirs == nil {
		ls.dirs = map[dirKey]*list.Element{}
	}
	l := &listing{key: key, ready: make(chan struct{})}
	ls.dirs[key] = ls.lru.PushFront(l)
	ls.mu.Unlock()
	// Read outside the lock: a slow folder does not hold up the others.
	l.byFold, l.names = readNames(src.FS, dir)
	close(l.ready)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.names += l.names
	most := ls.MaxNames
	if most <= 0 {
		most = DefaultMaxNames
	}
	for e := ls.lru.Back(); ls.names > most && e != nil && e != ls.lru.Front(); {
		prev := e.Prev()
		if old := e.Value.(*listing); isReady(old) {
			ls.lru.Remove(e)
			delete(ls.dirs, old.key)
			ls.names -= old.names
		}
		e = prev
	}
	return l
}

// isReady reports whether a listing has been read.
func isReady(l *listing) bool {
	select {
	case <-l.ready:
		return true
	default:
		return false
	}
}

// readListing reads a listing kept by no Listings.
func readListing(fsys fs.FS, dir string) *listing {
	l := &listing{ready: make(chan struct{})}
	l.byFold, l.names = readNames(fsys, dir)
	close(l.ready)
	return l
}

// readNames lists dir, indexing its names by their folded form.
func readNames(fsys fs.FS, dir string) (map[string][]string, int) {
	byFold := map[string][]string{}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return byFold, 0
	}
	for _, e := range ents {
		n := e.Name()
		k := foldKey(n)
		byFold[k] = append(byFold[k], n)
	}
	return byFold, len(ents)
}

// foldKey maps s to one spelling of every string strings.EqualFold finds
// equal to it: each rune becomes the smallest rune of its simple case
// folding orbit (upper case, for ASCII letters), the equivalence
// EqualFold tests rune by rune.
func foldKey(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			out := make([]rune, 0, len(s))
			for _, r := range s {
				out = append(out, smallestFold(r))
			}
			return string(out)
		}
	}
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// smallestFold returns the smallest rune of r's simple folding orbit.
func smallestFold(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}
