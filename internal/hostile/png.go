package hostile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// PNG colour types.
const (
	PNGGrey      = 0
	PNGRGB       = 2
	PNGPalette   = 3
	PNGGreyAlpha = 4
	PNGRGBA      = 6
)

func pngChunk(w *bytes.Buffer, typ string, body []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(body)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(body)
	w.WriteString(typ)
	w.Write(body)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

func pngHeader(w *bytes.Buffer, width, height, depth, colour int) {
	w.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = byte(depth), byte(colour)
	pngChunk(w, "IHDR", ihdr)
	if colour == PNGPalette {
		pngChunk(w, "PLTE", make([]byte, 3))
	}
}

// pngRowBytes is the size of one filtered row: the filter byte and the
// samples.
func pngRowBytes(width, depth, colour int) int {
	ch := map[int]int{PNGGrey: 1, PNGRGB: 3, PNGPalette: 1, PNGGreyAlpha: 2, PNGRGBA: 4}[colour]
	return 1 + (width*ch*depth+7)/8
}

// PNG returns a complete, valid, non-interlaced PNG of all-zero samples.
// The rows are compressed as they are made, so an 8192×8192 16-bit RGBA
// picture (512 MB of samples) is a few hundred kilobytes and never held
// uncompressed.
func PNG(width, height, depth, colour int) []byte {
	var out bytes.Buffer
	pngHeader(&out, width, height, depth, colour)
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, pngRowBytes(width, depth, colour))
	for range height {
		z.Write(row)
	}
	z.Close()
	// Chunks of at most 1 MiB, as encoders write them.
	b := idat.Bytes()
	for len(b) > 0 {
		n := min(len(b), 1<<20)
		pngChunk(&out, "IDAT", b[:n])
		b = b[n:]
	}
	pngChunk(&out, "IEND", nil)
	return out.Bytes()
}

// PNGHeader returns a PNG whose header declares width×height but whose
// image data is only idatBytes long (the start of a zlib stream of zero
// rows, padded with stored zero bytes): enough for any plausibility test
// of size against data, cheap to build at any size, and refused or
// failing partway through when decoded.
func PNGHeader(width, height, depth, colour, idatBytes int) []byte {
	var out bytes.Buffer
	pngHeader(&out, width, height, depth, colour)
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.NoCompression)
	z.Write(make([]byte, idatBytes))
	z.Flush()
	b := idat.Bytes()
	if len(b) > idatBytes {
		b = b[:idatBytes]
	}
	pngChunk(&out, "IDAT", b)
	pngChunk(&out, "IEND", nil)
	return out.Bytes()
}
