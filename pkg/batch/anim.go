package batch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"sort"
)

// EncodeGIF writes frames as a looping animated GIF. GIF has 256 colours
// and 1-bit transparency, so pixels with alpha < 128 become transparent and
// the rest are opaque; the palette is a median cut over all frames (one
// global palette, so colours do not flicker between frames) and frames are
// Floyd-Steinberg dithered. durations are in ms; they are rounded to GIF's
// 10 ms unit cumulatively, so the total stays right. Output is deterministic.
func EncodeGIF(w io.Writer, frames []*image.NRGBA, durations []uint32) error {
	if len(frames) == 0 || len(frames) != len(durations) {
		return fmt.Errorf("gif: %d frames, %d durations", len(frames), len(durations))
	}
	b := frames[0].Bounds()
	opaque := make([]*image.NRGBA, len(frames))
	for i, f := range frames {
		if f.Bounds() != b {
			return fmt.Errorf("gif: frame %d is %v, frame 0 is %v", i, f.Bounds(), b)
		}
		opaque[i] = thresholdAlpha(f)
	}
	pal := medianCut(opaque, 255)
	pal = append(color.Palette{color.NRGBA{}}, pal...) // index 0: transparent
	g := &gif.GIF{LoopCount: 0, Config: image.Config{ColorModel: pal, Width: b.Dx(), Height: b.Dy()}}
	var cum, prev uint64
	for i, f := range opaque {
		p := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), pal)
		draw.FloydSteinberg.Draw(p, p.Bounds(), f, b.Min)
		cum += uint64(durations[i])
		next := (cum + 5) / 10
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, int(next-prev))
		g.Disposal = append(g.Disposal, gif.DisposalBackground)
		prev = next
	}
	return gif.EncodeAll(w, g)
}

// thresholdAlpha returns a copy with alpha forced to 0 or 255; transparent
// pixels become (0,0,0,0) so they match the palette's transparent entry
// exactly and diffuse no error.
func thresholdAlpha(src *image.NRGBA) *image.NRGBA {
	dst := image.NewNRGBA(src.Bounds())
	for y := 0; y < src.Rect.Dy(); y++ {
		s := src.Pix[y*src.Stride : y*src.Stride+4*src.Rect.Dx()]
		d := dst.Pix[y*dst.Stride : y*dst.Stride+4*dst.Rect.Dx()]
		for x := 0; x+3 < len(s); x += 4 {
			if s[x+3] >= 128 {
				d[x], d[x+1], d[x+2], d[x+3] = s[x], s[x+1], s[x+2], 255
			}
		}
	}
	return dst
}

// colorBox is a median-cut box over a histogram of 5-bit-per-channel colours.
type colorBox struct {
	cols []histColor
	n    uint64
}

type histColor struct {
	c     [3]uint8 // 5-bit channel values
	count uint64
	sum   [3]uint64 // sums of 8-bit values, for the box average
}

// medianCut builds a palette of at most max opaque colours from the opaque
// pixels of the frames. Ties are broken by fixed orders, so the palette is
// a pure function of the pixels.
func medianCut(frames []*image.NRGBA, maxColors int) color.Palette {
	hist := map[[3]uint8]*histColor{}
	for _, f := range frames {
		for y := 0; y < f.Rect.Dy(); y++ {
			row := f.Pix[y*f.Stride : y*f.Stride+4*f.Rect.Dx()]
			for x := 0; x+3 < len(row); x += 4 {
				if row[x+3] == 0 {
					continue
				}
				k := [3]uint8{row[x] >> 3, row[x+1] >> 3, row[x+2] >> 3}
				h := hist[k]
				if h == nil {
					h = &histColor{c: k}
					hist[k] = h
				}
				h.count++
				h.sum[0] += uint64(row[x])
				h.sum[1] += uint64(row[x+1])
				h.sum[2] += uint64(row[x+2])
			}
		}
	}
	if len(hist) == 0 {
		return color.Palette{color.NRGBA{0, 0, 0, 255}}
	}
	all := make([]histColor, 0, len(hist))
	for _, h := range hist {
		all = append(all, *h)
	}
	sort.Slice(all, func(i, j int) bool { return less3(all[i].c, all[j].c) })
	boxes := []colorBox{newBox(all)}
	for len(boxes) < maxColors {
		// split the box with the most pixels that can be split
		bi := -1
		for i, b := range boxes {
			if len(b.cols) > 1 && (bi < 0 || b.n > boxes[bi].n) {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		a, c := boxes[bi].split()
		boxes[bi] = a
		boxes = append(boxes, c)
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, b := range boxes {
		var s [3]uint64
		for _, h := range b.cols {
			for k := 0; k < 3; k++ {
				s[k] += h.sum[k]
			}
		}
		pal = append(pal, color.NRGBA{uint8((s[0] + b.n/2) / b.n), uint8((s[1] + b.n/2) / b.n), uint8((s[2] + b.n/2) / b.n), 255})
	}
	return pal
}

func less3(a, b [3]uint8) bool {
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	if a[1] != b[1] {
		return a[1] < b[1]
	}
	return a[2] < b[2]
}

func newBox(cols []histColor) colorBox {
	b := colorBox{cols: cols}
	for _, h := range cols {
		b.n += h.count
	}
	return b
}

// split cuts the box at the pixel median of its widest channel.
func (b colorBox) split() (colorBox, colorBox) {
	lo, hi := [3]uint8{255, 255, 255}, [3]uint8{}
	for _, h := range b.cols {
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], h.c[k])
			hi[k] = max(hi[k], h.c[k])
		}
	}
	ch := 0
	for k := 1; k < 3; k++ {
		if hi[k]-lo[k] > hi[ch]-lo[ch] {
			ch = k
		}
	}
	cols := append([]histColor(nil), b.cols...)
	sort.SliceStable(cols, func(i, j int) bool {
		if cols[i].c[ch] != cols[j].c[ch] {
			return cols[i].c[ch] < cols[j].c[ch]
		}
		return less3(cols[i].c, cols[j].c)
	})
	var acc uint64
	cut := 1
	for i, h := range cols {
		acc += h.count
		if acc*2 >= b.n {
			cut = i + 1
			break
		}
	}
	if cut >= len(cols) {
		cut = len(cols) - 1
	}
	return newBox(cols[:cut]), newBox(cols[cut:])
}

// EncodeAPNG writes frames as a looping APNG with full 8-bit alpha. Each
// frame covers the whole canvas and replaces it (blend op SOURCE), so
// translucent pixels do not accumulate. The first frame is the default
// image, so viewers without APNG support show it. durations are in ms.
//
// The chunks are written here rather than with a third-party encoder: each
// frame is compressed by image/png and its IDAT payload re-wrapped as fdAT,
// which keeps the output deterministic and the dependency list short.
func EncodeAPNG(w io.Writer, frames []*image.NRGBA, durations []uint32) error {
	if len(frames) == 0 || len(frames) != len(durations) {
		return fmt.Errorf("apng: %d frames, %d durations", len(frames), len(durations))
	}
	b := frames[0].Bounds()
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	seq := uint32(0)
	for i, f := range frames {
		if f.Bounds().Size() != b.Size() {
			return fmt.Errorf("apng: frame %d is %v, frame 0 is %v", i, f.Bounds().Size(), b.Size())
		}
		var buf bytes.Buffer
		// A fully opaque frame would be encoded as RGB by image/png; every
		// frame must share the IHDR colour type, so force alpha through.
		if err := enc.Encode(&buf, withAlphaChannel(f)); err != nil {
			return fmt.Errorf("apng: frame %d: %w", i, err)
		}
		chunks, err := readChunks(buf.Bytes())
		if err != nil {
			return fmt.Errorf("apng: frame %d: %w", i, err)
		}
		if i == 0 {
			for _, c := range chunks {
				if c.typ == "IHDR" {
					writeChunk(&out, "IHDR", c.data)
				}
			}
			actl := make([]byte, 8)
			binary.BigEndian.PutUint32(actl[0:], uint32(len(frames)))
			binary.BigEndian.PutUint32(actl[4:], 0) // loop forever
			writeChunk(&out, "acTL", actl)
		}
		fctl := make([]byte, 26)
		binary.BigEndian.PutUint32(fctl[0:], seq)
		seq++
		binary.BigEndian.PutUint32(fctl[4:], uint32(b.Dx()))
		binary.BigEndian.PutUint32(fctl[8:], uint32(b.Dy()))
		// x, y offsets 0; delay as ms/1000, exact up to 65535 ms
		d := durations[i]
		num, den := d, uint32(1000)
		if num > 65535 {
			num, den = (d+5)/10, 100
			if num > 65535 {
				num = 65535
			}
		}
		binary.BigEndian.PutUint16(fctl[20:], uint16(num))
		binary.BigEndian.PutUint16(fctl[22:], uint16(den))
		fctl[24] = 0 // dispose op NONE
		fctl[25] = 0 // blend op SOURCE
		writeChunk(&out, "fcTL", fctl)
		for _, c := range chunks {
			if c.typ != "IDAT" {
				continue
			}
			if i == 0 {
				writeChunk(&out, "IDAT", c.data)
				continue
			}
			fd := make([]byte, 4+len(c.data))
			binary.BigEndian.PutUint32(fd, seq)
			seq++
			copy(fd[4:], c.data)
			writeChunk(&out, "fdAT", fd)
		}
	}
	writeChunk(&out, "IEND", nil)
	_, err := w.Write(out.Bytes())
	return err
}

// withAlphaChannel returns an image image/png encodes as 8-bit RGBA even if
// it is opaque: image/png picks RGB for opaque images, which would change
// the colour type between frames.
func withAlphaChannel(f *image.NRGBA) image.Image {
	return nonOpaque{f}
}

type nonOpaque struct{ *image.NRGBA }

func (nonOpaque) Opaque() bool { return false }

type pngChunk struct {
	typ  string
	data []byte
}

func readChunks(b []byte) ([]pngChunk, error) {
	if len(b) < 8 || string(b[:8]) != "\x89PNG\r\n\x1a\n" {
		return nil, errors.New("not a PNG")
	}
	b = b[8:]
	var out []pngChunk
	for len(b) >= 12 {
		n := binary.BigEndian.Uint32(b)
		if uint64(n)+12 > uint64(len(b)) {
			return nil, errors.New("truncated chunk")
		}
		out = append(out, pngChunk{string(b[4:8]), b[8 : 8+n]})
		b = b[12+n:]
	}
	return out, nil
}

func writeChunk(w *bytes.Buffer, typ string, data []byte) {
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(data)))
	copy(hdr[4:], typ)
	w.Write(hdr[:])
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(hdr[4:8])
	crc.Write(data)
	var c [4]byte
	binary.BigEndian.PutUint32(c[:], crc.Sum32())
	w.Write(c[:])
}
