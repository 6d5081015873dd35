// Package model loads any model file the renderer draws — Warcraft III and
// early World of Warcraft MDX (versions 800–1100 and 1300–1500), MDL text,
// and pre-Wrath World of Warcraft M2 (magic "MD20", versions 256–263) —
// into one *mdx.Model, telling the formats apart by content, never by file
// name.
//
// It exists because pkg/m2 builds on pkg/mdx, so pkg/mdx cannot dispatch
// MD20 files itself; everything that opens model files for the user (the
// CLI, batch rendering) goes through here instead of calling mdx.DecodeAny.
package model

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mdxrender/mdxrender/internal/bufpool"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/m2"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Format is a model file format, as detected from the content.
type Format string

// The formats Decode recognises.
const (
	FormatMDX Format = "mdx" // binary MDX ("MDLX"), Warcraft III or WoW alpha
	FormatMDL Format = "mdl" // MDL text
	FormatM2  Format = "m2"  // WoW M2 ("MD20")
)

// Loader reads and decodes model files within a model's budget: reading
// the file is charged to Meter (its bytes, against ReadBytes: a file that
// does not fit is refused before it is read), and decoding is held to the
// Meter's geometry limits. The zero Loader (a nil Meter) reads within the
// default limits.
type Loader struct {
	Meter *budget.Meter
}

// File is a decoded model file with what the format-specific decoder
// knows beyond the common model.
type File struct {
	Model  *mdx.Model
	Format Format
	Size   int64 // bytes
	// M2 is the M2 file as read (nil for MDX and MDL); View is the view
	// (level of detail) Model was built from.
	M2   *m2.File
	View int
}

// Detect tells the format from the first bytes: FormatM2 for "MD20",
// FormatMDX for "MDLX", FormatMDL for MDL text that mdx.Detect recognises,
// "" otherwise (Decode still tries MDL text that starts with a block name).
func Detect(b []byte) Format {
	if m2.IsM2(b) {
		return FormatM2
	}
	switch mdx.Detect(b) {
	case mdx.FormatMDX:
		return FormatMDX
	case mdx.FormatMDL:
		return FormatMDL
	}
	return ""
}

// Decode decodes a model held in b; name (usually the file path) prefixes
// every error. MD20 data goes to pkg/m2 (the lowest-index view, the most
// detailed), everything else to mdx.DecodeAny. An M2 of a version other
// than 256–263 fails with an error wrapping *m2.UnsupportedVersionError.
func Decode(b []byte, name string) (*mdx.Model, error) {
	f, err := DecodeFile(b, name)
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}

// DecodeFile is Decode returning the format and, for M2, the file as read.
func DecodeFile(b []byte, name string) (*File, error) { return Loader{}.DecodeFile(b, name) }

// DecodeFile is the package's DecodeFile within l's limits.
func (l Loader) DecodeFile(b []byte, name string) (*File, error) {
	lim := l.Meter.Limits()
	if m2.IsM2(b) {
		mf, err := m2.DecodeBytes(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(mf.Views) == 0 {
			return nil, fmt.Errorf("%s: m2: the file has no views (nothing to draw)", name)
		}
		m, err := mf.Model(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		// pkg/m2 bounds its counts by the file's bytes; the geometry
		// limits are checked on what it built.
		if err := checkGeometry(m, lim); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return &File{Model: m, Format: FormatM2, Size: int64(len(b)), M2: mf}, nil
	}
	m, err := (&mdx.Decoder{Limits: lim}).DecodeAny(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f := &File{Model: m, Format: FormatMDL, Size: int64(len(b))}
	if mdx.Detect(b) == mdx.FormatMDX {
		f.Format = FormatMDX
	}
	return f, nil
}

// Load reads and decodes the model file at path within the default
// limits, refusing anything but a regular file, and a file larger than
// the read limit, before reading it. Errors name the file.
func Load(path string) (*mdx.Model, error) {
	f, err := LoadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}

// LoadFile is Load returning the format and, for M2, the file as read.
func LoadFile(path string) (*File, error) { return Loader{}.LoadFile(path) }

// LoadFile is the package's LoadFile within l's budget.
func (l Loader) LoadFile(path string) (*File, error) {
	return l.load(path, func(buf []byte) ([]byte, error) {
		return readFile(path, l.Meter, buf)
	})
}

// load decodes the file that read reads into a buffer of fileBufs, and
// gives the buffer back.
func (l Loader) load(name string, read func(buf []byte) ([]byte, error)) (*File, error) {
	buf := fileBufs.Get()
	b, err := read(buf)
	if err != nil {
		fileBufs.Put(buf)
		return nil, err
	}
	f, err := l.DecodeFile(b, name)
	if !m2.IsM2(b) {
		// The MDX and MDL decoders copy what they keep
		// (TestLoadKeepsNoBytes); an M2 File keeps slices of b.
		fileBufs.Put(b)
	}
	return f, err
}

// fileBufs keeps the buffers LoadFile and LoadFS read model files into,
// for the next load. A program making thumbnails one model after another
// otherwise allocated a file's worth of bytes for each, cleared by the
// runtime and then overwritten: a quarter-megabyte unit's file was a
// sixth of its thumbnail's allocation, and with the collections that
// came with it some 3 % of its time (docs/performance.md). A huge
// model's buffer is not kept.
var fileBufs = bufpool.Pool{Max: 16 << 20}

// LoadFS reads and decodes the model file name inside fsys, as Load does;
// errors name it as name.
func LoadFS(fsys fs.FS, name string) (*File, error) { return Loader{}.LoadFS(fsys, name) }

// LoadFS is the package's LoadFS within l's budget.
func (l Loader) LoadFS(fsys fs.FS, name string) (*File, error) {
	return l.load(name, func(buf []byte) ([]byte, error) {
		return readFS(fsys, name, name, l.Meter, buf)
	})
}

// checkGeometry checks a built model's vertices and triangles against
// the limits, as the MDX and MDL decoders do while reading.
func checkGeometry(m *mdx.Model, l budget.Limits) error {
	var nv, nt int64
	for i := range m.Geosets {
		nv += int64(len(m.Geosets[i].Vertices))
		nt += int64(len(m.Geosets[i].Faces) / 3)
	}
	const what = "m2: over all geosets of the view drawn"
	if err := l.Check(budget.Vertices, nv, "", what); err != nil {
		return err
	}
	return l.Check(budget.Triangles, nt, "", what)
}

// ReadFile reads the file at path on disk for decoding, charging it to m
// (budget.Meter.ReadFile): it refuses a folder, a FIFO, a device or a
// socket before opening it (opening a FIFO blocks; /dev/zero never ends)
// and a file larger than what m has left before reading it, and it never
// reads more than that whatever the file claims. Errors name the file.
func ReadFile(path string, m *budget.Meter) ([]byte, error) { return readFile(path, m, nil) }

// readFile is ReadFile into buf's storage when it has room.
func readFile(path string, m *budget.Meter, buf []byte) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err // *PathError already names the file
	}
	if err := checkFile(path, st); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCharged(path, f, st.Size(), m, buf)
}

// ReadFS is ReadFile for a file inside fsys.
func ReadFS(fsys fs.FS, name string, m *budget.Meter) ([]byte, error) {
	return readFS(fsys, name, name, m, nil)
}

// ReadBelow is ReadFile for the file name (a slash path) below the folder
// dir, read through an os.Root opened on dir: no symbolic link, whenever
// it was made, leads the read outside dir. Errors name the file as
// dir/name.
func ReadBelow(dir, name string, m *budget.Meter) ([]byte, error) {
	label := filepath.Join(dir, filepath.FromSlash(name))
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readFS(r.FS(), name, label, m, nil)
}

// readFS is ReadFS into buf's storage when it has room; label names the
// file in errors.
func readFS(fsys fs.FS, name, label string, m *budget.Meter, buf []byte) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, relabel(err, label)
	}
	if err := checkFile(label, st); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, relabel(err, label)
	}
	defer f.Close()
	return readCharged(label, f, st.Size(), m, buf)
}

// relabel names the file label in a *fs.PathError.
func relabel(err error, label string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: label, Err: pe.Err}
	}
	return err
}

func checkFile(name string, st fs.FileInfo) error {
	switch {
	case st.IsDir():
		return fmt.Errorf("%s: is a folder, not a model file", name)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s); refused before reading", name, st.Mode().Type())
	}
	return nil
}

// readCharged reads r, the file name of size bytes, charged to m.
func readCharged(name string, r io.Reader, size int64, m *budget.Meter, buf []byte) ([]byte, error) {
	b, err := m.ReadFile(name, r, size, buf)
	var be *budget.Error
	if err != nil && !errors.As(err, &be) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, err
}

// IsUnsupportedVersion reports whether err comes from an M2 file of a
// version this package cannot draw (Wrath and later).
func IsUnsupportedVersion(err error) bool {
	var uv *m2.UnsupportedVersionError
	return errors.As(err, &uv)
}
