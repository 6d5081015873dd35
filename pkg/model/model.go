// Package model loads any model file the renderer draws — Warcraft III and
// early World of Warcraft MDX (versions 800–1100 and 1300–1500), MDL text,
// and pre-Wrath World of Warcraft M2 (magic "MD20", versions 256–263) —
// into one *mdx.Model, telling the formats apart by content, never by file
// name.
//
// It exists because pkg/m2 builds on pkg/mdx, so pkg/mdx cannot dispatch
// MD20 files itself; everything that loads model files for the user (the
// front door, batch rendering, spawned models) goes through Load.
package model

import (
	"errors"
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/m2"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Format is a model file format, as detected from the content.
type Format string

// The formats Load recognises.
const (
	FormatMDX Format = "mdx" // binary MDX ("MDLX"), Warcraft III or WoW alpha
	FormatMDL Format = "mdl" // MDL text
	FormatM2  Format = "m2"  // WoW M2 ("MD20")
)

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
// FormatMDX for "MDLX", FormatMDL for MDL text (mdx.Detect), "" otherwise.
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

// Load decodes the model file held in b, telling the format apart by
// content (Detect); name (usually the file's path) prefixes every error.
// The model's geometry is held to lim (the zero Limits means the
// defaults): past a limit the decode fails with a *budget.Error. An M2 is
// built from its lowest-index view, the most detailed; an M2 of a version
// other than 256–263 fails with an error wrapping
// *m2.UnsupportedVersionError. Reading the file (within the model's read
// limit) is the caller's: the front door and the batch read it through
// internal/fsread.
//
// The Model keeps no reference to b; an M2 File does (File.M2 holds
// slices of it), so b must not be reused while it is kept.
func Load(b []byte, name string, lim budget.Limits) (*File, error) {
	switch Detect(b) {
	case FormatM2:
		mf, err := m2.Decode(b)
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
	case FormatMDX:
		m, err := mdx.Decode(b, lim)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return &File{Model: m, Format: FormatMDX, Size: int64(len(b))}, nil
	case FormatMDL:
		m, err := mdx.DecodeMDL(b, lim)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return &File{Model: m, Format: FormatMDL, Size: int64(len(b))}, nil
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%s: %w (empty input)", name, mdx.ErrUnknownFormat)
	}
	return nil, fmt.Errorf("%s: %w", name, mdx.ErrUnknownFormat)
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

// IsUnsupportedVersion reports whether err comes from an M2 file of a
// version this package cannot draw (Wrath and later).
func IsUnsupportedVersion(err error) bool {
	var uv *m2.UnsupportedVersionError
	return errors.As(err, &uv)
}
