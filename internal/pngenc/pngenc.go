// Package pngenc is the one PNG encoder setting every picture this module
// writes goes through, so that the library, the batch and the command
// line give the same bytes for the same picture.
package pngenc

import (
	"bytes"
	"image"
	"image/png"
	"io"
)

var encoder = png.Encoder{CompressionLevel: png.DefaultCompression}

// Encode writes img as PNG.
func Encode(w io.Writer, img image.Image) error { return encoder.Encode(w, img) }

// Bytes returns img encoded as PNG.
func Bytes(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := Encode(&b, img)
	return b.Bytes(), err
}
