package texture

import (
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// countingFS counts the folder listings read through it.
type countingFS struct {
	fstest.MapFS
	reads atomic.Int64
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.reads.Add(1)
	return c.MapFS.ReadDir(name)
}

// TestListingsShared checks that Resolvers sharing one Listings read a
// folder once between them, however many lookups ask it, and that a
// name is still found without regard to case, the exact spelling first.
func TestListingsShared(t *testing.T) {
	fsys := &countingFS{MapFS: fstest.MapFS{}}
	for i := range 500 {
		fsys.MapFS["models/m"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+".mdx"] = &fstest.MapFile{Data: []byte{1}}
	}
	fsys.MapFS["models/Skin.BLP"] = &fstest.MapFile{Data: []byte{1}}
	fsys.MapFS["models/skin.blp"] = &fstest.MapFile{Data: []byte{2}}
	src := FSSource("tree", fsys, "models")
	shared := new(Listings)
	var listed atomic.Int64
	for range 100 {
		r := &Resolver{Listings: shared, Listed: func(Source, string) { listed.Add(1) }}
		f, _, err := r.Find([]Source{src}, `Textures\skin.blp`)
		if err != nil || f.Name != "models/skin.blp" {
			t.Fatalf("found %q, %v; want models/skin.blp", f.Name, err)
		}
		f, _, err = r.Find([]Source{src}, "SKIN.blp")
		if err != nil || f.Name != "models/Skin.BLP" && f.Name != "models/skin.blp" {
			t.Fatalf("SKIN.blp: found %q, %v", f.Name, err)
		}
		if _, _, err := r.Find([]Source{src}, "missing.blp"); err == nil {
			t.Fatal("missing.blp found")
		}
	}
	if n := fsys.reads.Load(); n != 1 {
		t.Errorf("the folder was listed %d times by 100 resolvers sharing one Listings; want 1", n)
	}
	if listed.Load() == 0 {
		t.Error("Listed was never told of a folder")
	}
}

// TestFoldKey checks that two names get one key exactly when
// strings.EqualFold finds them equal, for the letters whose case folding
// is more than ASCII's (the Kelvin sign, the long s, dotted and dotless i).
func TestFoldKey(t *testing.T) {
	names := []string{"k", "K", "\u212a", "s", "S", "\u017f", "i", "I", "\u0130", "\u0131", "ß", "ẞ", "σ", "Σ", "ς",
		"Textures", "TEXTURES", "te\u212atures", "a.blp", "A.BLP", "\xff", "\xfe", "é", "É"}
	for _, a := range names {
		for _, b := range names {
			if got, want := foldKey(a) == foldKey(b), strings.EqualFold(a, b); got != want {
				t.Errorf("%q, %q: same key %v, EqualFold %v", a, b, got, want)
			}
		}
	}
}

// Listings keep the folders used last, up to MaxNames names: a batch
// that goes through many folders holds a few listings, and lists a
// folder again only once it was let go.
func TestListingsBounded(t *testing.T) {
	fsys := &countingFS{MapFS: fstest.MapFS{}}
	for d := range 5 {
		for i := range 100 {
			fsys.MapFS[fmt.Sprintf("d%d/m%03d.mdx", d, i)] = &fstest.MapFile{Data: []byte{1}}
		}
	}
	ls := &Listings{MaxNames: 250}
	r := &Resolver{Listings: ls}
	for d := range 5 {
		for range 10 {
			r.Find([]Source{FSSource("tree", fsys, fmt.Sprintf("d%d", d))}, "missing.blp")
		}
	}
	if n := fsys.reads.Load(); n != 5 {
		t.Errorf("5 folders looked in ten times each, one after another, were listed %d times; want 5", n)
	}
	if ls.names > 250 || ls.lru.Len() != 2 {
		t.Errorf("%d names in %d listings kept; want at most 250, in 2", ls.names, ls.lru.Len())
	}
	r.Find([]Source{FSSource("tree", fsys, "d0")}, "missing.blp")
	if n := fsys.reads.Load(); n != 6 {
		t.Errorf("a folder let go was listed %d times in all; want 6", n)
	}
}

// blockingFS holds every folder listing until release is closed,
// counting them.
type blockingFS struct {
	fstest.MapFS
	reads   atomic.Int64
	release chan struct{}
}

func (b *blockingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	b.reads.Add(1)
	<-b.release
	return b.MapFS.ReadDir(name)
}

// Lookups that ask for a folder while it is being listed wait for that
// listing instead of reading the folder again: the workers of a batch
// that start together in one new folder list it once between them.
func TestListingsOneReadAtOnce(t *testing.T) {
	fsys := &blockingFS{MapFS: fstest.MapFS{"models/skin.blp": &fstest.MapFile{Data: []byte{1}}}, release: make(chan struct{})}
	src := FSSource("tree", fsys, "models")
	shared := new(Listings)
	const lookups = 8
	found := make(chan string, lookups)
	find := func() {
		f, _, err := (&Resolver{Listings: shared}).Find([]Source{src}, "SKIN.BLP")
		if err != nil {
			found <- err.Error()
			return
		}
		found <- f.Name
	}
	go find()
	for fsys.reads.Load() == 0 {
		runtime.Gosched()
	}
	// The first lookup is listing the folder; the others ask it now.
	for range lookups - 1 {
		go find()
	}
	for range 100 {
		runtime.Gosched()
	}
	close(fsys.release)
	for range lookups {
		if got := <-found; got != "models/skin.blp" {
			t.Errorf("found %q; want models/skin.blp", got)
		}
	}
	if n := fsys.reads.Load(); n != 1 {
		t.Errorf("%d lookups at once listed the folder %d times; want 1", lookups, n)
	}
}

// A listing finds a name in any case: the exact spelling first, then the
// others in sorted order; names of other folded forms never.
func TestListingMatchesInCase(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, n := range []string{"a.blp", "A.BLP", "A.blp", "b.blp", "ä.blp", "Ä.BLP"} {
		fsys["d/"+n] = &fstest.MapFile{}
	}
	l := readListing(fsys, "d")
	for _, c := range []struct{ name, want string }{
		{"A.blp", "A.blp A.BLP a.blp"},
		{"a.BLP", "A.BLP A.blp a.blp"},
		{"a.blp", "a.blp A.BLP A.blp"},
		{"B.BLP", "b.blp"},
		{"ä.BLP", "Ä.BLP ä.blp"},
		{"c.blp", ""},
	} {
		if got := strings.Join(l.matches(c.name), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if l.count() != 6 {
		t.Errorf("%d names, want 6", l.count())
	}
}
