package mdxrender

import (
	"context"
	"image"
	"io"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/pngenc"
)

// EncodePNG writes img as the command line writes its pictures, so a
// program and the command give the same bytes.
func EncodePNG(w io.Writer, img image.Image) error { return pngenc.Encode(w, img) }

// WritePNG writes img to the file name as EncodePNG does, whole or not at
// all: it writes a temporary file in the same folder, flushes it to disk
// and renames it over name, so a failure never leaves a partial picture
// and an existing file is replaced only by a complete one. The folder
// must exist; a symbolic link at name is replaced, not followed.
func WritePNG(name string, img image.Image) error {
	return atomicfile.WriteNamed(context.Background(), name, func(w io.Writer) error { return EncodePNG(w, img) })
}
