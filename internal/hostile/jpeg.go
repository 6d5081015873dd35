package hostile

import (
	"bytes"
	"encoding/binary"
)

// jpegWriter assembles a JPEG stream segment by segment.
type jpegWriter struct{ bytes.Buffer }

func (w *jpegWriter) marker(m byte) { w.Write([]byte{0xff, m}) }

func (w *jpegWriter) segment(m byte, body []byte) {
	w.marker(m)
	var n [2]byte
	binary.BigEndian.PutUint16(n[:], uint16(len(body)+2))
	w.Write(n[:])
	w.Write(body)
}

// tables writes a quantisation table of ones and two Huffman tables that
// make every block cheap to code: DC table 0 has one 1-bit code, for
// category 0 (no change); AC table 0 has one 1-bit code, for symbol sym
// (0x00, end of block, for baseline; 0xE0, a run of 2^14+ blocks, for
// progressive AC scans).
func (w *jpegWriter) tables(acSym byte) {
	dqt := make([]byte, 65)
	for i := 1; i < 65; i++ {
		dqt[i] = 1
	}
	w.segment(0xdb, dqt)
	dc := []byte{0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	w.segment(0xc4, dc)
	ac := []byte{0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, acSym}
	w.segment(0xc4, ac)
}

// start writes the start of image, the tables (acSym as for tables) and
// a frame header of kind sof, and returns the frame's component indices,
// for a scan of all of them.
func (w *jpegWriter) start(sof, acSym byte, width, height, comps int) []int {
	w.marker(0xd8)
	w.tables(acSym)
	w.frame(sof, width, height, comps)
	all := make([]int, comps)
	for c := range all {
		all[c] = c
	}
	return all
}

func (w *jpegWriter) frame(sof byte, width, height, comps int) {
	body := []byte{8, byte(height >> 8), byte(height), byte(width >> 8), byte(width), byte(comps)}
	for c := range comps {
		body = append(body, byte(c+1), 0x11, 0)
	}
	w.segment(sof, body)
}

func (w *jpegWriter) scan(comps []int, ss, se byte) {
	body := []byte{byte(len(comps))}
	for _, c := range comps {
		body = append(body, byte(c+1), 0x00)
	}
	body = append(body, ss, se, 0)
	w.segment(0xda, body)
}

// zeroBits writes n zero bits of entropy-coded data, padded with ones.
func (w *jpegWriter) zeroBits(n int64) {
	full := n / 8
	w.Write(make([]byte, full))
	if n%8 != 0 {
		w.WriteByte(0xff >> (n % 8)) // never 0xFF, so nothing to stuff
	}
}

func blocks(width, height int) int64 {
	return int64((width+7)/8) * int64((height+7)/8)
}

// BaselineJPEG returns a baseline JPEG of a flat grey picture with comps
// (1, 3 or 4) components, none subsampled, and no Adobe marker (as BLP1
// stores them): two bits per block and component, so a stream whose frame
// claims 8192×8192 is a few megabytes yet passes any bytes-per-pixel
// plausibility test.
func BaselineJPEG(width, height, comps int) []byte {
	return SequentialJPEG(width, height, comps, 1)
}

// SequentialJPEG is BaselineJPEG with its one interleaved scan repeated
// scans times: invalid (a sequential frame codes each component once), but
// a lenient decoder decodes every block again for each copy.
func SequentialJPEG(width, height, comps, scans int) []byte {
	var w jpegWriter
	all := w.start(0xc0, 0x00, width, height, comps)
	for range scans {
		w.scan(all, 0, 63)
		// Per block and component: DC category 0 ("0"), then end of
		// block ("0").
		w.zeroBits(2 * int64(comps) * blocks(width, height))
	}
	w.marker(0xd9)
	return w.Bytes()
}

// ProgressiveJPEG returns a progressive JPEG with the given number of
// scans: one interleaved DC scan (one bit per block and component), then
// scans-1 AC scans, one component each in turn, that code every block as
// part of end-of-band runs of 2^14 blocks. Each AC scan is a few bytes,
// yet a decoder walks every block of the frame for it.
func ProgressiveJPEG(width, height, comps, scans int) []byte {
	var w jpegWriter
	all := w.start(0xc2, 0xe0, width, height, comps)
	w.scan(all, 0, 0)
	w.zeroBits(int64(comps) * blocks(width, height))
	runs := (blocks(width, height) + 1<<14 - 1) >> 14
	for s := 1; s < scans; s++ {
		w.scan([]int{(s - 1) % comps}, 1, 63)
		// EOB14: the 1-bit code "0", then 14 extra bits 0 (a run of
		// exactly 2^14 blocks); runs past the last block are ignored.
		w.zeroBits(15 * runs)
	}
	w.marker(0xd9)
	return w.Bytes()
}

// SplitJPEG cuts a stream before its first scan, the way a BLP1 keeps
// the part its levels share (tables, frame) apart from each level's scans.
func SplitJPEG(stream []byte) (header, rest []byte) {
	i := bytes.Index(stream, []byte{0xff, 0xda})
	if i < 0 {
		return stream, nil
	}
	return stream[:i], stream[i:]
}

// Repeat returns n references to s, for a BLP whose levels all carry the
// same stream.
func Repeat(s []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// BLP1Streams wraps whole JPEG streams as the levels of a BLP1 of
// width×height: when they all share the part before their first scan,
// that is the BLP's shared header and each level keeps the rest;
// otherwise each level keeps its whole stream after an empty header.
func BLP1Streams(width, height int, streams ...[]byte) []byte {
	header, _ := SplitJPEG(streams[0])
	levels := make([][]byte, len(streams))
	for i, s := range streams {
		h, rest := SplitJPEG(s)
		if !bytes.Equal(h, header) {
			return BLP1JPEG(width, height, 8, nil, streams)
		}
		levels[i] = rest
	}
	return BLP1JPEG(width, height, 8, header, levels)
}

// BLP1JPEG wraps a shared JPEG header and per-level JPEG data in a BLP1
// whose header declares width×height, alphaBits and (when there is more
// than one level) mip levels.
func BLP1JPEG(width, height int, alphaBits uint32, header []byte, levels [][]byte) []byte {
	le := binary.LittleEndian
	hdr := make([]byte, 156)
	copy(hdr, "BLP1")
	le.PutUint32(hdr[4:], 0) // JPEG content
	le.PutUint32(hdr[8:], alphaBits)
	le.PutUint32(hdr[12:], uint32(width))
	le.PutUint32(hdr[16:], uint32(height))
	le.PutUint32(hdr[20:], 5)
	if len(levels) > 1 {
		le.PutUint32(hdr[24:], 1)
	}
	off := 156 + 4 + len(header)
	for i, l := range levels {
		le.PutUint32(hdr[28+4*i:], uint32(off))
		le.PutUint32(hdr[92+4*i:], uint32(len(l)))
		off += len(l)
	}
	out := append(hdr, 0, 0, 0, 0)
	le.PutUint32(out[156:], uint32(len(header)))
	out = append(out, header...)
	for _, l := range levels {
		out = append(out, l...)
	}
	return out
}
