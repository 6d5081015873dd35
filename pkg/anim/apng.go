package anim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"io"

	"github.com/mdxrender/mdxrender/internal/pngenc"
)

// EncodeAPNG writes frames as a looping APNG with full 8-bit alpha. Each
// frame covers the whole canvas and replaces it (blend op SOURCE), so
// translucent pixels do not accumulate. The first frame is the default
// image, so viewers without APNG support show it. durations are in ms.
//
// The chunks are written here rather than with a third-party encoder: each
// frame is compressed by image/png and its IDAT payload re-wrapped as fdAT,
// which keeps the output deterministic and the dependency list short.
func EncodeAPNG(w io.Writer, frames []*image.NRGBA, durations []uint32) error {
	if err := checkCounts("apng", frames, durations); err != nil {
		return err
	}
	b := frames[0].Bounds()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	seq := uint32(0)
	for i, f := range frames {
		if f.Bounds().Size() != b.Size() {
			return fmt.Errorf("apng: frame %d is %v, frame 0 is %v", i, f.Bounds().Size(), b.Size())
		}
		var buf bytes.Buffer
		// Every frame must share the IHDR colour type, so even a fully
		// opaque frame is written with its alpha channel.
		if err := pngenc.EncodeRGBA(&buf, f); err != nil {
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
