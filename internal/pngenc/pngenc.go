// Package pngenc is the one PNG encoder setting every picture this module
// writes goes through, so that the library, the batch and the command
// line give the same bytes for the same picture.
//
// Pictures (*image.NRGBA, which is what the renderer makes) are written
// by a small encoder of its own: the Up filter on every row and deflate
// at BestSpeed. image/png's default, which tries all five filters on
// every row and compresses at level 6, cost a sixth of a whole-corpus
// batch; this setting is about four times faster for files about a tenth
// larger (docs/performance.md). The deflate is klauspost/compress's
// rather than the standard library's: on the corpus thumbnails it takes
// two thirds of the time for files 1-2 % larger, and half the time on a
// picture full of soft glow. Its version is pinned, so the bytes do not
// change under us. Like image/png, an opaque
// picture is written as RGB and any other as RGBA, 8 bits a channel.
// Other image types go through image/png as before.
package pngenc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/flate"
)

var encoder = png.Encoder{CompressionLevel: png.DefaultCompression}

// Encode writes img as PNG.
func Encode(w io.Writer, img image.Image) error {
	if n, ok := img.(*image.NRGBA); ok {
		return encodeNRGBA(w, n, !opaque(n))
	}
	return encoder.Encode(w, img)
}

// opaque is image.NRGBA's Opaque, eight bytes at a time (the alpha bytes
// of two pixels) rather than one alpha byte per loop.
func opaque(img *image.NRGBA) bool {
	r := img.Rect
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):][:4*r.Dx()]
		for ; len(row) >= 8; row = row[8:] {
			if binary.LittleEndian.Uint64(row)&0xff000000ff000000 != 0xff000000ff000000 {
				return false
			}
		}
		if len(row) == 4 && row[3] != 0xff {
			return false
		}
	}
	return true
}

// EncodeRGBA writes img as an RGBA PNG even when it is opaque (the frames
// of an APNG share one colour type).
func EncodeRGBA(w io.Writer, img *image.NRGBA) error { return encodeNRGBA(w, img, true) }

// Bytes returns img encoded as PNG.
func Bytes(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := Encode(&b, img)
	return b.Bytes(), err
}

const (
	filterUp = 2
	// idatMax bounds one IDAT chunk, as image/png's buffer does, so a
	// picture of any size is written in chunks well within the format's
	// 2³¹−1.
	idatMax = 1 << 16
)

// state is what one encoding reuses: the output and deflate writers and
// the row buffers.
type state struct {
	bw        *bufio.Writer
	fw        *flate.Writer
	idat      idatWriter
	cur, prev []byte
	out       []byte // a filtered row: filter byte, then the differences
}

// states keeps encoders' states between encodings. A state is close to a
// megabyte (the deflate writer's tables and history), so it is kept
// across garbage collections, which a sync.Pool is not: thumbnails made
// one after another collect often, and the pool then lost its state to
// nearly every other encoding, which allocated and cleared a new one. At
// most GOMAXPROCS states are kept; more encodings at once make theirs and
// drop them after.
var states = struct {
	sync.Mutex
	free []*state
}{}

func getState() *state {
	states.Lock()
	defer states.Unlock()
	if n := len(states.free); n > 0 {
		s := states.free[n-1]
		states.free = states.free[:n-1]
		return s
	}
	fw, _ := flate.NewWriter(nil, flate.BestSpeed)
	return &state{bw: bufio.NewWriterSize(io.Discard, idatMax+12), fw: fw}
}

func putState(s *state) {
	s.bw.Reset(io.Discard) // no hold on the last writer
	states.Lock()
	defer states.Unlock()
	if len(states.free) < runtime.GOMAXPROCS(0) {
		states.free = append(states.free, s)
	}
}

func encodeNRGBA(w io.Writer, img *image.NRGBA, alpha bool) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	if width <= 0 || height <= 0 || int64(width) >= 1<<31 || int64(height) >= 1<<31 {
		return png.FormatError("invalid image size: " + b.String())
	}
	s := getState()
	defer putState(s)
	bw := s.bw
	bw.Reset(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8] = 8 // bits per channel
	ihdr[9] = 2 // RGB
	bpp := 3
	if alpha {
		ihdr[9], bpp = 6, 4 // RGBA
	}
	writeChunk(bw, "IHDR", ihdr[:])

	n := width * bpp
	if cap(s.cur) < n {
		s.cur, s.prev, s.out = make([]byte, n), make([]byte, n), make([]byte, n+1)
	}
	cur, prev, out := s.cur[:n], s.prev[:n], s.out[:n+1]
	clear(prev)
	s.idat = idatWriter{w: bw, buf: s.idat.buf[:0]}
	// The zlib wrapper is written here (header, Adler-32 trailer) so the
	// deflate writer can be reused through Reset.
	s.idat.Write([]byte{0x78, 0x01})
	s.fw.Reset(&s.idat)
	sum := newAdler()
	out[0] = filterUp
	for y := range height {
		row := img.Pix[y*img.Stride:] // a sub-image's Pix starts at its corner
		if alpha {
			copy(cur, row[:n])
		} else {
			packRGB(cur, row[:4*width])
		}
		upFilter(out[1:], cur, prev)
		sum.write(out)
		if _, err := s.fw.Write(out); err != nil {
			return err
		}
		cur, prev = prev, cur
	}
	if err := s.fw.Close(); err != nil {
		return err
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum.sum())
	s.idat.Write(tail[:])
	s.idat.flush()
	writeChunk(bw, "IEND", nil)
	return bw.Flush() // bufio keeps the first write error
}

// idatWriter cuts the zlib stream into IDAT chunks.
type idatWriter struct {
	w   *bufio.Writer
	buf []byte
}

func (d *idatWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), idatMax-len(d.buf))
		d.buf = append(d.buf, p[:k]...)
		p = p[k:]
		if len(d.buf) == idatMax {
			d.flush()
		}
	}
	return n, nil
}

func (d *idatWriter) flush() {
	if len(d.buf) > 0 {
		writeChunk(d.w, "IDAT", d.buf)
		d.buf = d.buf[:0]
	}
}

func writeChunk(w *bufio.Writer, typ string, data []byte) {
	var h [8]byte
	binary.BigEndian.PutUint32(h[:4], uint32(len(data)))
	copy(h[4:], typ)
	w.Write(h[:])
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(h[4:])
	crc.Write(data)
	binary.BigEndian.PutUint32(h[:4], crc.Sum32())
	w.Write(h[:4])
}

// upFilter sets d[i] = cur[i] − prev[i] (mod 256), eight bytes at a time:
// the per-byte loop was a third of the encoder's own time.
func upFilter(d, cur, prev []byte) {
	const hi = 0x8080808080808080
	n := min(len(d), len(cur), len(prev))
	d, cur, prev = d[:n], cur[:n], prev[:n] // one length: no bounds checks below
	i := 0
	for ; i+8 <= n; i += 8 {
		a := binary.LittleEndian.Uint64(cur[i : i+8])
		b := binary.LittleEndian.Uint64(prev[i : i+8])
		// Subtract the low seven bits of every byte with its top bit set
		// in a, so that no borrow crosses into the next byte, then put
		// the top bits right.
		binary.LittleEndian.PutUint64(d[i:i+8], ((a|hi)-(b&^hi))^((a^^b)&hi))
	}
	for ; i < n; i++ {
		d[i] = cur[i] - prev[i]
	}
}

// packRGB copies the R, G, B of every RGBA pixel of src to dst, three
// bytes per pixel: four pixels at a time as two 64-bit loads and a 64-bit
// and a 32-bit store, then a four-byte store per pixel whose fourth byte
// the next pixel overwrites, the last pixel byte by byte.
func packRGB(dst, src []byte) {
	n := len(src) / 4
	if n == 0 {
		return
	}
	dst, src = dst[:3*n], src[:4*n]
	x := 0
	for ; x+4 <= n; x += 4 {
		s, d := src[4*x:4*x+16], dst[3*x:3*x+12]
		a := binary.LittleEndian.Uint64(s)     // pixels 0 and 1
		b := binary.LittleEndian.Uint64(s[8:]) // pixels 2 and 3
		binary.LittleEndian.PutUint64(d, a&0xffffff|a>>8&0xffffff000000|b<<48)
		binary.LittleEndian.PutUint32(d[8:], uint32(b>>16&0xff|b>>24&0xffffff00))
	}
	for ; x < n-1; x++ {
		binary.LittleEndian.PutUint32(dst[3*x:], binary.LittleEndian.Uint32(src[4*x:]))
	}
	if x == n-1 {
		dst[3*x], dst[3*x+1], dst[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
	}
}
