package mpq

import (
	"errors"
	"io"
	"io/fs"
	"path"
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

// dirNode is a folder of the enumerable names.
type dirNode struct {
	name     string // the archive's spelling of the last path element
	dirs     map[string]*dirNode
	files    map[string]*File // by upper-case base name
	fileName map[string]string
}

func newDir(name string) *dirNode {
	return &dirNode{name: name, dirs: map[string]*dirNode{}, files: map[string]*File{}, fileName: map[string]string{}}
}

func foldName(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = upperASCII(c)
	}
	return string(b)
}

// cleanPath turns an fs path (with either separator) into its '/' form,
// or reports it invalid.
func cleanPath(op, name string) (string, error) {
	p := strings.ReplaceAll(name, "\\", "/")
	if !fs.ValidPath(p) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return p, nil
}

// root builds the folder tree of the named files on first use.
func (a *Archive) root() *dirNode {
	a.treeOnce.Do(func() {
		root := newDir(".")
		seen := map[string]bool{}
		for _, f := range a.files {
			if f.Name == "" {
				continue
			}
			p := strings.ReplaceAll(f.Name, "\\", "/")
			if !fs.ValidPath(p) || p == "." {
				continue // e.g. a name with an empty element; still in Files()
			}
			key := foldName(p)
			if seen[key] {
				continue
			}
			seen[key] = true
			// Locale variants: the tree holds the one Lookup picks.
			g, ok := a.Lookup(f.Name)
			if !ok {
				continue
			}
			elems := strings.Split(p, "/")
			d := root
			for _, e := range elems[:len(elems)-1] {
				k := foldName(e)
				sub := d.dirs[k]
				if sub == nil {
					sub = newDir(e)
					d.dirs[k] = sub
				}
				d = sub
			}
			base := elems[len(elems)-1]
			k := foldName(base)
			if _, isDir := d.dirs[k]; !isDir {
				d.files[k] = g
				d.fileName[k] = base
			}
		}
		// A name that is both a file and a folder prefix is shown as the
		// folder, so that what is inside stays reachable.
		var prune func(d *dirNode)
		prune = func(d *dirNode) {
			for k, sub := range d.dirs {
				delete(d.files, k)
				delete(d.fileName, k)
				prune(sub)
			}
		}
		prune(root)
		a.tree = root
	})
	return a.tree
}

// find resolves a cleaned path to a folder or a listed file.
func (a *Archive) find(p string) (*dirNode, *File, string) {
	d := a.root()
	if p == "." {
		return d, nil, "."
	}
	elems := strings.Split(p, "/")
	for i, e := range elems {
		k := foldName(e)
		if i == len(elems)-1 {
			if sub := d.dirs[k]; sub != nil {
				return sub, nil, sub.name
			}
			if f := d.files[k]; f != nil {
				return nil, f, d.fileName[k]
			}
			return nil, nil, ""
		}
		if d = d.dirs[k]; d == nil {
			return nil, nil, ""
		}
	}
	return nil, nil, ""
}

// resolve finds the file or folder for an fs path: listed names first, then
// any entry the name hashes to.
func (a *Archive) resolve(op, name string) (*dirNode, *File, string, error) {
	p, err := cleanPath(op, name)
	if err != nil {
		return nil, nil, "", err
	}
	if d, f, base := a.find(p); d != nil || f != nil {
		return d, f, base, nil
	}
	if f, ok := a.Lookup(strings.ReplaceAll(p, "/", "\\")); ok {
		return nil, f, path.Base(p), nil
	}
	return nil, nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// Open opens a file or folder (fs.FS). Folders exist only as prefixes of
// enumerable names.
func (a *Archive) Open(name string) (fs.File, error) {
	d, f, base, err := a.resolve("open", name)
	if err != nil {
		return nil, err
	}
	if d != nil {
		return &dirFile{a: a, d: d, info: dirInfo(base)}, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &openFile{ReadCloser: rc, info: fileInfo{f: f, name: base}}, nil
}

// ReadFile reads a whole file (fs.ReadFileFS), within the read limit.
func (a *Archive) ReadFile(name string) ([]byte, error) {
	d, f, _, err := a.resolve("readfile", name)
	if err != nil {
		return nil, err
	}
	if d != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: errors.New("is a directory")}
	}
	b, err := f.readAll()
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	return b, nil
}

// Stat describes a file or folder (fs.StatFS) without reading it.
func (a *Archive) Stat(name string) (fs.FileInfo, error) {
	d, f, base, err := a.resolve("stat", name)
	if err != nil {
		return nil, err
	}
	if d != nil {
		return dirInfo(base), nil
	}
	return fileInfo{f: f, name: base}, nil
}

// ReadDir lists a folder sorted by name (fs.ReadDirFS).
func (a *Archive) ReadDir(name string) ([]fs.DirEntry, error) {
	d, _, _, err := a.resolve("readdir", name)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return d.entries(), nil
}

func (d *dirNode) entries() []fs.DirEntry {
	out := make([]fs.DirEntry, 0, len(d.dirs)+len(d.files))
	for _, sub := range d.dirs {
		out = append(out, fs.FileInfoToDirEntry(dirInfo(sub.name)))
	}
	for k, f := range d.files {
		out = append(out, fs.FileInfoToDirEntry(fileInfo{f: f, name: d.fileName[k]}))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
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
	a       *Archive
	d       *dirNode
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
		f.entries = f.d.entries()
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
