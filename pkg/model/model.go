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

	"github.com/mdxrender/mdxrender/internal/bufpool"
	"github.com/mdxrender/mdxrender/internal/readlimit"
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

// DefaultMaxFileSize is the largest model file read unless told otherwise:
// 128 MiB. The largest model file of the test corpus is 3.4 MB, and
// Reforged's largest units are a few tens of MB; a file a hundred times
// the corpus' largest is refused before it is read instead of holding
// its size in memory (twice, decoded).
const DefaultMaxFileSize = 128 << 20

// MaxFileSize is the largest model file Load, LoadFile and LoadFS read.
var MaxFileSize int64 = DefaultMaxFileSize

// Loader reads and decodes model files within quotas: the file's size
// and, for every format, the model's geometry.
type Loader struct {
	// Quotas bound the file (MaxFileSize) and what it holds; a zero
	// field means mdx.DefaultQuotas' value, and a zero MaxFileSize
	// means the package's MaxFileSize.
	Quotas mdx.ReadQuotas
}

// quotas returns l's quotas with the defaults filled in.
func (l Loader) quotas() mdx.ReadQuotas {
	q, d := l.Quotas, mdx.DefaultQuotas
	d.MaxFileSize = int(MaxFileSize)
	for _, f := range []struct{ v, d *int }{
		{&q.MaxFileSize, &d.MaxFileSize}, {&q.MaxRecords, &d.MaxRecords}, {&q.MaxKeys, &d.MaxKeys},
		{&q.MaxVertices, &d.MaxVertices}, {&q.MaxTriangles, &d.MaxTriangles},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return q
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

// DecodeFile is the package's DecodeFile within l's quotas.
func (l Loader) DecodeFile(b []byte, name string) (*File, error) {
	q := l.quotas()
	if len(b) > q.MaxFileSize {
		return nil, &TooLargeError{Name: name, Size: int64(len(b)), Limit: int64(q.MaxFileSize)}
	}
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
		// quotas are checked on what it built.
		if err := checkGeometry(m, q); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return &File{Model: m, Format: FormatM2, Size: int64(len(b)), M2: mf}, nil
	}
	m, err := (&mdx.Decoder{Quotas: q}).DecodeAny(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f := &File{Model: m, Format: FormatMDL, Size: int64(len(b))}
	if mdx.Detect(b) == mdx.FormatMDX {
		f.Format = FormatMDX
	}
	return f, nil
}

// Load reads and decodes the model file at path, refusing anything but a
// regular file and files larger than MaxFileSize before reading them.
// Errors name the file.
func Load(path string) (*mdx.Model, error) {
	f, err := LoadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}

// LoadFile is Load returning the format and, for M2, the file as read.
func LoadFile(path string) (*File, error) { return Loader{}.LoadFile(path) }

// LoadFile is the package's LoadFile within l's quotas.
func (l Loader) LoadFile(path string) (*File, error) {
	return l.load(path, func(buf []byte) ([]byte, error) {
		return readFile(path, int64(l.quotas().MaxFileSize), buf)
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

// LoadFS is the package's LoadFS within l's quotas.
func (l Loader) LoadFS(fsys fs.FS, name string) (*File, error) {
	return l.load(name, func(buf []byte) ([]byte, error) {
		return readFS(fsys, name, int64(l.quotas().MaxFileSize), buf)
	})
}

// checkGeometry checks a built model's vertices and triangles against
// the quotas, as the MDX and MDL decoders do while reading.
func checkGeometry(m *mdx.Model, q mdx.ReadQuotas) error {
	var nv, nt int
	for i := range m.Geosets {
		nv += len(m.Geosets[i].Vertices)
		nt += len(m.Geosets[i].Faces) / 3
	}
	switch {
	case q.MaxVertices > 0 && nv > q.MaxVertices:
		return &mdx.QuotaError{Chunk: "MD20", What: fmt.Sprintf("%d vertices over all geosets (ReadQuotas.MaxVertices)", nv), Limit: q.MaxVertices}
	case q.MaxTriangles > 0 && nt > q.MaxTriangles:
		return &mdx.QuotaError{Chunk: "MD20", What: fmt.Sprintf("%d triangles over all geosets (ReadQuotas.MaxTriangles)", nt), Limit: q.MaxTriangles}
	}
	return nil
}

// ReadFile reads the file at path on disk for decoding: it refuses a
// folder, a FIFO, a device or a socket before opening it (opening a FIFO
// blocks; /dev/zero never ends) and a file over limit bytes before reading
// it, and it never reads more than limit+1 bytes whatever the file
// claims. Errors name the file.
func ReadFile(path string, limit int64) ([]byte, error) { return readFile(path, limit, nil) }

// readFile is ReadFile into buf's storage when it has room (ReadInto).
func readFile(path string, limit int64, buf []byte) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err // *PathError already names the file
	}
	if err := checkFile(path, st, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(path, f, st.Size(), limit, buf)
}

// ReadFS is ReadFile for a file inside fsys.
func ReadFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	return readFS(fsys, name, limit, nil)
}

// readFS is ReadFS into buf's storage when it has room (ReadInto).
func readFS(fsys fs.FS, name string, limit int64, buf []byte) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := checkFile(name, st, limit); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(name, f, st.Size(), limit, buf)
}

func checkFile(name string, st fs.FileInfo, limit int64) error {
	switch {
	case st.IsDir():
		return fmt.Errorf("%s: is a folder, not a model file", name)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s); refused before reading", name, st.Mode().Type())
	case st.Size() > limit:
		return &TooLargeError{Name: name, Size: st.Size(), Limit: limit}
	}
	return nil
}

// TooLargeError reports a model file larger than the limit it is read
// with, refused before (or while) it is read.
type TooLargeError struct {
	Name  string
	Size  int64 // -1 when the file grew past the limit while being read
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: larger than the %d-byte limit", e.Name, e.Limit)
	}
	return fmt.Sprintf("%s: %d bytes is larger than the %d-byte limit", e.Name, e.Size, e.Limit)
}

func readLimited(name string, r io.Reader, size, limit int64, buf []byte) ([]byte, error) {
	b, over, err := readlimit.ReadInto(r, size, limit, buf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if over {
		return nil, &TooLargeError{Name: name, Size: -1, Limit: limit}
	}
	return b, nil
}

// IsUnsupportedVersion reports whether err comes from an M2 file of a
// version this package cannot draw (Wrath and later).
func IsUnsupportedVersion(err error) bool {
	var uv *m2.UnsupportedVersionError
	return errors.As(err, &uv)
}
