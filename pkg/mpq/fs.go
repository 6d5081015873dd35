package mpq

import (
	"cmp"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

// The fs.FS view: paths use '/', but '\' is accepted as the same separator
// (models name their textures with it), and case does not matter. Listed
// names keep the archive's spelling; a name that is in no listfile but
// hashes to an entry still opens.
var (
	_ fs.FS         = (*Archive)(nil)
	_ fs.ReadFileFS = (*Archive)(nil)
	_ fs.StatFS     = (*Archive)(nil)
	_ fs.ReadDirFS  = (*Archive)(nil)
)

// tree is the folder view of the enumerable names: one entry per file,
// sorted by its case-folded path, so that a folder is the run of entries
// whose paths start with the folder's path and '/'. It costs a few words
// and one copy of the name per file, however deep the names go: a folder
// is not a node of its own.
type tree struct {
	a     *Archive
	keys  []string // case-folded paths, '/'-separated, sorted
	order []int32  // position of the file in Files(): the first spells a folder
	pick  []int32  // the hash entry the name picks (as Lookup does)
}

// spelled returns bytes [from, to) of entry i's path as the archive
// spells it: its name, whose bytes line up with its key's.
func (t *tree) spelled(i, from, to int) string {
	return t.a.files[t.order[i]].Name[from:to]
}

// lastElem returns where the last element of a key starts.
func lastElem(key string) int { return strings.LastIndexByte(key, '/') + 1 }

// file returns tree entry i as Lookup would: a copy of the entry its name
// picks, under that name.
func (t *tree) file(i int) *File {
	g := *t.a.byHash[t.pick[i]]
	g.Name = t.a.files[t.order[i]].Name
	return &g
}

// maxTreeDepth is the most path elements a name in the folder tree has.
// Real names have a handful; one more than this is left out of the tree
// (it is still in Files() and opens by name), so that walking the tree
// costs at most this many folders per name.
const maxTreeDepth = 16

// foldKey folds ASCII letters to upper case, as the name hash does, and
// turns '\\' into '/'.
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c == '\\':
			c = '/'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// cleanPath turns an fs path (with either separator) into its '/' form,
// or reports it invalid.
func cleanPath(op, name string) (string, error) {
	p := strings.ReplaceAll(name, "\\", "/")
	if !fs.ValidPath(p) {
		return "", &fs.PathError{Op: op, Path: nameShown(name), Err: fs.ErrInvalid}
	}
	return p, nil
}

// root builds the folder tree of the named files on first use.
func (a *Archive) root() *tree {
	a.treeOnce.Do(func() {
		type ent struct {
			key   string
			order int32
		}
		ents := make([]ent, 0, len(a.files))
		for i, f := range a.files {
			if f.Name == "" {
				continue
			}
			key := foldKey(f.Name)
			if !fs.ValidPath(key) || key == "." || strings.Count(key, "/") >= maxTreeDepth {
				// e.g. a name with an empty element; still in Files(),
				// and one too deep still opens by name.
				continue
			}
			ents = append(ents, ent{key, int32(i)})
		}
		// Of names that differ only in case, the first in Files() stands.
		slices.SortFunc(ents, func(x, y ent) int {
			if c := strings.Compare(x.key, y.key); c != 0 {
				return c
			}
			return cmp.Compare(x.order, y.order)
		})
		n := len(ents)
		t := &tree{a: a, keys: make([]string, 0, n), order: make([]int32, 0, n), pick: make([]int32, 0, n)}
		for i, e := range ents {
			if i > 0 && e.key == ents[i-1].key {
				continue
			}
			// Locale variants: the tree holds the one Lookup picks.
			k := a.lookup(a.files[e.order].Name)
			if k < 0 || a.byHash[k] == nil {
				continue
			}
			t.keys = append(t.keys, e.key)
			t.order = append(t.order, e.order)
			t.pick = append(t.pick, int32(k))
		}
		a.tree = t
	})
	return a.tree
}

// span returns the entries under the folder whose key is dir ("" for the
// root): [lo, hi).
func (t *tree) span(dir string) (int, int) {
	if dir == "" {
		return 0, len(t.keys)
	}
	// Every key with the prefix dir+"/" sorts at or after it and before
	// dir+"0" ('0' follows '/'); the bounds are compared without being
	// built.
	lo := sort.Search(len(t.keys), func(i int) bool { return cmpSuffixed(t.keys[i], dir, '/') >= 0 })
	hi := lo + sort.Search(len(t.keys)-lo, func(i int) bool { return cmpSuffixed(t.keys[lo+i], dir, '0') >= 0 })
	return lo, hi
}

// cmpSuffixed compares key with dir+string(c).
func cmpSuffixed(key, dir string, c byte) int {
	if len(key) <= len(dir) {
		if r := strings.Compare(key, dir[:len(key)]); r != 0 {
			return r
		}
		return -1 // a prefix of dir+c: smaller
	}
	if r := strings.Compare(key[:len(dir)], dir); r != 0 {
		return r
	}
	if r := cmp.Compare(key[len(dir)], c); r != 0 || len(key) == len(dir)+1 {
		return r
	}
	return 1 // dir+c is a prefix of key
}

// spelling is how the folder whose key is dir, spanning entries [lo, hi),
// is spelled: as in the first name under it in Files() order.
func (t *tree) spelling(dir string, lo, hi int) string {
	best := lo
	for i := lo + 1; i < hi; i++ {
		if t.order[i] < t.order[best] {
			best = i
		}
	}
	return t.spelled(best, lastElem(dir), len(dir))
}

// find resolves a cleaned path to a folder (its key and spelling) or a
// listed file. A name that is both a file and a folder prefix is the
// folder, so that what is inside stays reachable.
func (a *Archive) find(p string) (dir string, f *File, base string, ok bool) {
	t := a.root()
	if p == "." {
		return "", nil, ".", true
	}
	key := foldKey(p)
	if lo, hi := t.span(key); lo < hi {
		return key, nil, t.spelling(key, lo, hi), true
	}
	if i := sort.SearchStrings(t.keys, key); i < len(t.keys) && t.keys[i] == key {
		return "", t.file(i), t.spelled(i, lastElem(key), len(key)), true
	}
	return "", nil, "", false
}

// entries lists the folder whose key is dir, sorted by name.
func (t *tree) entries(dir string) []fs.DirEntry {
	lo, hi := t.span(dir)
	skip := len(dir)
	if dir != "" {
		skip++
	}
	var out []fs.DirEntry
	for i := lo; i < hi; {
		rest := t.keys[i][skip:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			// A file, unless a folder of the same name hides it; that
			// folder is listed where its entries are.
			if sub, end := t.span(t.keys[i]); sub == end {
				out = append(out, fs.FileInfoToDirEntry(fileInfo{f: t.file(i), name: t.spelled(i, skip, len(t.keys[i]))}))
			}
			i++
			continue
		}
		sub := t.keys[i][:skip+j]
		lo, hi := t.span(sub)
		out = append(out, fs.FileInfoToDirEntry(dirInfo(t.spelling(sub, lo, hi))))
		i = hi
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// resolve finds the file or folder for an fs path: listed names first, then
// any entry the name hashes to.
// A folder is returned as its key with a nil *File.
func (a *Archive) resolve(op, name string) (string, *File, string, error) {
	p, err := cleanPath(op, name)
	if err != nil {
		return "", nil, "", err
	}
	if dir, f, base, ok := a.find(p); ok {
		return dir, f, base, nil
	}
	if f, ok := a.Lookup(strings.ReplaceAll(p, "/", "\\")); ok {
		return "", f, path.Base(p), nil
	}
	return "", nil, "", &fs.PathError{Op: op, Path: nameShown(name), Err: fs.ErrNotExist}
}

// Open opens a file or folder (fs.FS). Folders exist only as prefixes of
// enumerable names.
func (a *Archive) Open(name string) (fs.File, error) {
	dir, f, base, err := a.resolve("open", name)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return &dirFile{t: a.root(), dir: dir, info: dirInfo(base)}, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: nameShown(name), Err: err}
	}
	return &openFile{ReadCloser: rc, info: fileInfo{f: f, name: base}}, nil
}

// ReadFile reads a whole file (fs.ReadFileFS), within the read limit.
func (a *Archive) ReadFile(name string) ([]byte, error) {
	_, f, _, err := a.resolve("readfile", name)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, &fs.PathError{Op: "readfile", Path: nameShown(name), Err: errors.New("is a directory")}
	}
	b, err := f.readAll()
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: nameShown(name), Err: err}
	}
	return b, nil
}

// Stat describes a file or folder (fs.StatFS) without reading it.
func (a *Archive) Stat(name string) (fs.FileInfo, error) {
	_, f, base, err := a.resolve("stat", name)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return dirInfo(base), nil
	}
	return fileInfo{f: f, name: base}, nil
}

// ReadDir lists a folder sorted by name (fs.ReadDirFS).
func (a *Archive) ReadDir(name string) ([]fs.DirEntry, error) {
	dir, f, _, err := a.resolve("readdir", name)
	if err != nil {
		return nil, err
	}
	if f != nil {
		return nil, &fs.PathError{Op: "readdir", Path: nameShown(name), Err: errors.New("not a directory")}
	}
	return a.root().entries(dir), nil
}

// fileInfo describes a file; Sys returns its *File.
type fileInfo struct {
	f    *File
	name string
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.f.Size }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return i.f }

type dirInfoT struct{ name string }

func dirInfo(name string) fs.FileInfo { return dirInfoT{name: name} }

func (i dirInfoT) Name() string       { return i.name }
func (i dirInfoT) Size() int64        { return 0 }
func (i dirInfoT) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (i dirInfoT) ModTime() time.Time { return time.Time{} }
func (i dirInfoT) IsDir() bool        { return true }
func (i dirInfoT) Sys() any           { return nil }

type openFile struct {
	io.ReadCloser
	info fileInfo
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }

// dirFile is an open folder (fs.ReadDirFile).
type dirFile struct {
	t       *tree
	dir     string // the folder's key
	info    fs.FileInfo
	entries []fs.DirEntry
	offset  int
}

func (f *dirFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *dirFile) Close() error               { return nil }
func (f *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: f.info.Name(), Err: errors.New("is a directory")}
}

func (f *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if f.entries == nil {
		f.entries = f.t.entries(f.dir)
	}
	rest := f.entries[f.offset:]
	if n <= 0 {
		f.offset = len(f.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	f.offset += n
	return rest[:n], nil
}
