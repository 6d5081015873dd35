// Package fsread reads a file a stranger may have written within a
// model's budget: it refuses a folder, a FIFO, a device or a socket before
// opening it (opening a FIFO blocks until someone writes to it; /dev/zero
// never ends), charges the file's size to the budget before reading it
// (budget.Meter.ReadFile: a file larger than what is left is refused
// without a byte of it read) and never reads more than was charged,
// whatever size the file claims. Models, textures and spawned models are
// all read this way.
package fsread

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// FS reads the file name inside fsys, naming it label in errors (its
// place for people: "map.w3x:Units/x.mdx", a path on disk). The bytes go
// into buf's storage when it has room.
func FS(fsys fs.FS, name, label string, m *budget.Meter, buf []byte) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, relabel(err, label)
	}
	if err := regular(label, st); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, relabel(err, label)
	}
	defer f.Close()
	return charged(label, f, st.Size(), m, buf)
}

// Path reads the file at path on disk, a path the user named: links in it
// are followed wherever they lead, and the file found is refused unless it
// is a regular file.
func Path(path string, m *budget.Meter, buf []byte) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err // *PathError already names the file
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return charged(path, f, st.Size(), m, buf)
}

// Below reads the file name (a slash path) below the folder dir through an
// os.Root opened on dir, so that no symbolic link, whenever it was made,
// leads the read outside dir. Errors name the file as dir/name.
func Below(dir, name string, m *budget.Meter, buf []byte) ([]byte, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return FS(r.FS(), name, filepath.Join(dir, filepath.FromSlash(name)), m, buf)
}

// regular refuses anything but a regular file.
func regular(label string, st fs.FileInfo) error {
	switch {
	case st.IsDir():
		return fmt.Errorf("%s: is a folder, not a file", label)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s); refused before reading", label, st.Mode().Type())
	}
	return nil
}

// charged reads r, the file label of size bytes, charged to m.
func charged(label string, r interface{ Read([]byte) (int, error) }, size int64, m *budget.Meter, buf []byte) ([]byte, error) {
	b, err := m.ReadFile(label, r, size, buf)
	var be *budget.Error
	if err != nil && !errors.As(err, &be) {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return b, err
}

// relabel names the file label in a *fs.PathError.
func relabel(err error, label string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: label, Err: pe.Err}
	}
	return err
}
