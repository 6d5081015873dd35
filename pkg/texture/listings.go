package texture

import (
	"container/list"
	"hash/maphash"
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

// DefaultMaxNames is Listings.MaxNames's default: about 1 MB of names,
// a folder of ten thousand models and the texture folders beside it.
const DefaultMaxNames = 1 << 14

// listing is one folder's names, found by their case-folded form. It
// keeps some 50 bytes a name besides the name (the names, and a hash of
// each folded name chained to the next name of that hash), a third of
// what a map of folded names to their names took: a folder of ten
// thousand models is listed for the textures its models look for.
type listing struct {
	key dirKey
	// names are the folder's names, sorted; first maps the hash (with
	// seed) of a folded name to the first of them with that hash, next
	// each to the next (-1: none). Matches are told apart from other
	// names of their hash by their folded form, so the seed decides no
	// result.
	names []string
	seed  maphash.Seed
	first map[uint64]int32
	next  []int32
	// ready is closed once the fields above are read.
	ready chan struct{}
}

// matches returns the names of the folder that are name without regard
// to case: the exact spelling first, then the others in sorted order.
func (l *listing) matches(name string) []string {
	k := foldKey(name)
	i, ok := l.first[maphash.String(l.seed, k)]
	if !ok {
		return nil
	}
	var out []string
	for ; i >= 0; i = l.next[i] {
		n := l.names[i]
		if n != name && foldKey(n) != k {
			continue // another folded name of the same hash
		}
		if n == name && len(out) > 0 {
			out = append(out, "")
			copy(out[1:], out)
			out[0] = n
			continue
		}
		out = append(out, n)
	}
	return out
}

// count is the number of names.
func (l *listing) count() int { return len(l.names) }

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
	l.read(src.FS, dir)
	close(l.ready)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.names += l.count()
	most := ls.MaxNames
	if most <= 0 {
		most = DefaultMaxNames
	}
	for e := ls.lru.Back(); ls.names > most && e != nil && e != ls.lru.Front(); {
		prev := e.Prev()
		if old := e.Value.(*listing); isReady(old) {
			ls.lru.Remove(e)
			delete(ls.dirs, old.key)
			ls.names -= old.count()
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
	l.read(fsys, dir)
	close(l.ready)
	return l
}

// read lists dir (no names when it cannot be read), sorted (as
// fs.ReadDir gives them), and chains them by the hash of their folded
// form.
func (l *listing) read(fsys fs.FS, dir string) {
	l.names = readNames(fsys, dir)
	l.seed = maphash.MakeSeed()
	l.first = make(map[uint64]int32, len(l.names))
	l.next = make([]int32, len(l.names))
	// Backwards, so that each chain runs in sorted order.
	for i := len(l.names) - 1; i >= 0; i-- {
		h := maphash.String(l.seed, foldKey(l.names[i]))
		if j, ok := l.first[h]; ok {
			l.next[i] = j
		} else {
			l.next[i] = -1
		}
		l.first[h] = int32(i)
	}
}

// readNames returns the names in dir, nil when it cannot be read.
func readNames(fsys fs.FS, dir string) []string {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
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
