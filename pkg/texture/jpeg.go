package texture

import (
	"bytes"
	"encoding/binary"
)

// jpegFrame is what the markers of a JPEG stream say before any pixel is
// decoded: the frame (SOF) header and the scans (SOS) that follow. It is
// read by walking the segments, so a stream's cost is known before
// image/jpeg allocates anything.
type jpegFrame struct {
	width, height int
	comps         int
	h, v          [4]int // sampling factors per component
	ids           [4]byte
	progressive   bool
	scans         int
	// eoi: the stream has its end-of-image marker. image/jpeg reads
	// markers until it finds one, so a stream without it cannot decode.
	eoi bool
	// blockVisits is the number of 8×8 blocks image/jpeg walks over all
	// scans: it walks every MCU of the frame once per scan, whatever
	// the scan's data says, so a stream of a few kilobytes with many
	// scans costs as much time as that many full decodes.
	blockVisits int64
}

// JPEG markers that matter here.
const (
	jpegSOI = 0xd8
	jpegEOI = 0xd9
	jpegSOS = 0xda
)

// isSOF reports whether m starts a frame: SOF0-SOF15 except DHT (C4), JPG
// (C8) and DAC (CC).
func isSOF(m byte) bool {
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc
}

// parseJPEGFrame walks the segments of a JPEG stream and returns its frame
// header and scan count. It is as liberal as image/jpeg about bytes
// between segments; a stream that ends early is returned as far as it
// goes (the decoder reports the truncation). Only the structure needed to
// bound the decode is checked: one frame, before the first scan, with
// 1, 3 or 4 components whose sampling factors are 1 to 4.
func parseJPEGFrame(b []byte) (jpegFrame, *FormatError) {
	var f jpegFrame
	if len(b) < 2 || b[0] != 0xff || b[1] != jpegSOI {
		return f, errAt("JPEG", -1, 0, "missing SOI marker")
	}
	i := 2
	for {
		// Skip to the next marker, then past fill bytes.
		j := bytes.IndexByte(b[i:], 0xff)
		if j < 0 {
			return f, nil
		}
		i += j
		for i < len(b) && b[i] == 0xff {
			i++
		}
		if i >= len(b) {
			return f, nil
		}
		m := b[i]
		i++
		switch {
		case m == jpegEOI:
			f.eoi = true
			return f, nil
		case m == 0 || m == 0x01 || m == jpegSOI || (m >= 0xd0 && m <= 0xd7):
			continue // stuffing, TEM, SOI, RSTn: no length
		}
		if i+2 > len(b) {
			return f, nil
		}
		n := int(binary.BigEndian.Uint16(b[i:]))
		if n < 2 {
			return f, errAt("JPEG", -1, int64(i), "segment length %d is too short", n)
		}
		end := i + n
		if end > len(b) {
			return f, nil
		}
		seg := b[i+2 : end]
		switch {
		case isSOF(m):
			if f.comps != 0 {
				return f, errAt("JPEG", -1, int64(i-2), "more than one frame header")
			}
			if err := f.parseSOF(m, seg, int64(i-2)); err != nil {
				return f, err
			}
		case m == jpegSOS:
			if f.comps == 0 {
				return f, errAt("JPEG", -1, int64(i-2), "scan before the frame header")
			}
			f.scans++
			f.blockVisits += f.scanBlocks(seg)
			end = skipEntropyData(b, end)
		}
		i = end
	}
}

func (f *jpegFrame) parseSOF(m byte, seg []byte, off int64) *FormatError {
	if len(seg) < 6 {
		return errAt("JPEG", -1, off, "frame header of %d bytes is too short", len(seg))
	}
	f.height = int(binary.BigEndian.Uint16(seg[1:]))
	f.width = int(binary.BigEndian.Uint16(seg[3:]))
	f.comps = int(seg[5])
	f.progressive = m == 0xc2 || m == 0xc6 || m == 0xca || m == 0xce
	if f.comps != 1 && f.comps != 3 && f.comps != 4 {
		return errAt("JPEG", -1, off, "frame has %d components", f.comps)
	}
	if len(seg) < 6+3*f.comps {
		return errAt("JPEG", -1, off, "frame header of %d bytes is too short for %d components", len(seg), f.comps)
	}
	if f.width == 0 || f.height == 0 {
		return errAt("JPEG", -1, off, "frame size %dx%d", f.width, f.height)
	}
	for c := range f.comps {
		hv := seg[7+3*c]
		f.ids[c] = seg[6+3*c]
		f.h[c], f.v[c] = int(hv>>4), int(hv&15)
		if f.h[c] < 1 || f.h[c] > 4 || f.v[c] < 1 || f.v[c] > 4 {
			return errAt("JPEG", -1, off, "component %d has sampling factors %dx%d", c, f.h[c], f.v[c])
		}
		if f.comps == 1 {
			f.h[c], f.v[c] = 1, 1 // one component is never interleaved
		}
	}
	return nil
}

// mcus returns the frame's MCU count as image/jpeg computes it, from the
// first component's sampling factors.
func (f *jpegFrame) mcus() int64 {
	mx := (f.width + 8*f.h[0] - 1) / (8 * f.h[0])
	my := (f.height + 8*f.v[0] - 1) / (8 * f.v[0])
	return int64(mx) * int64(my)
}

// scanBlocks is the number of blocks image/jpeg visits for one scan: every
// MCU, and in each the blocks of the scan's components. Components the
// frame does not have count as the largest one, to stay an upper bound.
func (f *jpegFrame) scanBlocks(seg []byte) int64 {
	if len(seg) < 1 {
		return 0
	}
	ns := min(int(seg[0]), 4, (len(seg)-1)/2)
	per := int64(0)
	for k := range ns {
		hv := int64(16)
		for c := range f.comps {
			if f.ids[c] == seg[1+2*k] {
				hv = int64(f.h[c] * f.v[c])
			}
		}
		per += hv
	}
	return f.mcus() * max(per, 1)
}

// skipEntropyData returns the offset of the first marker after the
// entropy-coded data starting at i: a 0xFF not followed by a stuffed zero
// or a restart marker.
func skipEntropyData(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], 0xff)
		if j < 0 {
			return len(b)
		}
		i += j
		if i+1 >= len(b) {
			return len(b)
		}
		if c := b[i+1]; c == 0 || (c >= 0xd0 && c <= 0xd7) {
			i += 2
			continue
		}
		return i // a marker, or fill bytes before one
	}
}

// samples returns the number of samples image/jpeg allocates for the frame:
// each component padded to whole MCUs.
func (f *jpegFrame) samples() int64 {
	mcus := f.mcus()
	var n int64
	for c := range f.comps {
		n += mcus * int64(f.h[c]*f.v[c]) * 64
	}
	return n
}

// decodeBytes estimates the memory image/jpeg holds at once while decoding
// the frame: one byte per sample for the planes, four more per sample for
// a progressive frame's coefficients, and the converted picture (four
// bytes per pixel) that three- and four-component frames are turned into.
func (f *jpegFrame) decodeBytes() int64 {
	n := f.samples()
	if f.progressive {
		n *= 5
	}
	if f.comps > 1 {
		n += 4 * int64(f.width) * int64(f.height)
	}
	return n
}
