package texture

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"github.com/mdxrender/mdxrender/internal/readlimit"
)

// Source is a tree of files that textures (and the models particle
// emitters spawn) are looked up in: a folder on disk, a map or an archive,
// or any other fs.FS.
type Source struct {
	// Name says where the tree is in messages: a folder's path, an
	// archive's file name.
	Name string
	// FS holds the files.
	FS fs.FS
	// Dir is the folder inside FS the search starts from; "" is its root.
	Dir string
}

// Folder returns the Source of the folder dir on disk. Nothing outside dir
// is ever opened, listed or statted through it: symbolic links are
// followed only while they stay below dir, so a link in a texture folder
// cannot make a model read files elsewhere. Links in dir's own path are
// resolved once, at the first lookup, and the Source stays with the folder
// they led to then.
func Folder(dir string) Source {
	return Source{Name: dir, FS: folderFS{dir: dir, real: new(realDir)}}
}

// FSSource returns the Source of folder dir inside fsys, named name in
// messages. The fs.FS is trusted as it is: an os.DirFS, unlike Folder,
// follows symbolic links anywhere.
func FSSource(name string, fsys fs.FS, dir string) Source {
	if dir == "." {
		dir = ""
	}
	return Source{Name: name, FS: fsys, Dir: dir}
}

// File is a file found in a Source.
type File struct {
	Source Source
	// Name is the file's slash-separated path inside Source.FS.
	Name string
}

// String names the file for people: a path on disk for a Folder source,
// "archive:path/in/archive" otherwise.
func (f File) String() string { return f.Source.display(f.Name) }

// display names path p inside s for people.
func (s Source) display(p string) string {
	if dir, ok := s.FS.(folderFS); ok {
		return filepath.Join(dir.dir, filepath.FromSlash(p))
	}
	if s.Name == "" {
		return p
	}
	return s.Name + ":" + p
}

// join returns the path inside s.FS of the components below s.Dir.
func (s Source) join(parts ...string) string {
	p := path.Join(parts...)
	if s.Dir != "" {
		p = path.Join(s.Dir, p)
	}
	if p == "" {
		return "."
	}
	return p
}

// maxFileSize bounds how much of a file is read. The largest legitimate
// texture (8192² raw BGRA with mips) is under 400 MB.
const maxFileSize = 512 << 20

// ReadFile reads the file, refusing anything but a regular file (a FIFO
// would block, a device never end) and files larger than limit bytes
// before reading them; it never reads more than limit+1 bytes whatever the
// size the file claims. Errors name the file.
func (f File) ReadFile(limit int64) ([]byte, error) {
	st, err := fs.Stat(f.Source.FS, f.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", f, st.Mode().Type())
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes is more than the %d-byte limit", f, st.Size(), limit)
	}
	h, err := f.Source.FS.Open(f.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	defer h.Close()
	b, over, err := readlimit.Read(h, st.Size(), limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	if over {
		return nil, fmt.Errorf("%s: more than the %d-byte limit", f, limit)
	}
	return b, nil
}

// stamp identifies a version of a file for the cache: the file system it
// is in, its path, size and modification time. ok is false when the file
// system cannot be told apart from others (the texture is then decoded
// every time instead of risking another tree's pixels).
func (f File) stamp() (k fileKey, ok bool) {
	id, name := identity(f.Source.FS, f.Name)
	if id == nil {
		return k, false
	}
	st, err := fs.Stat(f.Source.FS, f.Name)
	if err != nil {
		return k, false
	}
	return fileKey{fs: id, name: name, size: st.Size(), mtime: st.ModTime().UnixNano()}, true
}

// identity returns a comparable identity of the file system fsys and the
// name of p in it. Every Folder is the one disk, so a file reached from
// two folders (a model's own and a texture root above it) is one file.
func identity(fsys fs.FS, p string) (any, string) {
	if dir, ok := fsys.(folderFS); ok {
		return folderFS{}, filepath.Join(dir.dir, filepath.FromSlash(p))
	}
	return fsKey(fsys), p
}

type fileKey struct {
	fs    any
	name  string
	size  int64
	mtime int64
}

// fsKey returns a comparable identity for a file system: the value itself
// when it is comparable (a Folder, an os.DirFS), its address when it is a
// pointer or a map (an archive, an fstest.MapFS), else nil.
func fsKey(f fs.FS) any {
	v := reflect.ValueOf(f)
	if !v.IsValid() {
		return nil
	}
	if v.Comparable() {
		return f
	}
	switch v.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Slice, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return ptrKey{t: v.Type(), p: v.Pointer()}
	}
	return nil
}

type ptrKey struct {
	t reflect.Type
	p uintptr
}

// folderFS is a folder on disk whose every operation is confined to it:
// a path is resolved one component at a time, each symbolic link's target
// checked to lie below the folder (itself resolved) before it is looked
// at, so no link can make it open, list or even stat a place outside.
// (os.Root would also refuse absolute links that point back inside the
// folder, which texture libraries made with links use.)
type folderFS struct {
	dir string
	// real is dir's real path once resolved, shared by the copies of
	// the Source (Folder makes it; the zero folderFS is only a key).
	real *realDir
}

// realDir holds a folder's real path. Resolving it again at every lookup
// took a system call per component of the folder's path (eight for a
// model eight folders deep), most of what finding a texture cost.
type realDir struct {
	mu   sync.Mutex
	path string
}

// root returns the real path of d's folder.
func (d folderFS) root() (string, error) {
	d.real.mu.Lock()
	defer d.real.mu.Unlock()
	if d.real.path == "" {
		p, err := filepath.EvalSymlinks(d.dir)
		if err != nil {
			return "", err
		}
		d.real.path = p
	}
	return d.real.path, nil
}

// maxLinks bounds the symbolic links followed in resolving one path, as
// the operating system's own limit does (a loop of links ends there).
const maxLinks = 40

// resolve returns the real path of name below d, or an error wrapping
// errOutside when it leads elsewhere.
func (d folderFS) resolve(op, name string) (string, error) {
	p, _, err := d.resolveStat(op, name)
	return p, err
}

// resolveStat is resolve that also returns what the last component's
// Lstat reported, which is its Stat as it is not a link; nil when name
// is the folder itself.
func (d folderFS) resolveStat(op, name string) (string, fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	root, err := d.root()
	if err != nil {
		return "", nil, err
	}
	fail := func(err error) (string, fs.FileInfo, error) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	// cur is a real path below root (no links in it); todo are the
	// components left, a link's target's spliced in front of the rest.
	cur := root
	var last fs.FileInfo // cur's, when its last step was a component
	todo := strings.Split(name, "/")
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			// Only reached through a link's target: name is a valid path.
			if cur == root {
				return fail(errOutside)
			}
			cur, last = filepath.Dir(cur), nil
			continue
		}
		next := filepath.Join(cur, c)
		st, err := os.Lstat(next)
		if err != nil {
			return fail(err)
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			cur, last = next, st
			continue
		}
		if links++; links > maxLinks {
			return fail(errors.New("too many levels of symbolic links"))
		}
		target, err := os.Readlink(next)
		if err != nil {
			return fail(err)
		}
		if filepath.IsAbs(target) || filepath.VolumeName(target) != "" {
			// An absolute link is followed only when it names a place
			// below the folder, as the folder's real path or as d spells
			// it.
			rel, ok := below(root, filepath.Clean(target))
			if !ok {
				if rel, ok = below(filepath.Clean(d.dir), filepath.Clean(target)); !ok {
					return fail(errOutside)
				}
			}
			cur, last = root, nil
			target = rel
		}
		todo = append(strings.Split(filepath.ToSlash(target), "/"), todo...)
	}
	return cur, last, nil
}

// stat resolves name and returns its real path and Stat.
func (d folderFS) stat(op, name string) (string, fs.FileInfo, error) {
	real, st, err := d.resolveStat(op, name)
	if err != nil || st != nil {
		return real, st, err
	}
	st, err = os.Stat(real)
	if err != nil {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: errors.Unwrap(err)}
	}
	return real, st, nil
}

// below returns p relative to dir when p is dir or lies below it,
// lexically.
func below(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Open opens a regular file or a folder; it refuses other kinds of files
// (FIFOs, devices, sockets) before opening them, because opening a FIFO
// blocks until someone writes to it.
func (d folderFS) Open(name string) (fs.File, error) {
	real, st, err := d.stat("open", name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular}
	}
	return os.Open(real)
}

// Stat reports on name without opening it.
func (d folderFS) Stat(name string) (fs.FileInfo, error) {
	_, st, err := d.stat("stat", name)
	return st, err
}

// ReadDir lists a folder below d.
func (d folderFS) ReadDir(name string) ([]fs.DirEntry, error) {
	real, err := d.resolve("readdir", name)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(real)
}

var errNotRegular = errors.New("not a regular file or folder")

// errOutside is what a refused symbolic link reports. The link's target
// is not repeated: it may name a place the reader of a log should not
// learn about.
var errOutside = errors.New("a symbolic link leads outside the search folder: not followed")
