// Package atomicfile writes the files of an output folder: each whole (a
// reader of the target sees either its old content or the complete new
// content, never a part, and a failed or cancelled write leaves the old
// file as it was), and none outside the folder.
//
// Every write goes through a Dir, a handle on the output folder (an
// os.Root) that no name can leave: not "..", not an absolute name, not a
// symbolic link that leads out. Beyond what os.Root refuses, a Dir does
// not follow a symbolic link on the way to a file at all, wherever it
// leads: an output folder may hold links planted by whoever filled it (a
// checked-out pull request, an earlier extraction), and a file meant for
// out/units must not land wherever out/units points. A link at the final
// name is replaced, as any file there is.
//
// The content goes to a temporary file in the target's own folder (so the
// final rename cannot cross file systems), which is flushed to disk and
// then renamed over the target. Without the flush, a crash soon after the
// rename can leave the new name pointing at an empty or truncated file on
// common file systems. The temporary file's name contains a fixed marker,
// so the leftovers of a process killed in the middle (SIGKILL gives it no
// chance to clean up) can be found with IsTemp and removed (SweepTemp).
package atomicfile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// marker is part of every temporary file name and of no name a program of
// this project writes otherwise.
const marker = ".mdxr-tmp-"

// perm is the permission of every written file: readable by others, like
// os.WriteFile's files under the usual umask, because outputs are served
// and shared (CI artifacts, web servers).
const perm = 0o644

// dirPerm is the permission of the folders a Dir creates.
const dirPerm = 0o755

// IsTemp reports whether name (a path or a base name) is a temporary file
// of this package, as an interrupted write leaves it behind.
func IsTemp(name string) bool {
	return strings.Contains(filepath.Base(name), marker)
}

// SymlinkError reports a symbolic link met on the way to a file inside a
// Dir, which is not followed.
type SymlinkError struct {
	// Path is the link: the Dir's name joined with the link's path
	// inside it.
	Path string
}

func (e *SymlinkError) Error() string {
	return e.Path + ": a symbolic link inside the output folder; not followed"
}

// errNotLocal is the error for a name that does not stay inside a Dir.
var errNotLocal = errors.New("not a path inside the output folder")

// Dir is an output folder. Its methods take slash-separated paths
// relative to it, with no "..", "." or empty elements and no leading
// slash; their errors are *fs.PathError values
// naming the file as the Dir's name joined with that path, never a
// temporary file. A Dir is safe for concurrent use.
type Dir struct {
	root *os.Root
	name string
}

// Open opens the existing folder name as a Dir. The folder itself may be
// a symbolic link: the caller named it.
func Open(name string) (*Dir, error) {
	r, err := os.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	return &Dir{root: r, name: name}, nil
}

// Create opens the folder name as a Dir, creating it (and its parents)
// first if missing.
func Create(name string) (*Dir, error) {
	if err := os.MkdirAll(name, dirPerm); err != nil {
		return nil, err
	}
	return Open(name)
}

// Close releases the folder.
func (d *Dir) Close() error { return d.root.Close() }

// Name is the folder's name as Open or Create got it.
func (d *Dir) Name() string { return d.name }

// Path is how messages name the file at the slash path name inside d.
func (d *Dir) Path(name string) string {
	return filepath.Join(d.name, filepath.FromSlash(name))
}

// pathErr names the file name inside d in an error from the file system,
// dropping the name the system gave (the root-relative one, or a
// temporary file's).
func (d *Dir) pathErr(op, name string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: d.Path(name), Err: err}
}

// local checks a slash path and turns it into the operating system's
// form. Names need not be UTF-8 (fs.ValidPath would want them to be):
// archives name their files in whatever code page their maker used, and
// the file system takes those bytes as they are.
func (d *Dir) local(op, name string) (string, error) {
	bad := name == ""
	for e := range strings.SplitSeq(name, "/") {
		if e == "" || e == "." || e == ".." || strings.IndexByte(e, 0) >= 0 ||
			filepath.Separator != '/' && strings.ContainsAny(e, string(filepath.Separator)+":") {
			bad = true
			break
		}
	}
	if bad {
		return "", &fs.PathError{Op: op, Path: d.Path(name), Err: errNotLocal}
	}
	return filepath.FromSlash(name), nil
}

// folders checks the folders on the way to the slash path name, each
// level from the top, and creates those missing when create is set: a
// symbolic link among them is a *SymlinkError, a file among them an
// error. The name itself is not looked at.
func (d *Dir) folders(name string, create bool) error {
	for i := 0; i < len(name); i++ {
		if name[i] != '/' {
			continue
		}
		if err := d.folder(name[:i], create); err != nil {
			return err
		}
	}
	return nil
}

// folder checks (and maybe creates) the one folder dir.
func (d *Dir) folder(dir string, create bool) error {
	p := filepath.FromSlash(dir)
	for range 2 { // once more if another writer made it meanwhile
		fi, err := d.root.Lstat(p)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			return &SymlinkError{Path: d.Path(dir)}
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s: not a folder", d.Path(dir))
		case err == nil:
			return nil
		case !errors.Is(err, fs.ErrNotExist) || !create:
			return d.pathErr("lstat", dir, err)
		}
		if err := d.root.Mkdir(p, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
			return d.pathErr("mkdir", dir, err)
		}
	}
	return nil
}

// MkdirAll creates the folder name and those on the way to it, refusing
// a symbolic link among them as Write does.
func (d *Dir) MkdirAll(name string) error {
	if _, err := d.local("mkdir", name); err != nil {
		return err
	}
	return d.folders(name+"/", true)
}

// Write replaces the file name with what write writes to the buffered
// writer it is given, which write must not keep, and flushes it to disk.
// The folders on the way are created. On any error (from write, the file
// system, or ctx cancelled before the rename) the temporary file is
// removed and name is left untouched. An error of write's own, or ctx's,
// is returned as it is; a failed write to the file, as the failure to
// write name.
func (d *Dir) Write(ctx context.Context, name string, write func(io.Writer) error) error {
	return d.replace(ctx, name, write, true)
}

// WriteFile replaces the file name with data (see Write).
func (d *Dir) WriteFile(ctx context.Context, name string, data []byte) error {
	return d.Write(ctx, name, writeData(data))
}

// writeData is a write function that writes data.
func writeData(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := bytes.NewReader(data).WriteTo(w)
		return err
	}
}

// writers keeps the buffered writers replace hands to write functions: a
// batch writes a few files for every model, and a new 64 KiB buffer for
// each was a fifteenth of what a whole-corpus batch allocated.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(io.Discard, 1<<16) }}

// fileWriter writes to a temporary file, naming the target in its errors.
type fileWriter struct {
	d    *Dir
	f    *os.File
	name string
}

func (w fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = w.d.pathErr("write", w.name, err)
	}
	return n, err
}

// replace writes name through a temporary file; sync flushes it to disk
// before the rename.
func (d *Dir) replace(ctx context.Context, name string, write func(io.Writer) error, sync bool) (err error) {
	local, err := d.local("write", name)
	if err != nil {
		return err
	}
	if err := d.folders(name, true); err != nil {
		return d.pathErr("write", name, err)
	}
	f, tmp, err := d.createTemp(local)
	if err != nil {
		return d.pathErr("write", name, err)
	}
	defer func() {
		if err != nil {
			f.Close() // may be closed already; that error says nothing new
			d.root.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil { // whatever the umask
		return d.pathErr("write", name, err)
	}
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(fileWriter{d, f, name})
	defer func() {
		bw.Reset(io.Discard) // no hold on the file, nor an error kept for the next
		writers.Put(bw)
	}()
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if sync {
		if err := f.Sync(); err != nil {
			return d.pathErr("sync", name, err)
		}
	}
	if err := f.Close(); err != nil {
		return d.pathErr("write", name, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := d.root.Rename(tmp, local); err != nil {
		return d.pathErr("write", name, err)
	}
	return nil
}

// maxTempBase bounds the part of a target's name a temporary file's name
// repeats, so that a long target name still leaves room for the rest
// (names are at most 255 bytes on common file systems).
const maxTempBase = 100

// createTemp creates a new temporary file beside the file local (an
// operating system path inside d) and returns it with its path.
func (d *Dir) createTemp(local string) (*os.File, string, error) {
	base := filepath.Base(local)
	if len(base) > maxTempBase {
		n := maxTempBase
		for n > 0 && !utf8.RuneStart(base[n]) {
			n--
		}
		base = base[:n]
	}
	dir := filepath.Dir(local)
	for try := 0; ; try++ {
		tmp := filepath.Join(dir, "."+base+marker+strconv.FormatUint(rand.Uint64(), 36))
		f, err := d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, tmp, err
		}
	}
}

// Remove removes the file or empty folder name, refusing a symbolic link
// on the way to it; a link at name is removed itself.
func (d *Dir) Remove(name string) error {
	local, err := d.local("remove", name)
	if err != nil {
		return err
	}
	if err := d.folders(name, false); err != nil {
		return d.pathErr("remove", name, err)
	}
	if err := d.root.Remove(local); err != nil {
		return d.pathErr("remove", name, err)
	}
	return nil
}

// Lstat describes the file name without following a link at name, and
// refuses one on the way to it.
func (d *Dir) Lstat(name string) (fs.FileInfo, error) {
	local, err := d.local("lstat", name)
	if err != nil {
		return nil, err
	}
	if err := d.folders(name, false); err != nil {
		return nil, d.pathErr("lstat", name, err)
	}
	fi, err := d.root.Lstat(local)
	if err != nil {
		return nil, d.pathErr("lstat", name, err)
	}
	return fi, nil
}

// ReadFile reads the regular file name, refusing a symbolic link on the
// way to it or at it: what is read back from an output folder is what
// was written there.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	fi, err := d.Lstat(name)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &SymlinkError{Path: d.Path(name)}
	}
	b, err := d.root.ReadFile(filepath.FromSlash(name))
	if err != nil {
		return nil, d.pathErr("read", name, err)
	}
	return b, nil
}

// ReadDir lists the folder name ("." for d itself), sorted by name.
func (d *Dir) ReadDir(name string) ([]fs.DirEntry, error) {
	local := "."
	if name != "." {
		var err error
		if local, err = d.local("readdir", name); err != nil {
			return nil, err
		}
		if err := d.folders(name+"/", false); err != nil {
			return nil, d.pathErr("readdir", name, err)
		}
	}
	es, err := d.readDir(local)
	if err != nil {
		return nil, d.pathErr("readdir", name, err)
	}
	return es, nil
}

// readDir lists the folder local (an operating system path inside d),
// sorted by name.
func (d *Dir) readDir(local string) ([]fs.DirEntry, error) {
	f, err := d.root.Open(local)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es, err := f.ReadDir(-1)
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, err
}

// OpenFile opens the file name with os.OpenFile's flag and permission,
// refusing a symbolic link on the way to it or at it. Folders are not
// created.
func (d *Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	local, err := d.local("open", name)
	if err != nil {
		return nil, err
	}
	if err := d.folders(name, false); err != nil {
		return nil, d.pathErr("open", name, err)
	}
	if fi, err := d.root.Lstat(local); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, d.pathErr("open", name, &SymlinkError{Path: d.Path(name)})
	}
	f, err := d.root.OpenFile(local, flag, perm)
	if err != nil {
		return nil, d.pathErr("open", name, err)
	}
	return f, nil
}

// SweepTemp removes the temporary files an interrupted run left below d.
// Linked folders are not entered.
func (d *Dir) SweepTemp() error { return d.sweep(".") }

func (d *Dir) sweep(local string) error {
	es, err := d.readDir(local)
	if err != nil {
		return d.pathErr("sweep", filepath.ToSlash(local), err)
	}
	for _, e := range es {
		p := filepath.Join(local, e.Name())
		switch {
		case e.IsDir(): // from the folder's listing: a link is not a folder here
			if err := d.sweep(p); err != nil {
				return err
			}
		case IsTemp(e.Name()):
			if err := d.root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return d.pathErr("remove", filepath.ToSlash(p), err)
			}
		}
	}
	return nil
}

// WriteNamed replaces the one file name the user named (render -o
// out/x.png) as Dir.Write does, through a Dir of its folder, which must
// exist.
func WriteNamed(ctx context.Context, name string, write func(io.Writer) error) error {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	d, err := Open(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	defer d.Close()
	return d.Write(ctx, filepath.ToSlash(base), write)
}

// Group writes many files into a Dir, each whole or not at all as Write
// does, but flushes them to disk together in Sync instead of one by one:
// a flush per file is what makes extracting thousands of small files
// slow. Until Sync has returned, a crash may leave some of them empty or
// truncated under their final names. A Group is safe for concurrent use.
type Group struct {
	d     *Dir
	mu    sync.Mutex
	names []string
}

// Group starts a group of writes into d.
func (d *Dir) Group() *Group { return &Group{d: d} }

// Write replaces the file name as Dir.Write does, without flushing it.
func (g *Group) Write(ctx context.Context, name string, write func(io.Writer) error) error {
	if err := g.d.replace(ctx, name, write, false); err != nil {
		return err
	}
	g.mu.Lock()
	g.names = append(g.names, name)
	g.mu.Unlock()
	return nil
}

// WriteFile replaces the file name with data as Write does, without
// flushing it.
func (g *Group) WriteFile(ctx context.Context, name string, data []byte) error {
	return g.Write(ctx, name, writeData(data))
}

// Sync flushes every file whose Write returned before it was called.
func (g *Group) Sync() error {
	g.mu.Lock()
	names := g.names
	g.names = nil
	g.mu.Unlock()
	return syncAll(names, g.open)
}

// open opens a written file for flushing; the files were written by the
// group, so the folders on the way are not looked at again.
func (g *Group) open(name string) (*os.File, error) {
	f, err := g.d.root.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, g.d.pathErr("sync", name, err)
	}
	return f, nil
}

// syncFiles flushes the files one by one; syncAll uses it where the
// system has no cheaper way.
func syncFiles(names []string, open func(string) (*os.File, error)) error {
	for _, n := range names {
		f, err := open(n)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
