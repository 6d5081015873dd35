package texture

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/mdxrender/mdxrender/internal/fsread"
	"github.com/mdxrender/mdxrender/pkg/budget"
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

// Folder returns the Source of the folder dir on disk, read through an
// os.Root opened on dir at its first lookup: nothing outside dir is ever
// opened, listed or statted through it. A symbolic link in it is followed
// while it stays below dir; one that leads out of it, or that is absolute
// (os.Root's rule), is refused when a lookup meets it. Links in dir's own
// path are resolved once, when the root is opened, and the Source stays
// with the folder they led to then. The copies of a Source share the
// root, which the runtime closes once no copy is left.
func Folder(dir string) Source {
	return Source{Name: dir, FS: folderFS{dir: dir, root: new(rootOnce)}}
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

// Read reads the file, charging it to m (budget.Meter.ReadFile): it
// refuses anything but a regular file (a FIFO would block, a device never
// end), and a file larger than what m has left, before reading it, and
// never reads more than that whatever size the file claims. Errors name
// the file.
func (f File) Read(m *budget.Meter) ([]byte, error) {
	return fsread.FS(f.Source.FS, f.Name, f.String(), m, nil)
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

// folderFS is a folder on disk whose every operation goes through an
// os.Root, so that no name or symbolic link leads outside it.
type folderFS struct {
	dir string
	// root is the folder's os.Root once opened, shared by the copies of
	// the Source (Folder makes it; the zero folderFS is only a key).
	root *rootOnce
}

// rootOnce opens a folder's root at its first use. Opening it again for
// every lookup cost system calls a warm render does not have to spend.
type rootOnce struct {
	once sync.Once
	r    *os.Root
	err  error
}

// open returns d's root.
func (d folderFS) open() (*os.Root, error) {
	d.root.once.Do(func() { d.root.r, d.root.err = os.OpenRoot(d.dir) })
	return d.root.r, d.root.err
}

// pathErr is the error of op on name, with err cut to what it says: a
// refused link's error names no place outside the folder.
func pathErr(op, name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil && err.Error() == "path escapes from parent" {
		err = errOutside
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// Open opens a regular file or a folder; it refuses other kinds of files
// (FIFOs, devices, sockets): it opens without blocking and checks what it
// opened, because opening a FIFO blocks until someone writes to it.
func (d folderFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	r, err := d.open()
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, pathErr("open", name, err)
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular}
	}
	return f, nil
}

// Stat reports on name without opening it.
func (d folderFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	r, err := d.open()
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	st, err := r.Stat(name)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return st, nil
}

// ReadDir lists a folder below d.
func (d folderFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.ErrUnsupported}
	}
	ents, err := rd.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

var errNotRegular = errors.New("not a regular file or folder")

// errOutside is what a refused symbolic link reports. The link's target
// is not repeated: it may name a place the reader of a log should not
// learn about.
var errOutside = errors.New("a symbolic link leads outside the search folder, or is absolute: not followed")

// OnDisk returns the path on disk of p, a path inside s.FS, when s is a
// Folder: a caller can then stat the file or folder to tell whether it
// changed. ok is false for other file systems.
func (s Source) OnDisk(p string) (name string, ok bool) {
	dir, ok := s.FS.(folderFS)
	if !ok {
		return "", false
	}
	return filepath.Join(dir.dir, filepath.FromSlash(p)), true
}
