package mpq

import (
	"bytes"
	"compress/bzip2"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Compression names how one sector (or a single-unit file) is stored: one of
// the method bytes Storm writes at the start of a compressed sector, or
// Stored for a sector kept as it is, or Imploded for the older IMPLODE flag
// (PKWARE DCL without a method byte).
type Compression uint16

// The compression bytes (they combine as bit masks) and the two encodings
// that have none.
const (
	CompressionHuffman     Compression = 0x01
	CompressionZlib        Compression = 0x02
	CompressionPKWare      Compression = 0x08
	CompressionBzip2       Compression = 0x10
	CompressionSparse      Compression = 0x20
	CompressionADPCMMono   Compression = 0x40
	CompressionADPCMStereo Compression = 0x80

	Stored   Compression = 0x100 // a sector kept uncompressed
	Imploded Compression = 0x200 // the IMPLODE block flag: PKWARE DCL with no method byte
	// CompressionLZMA is byte 0x12 in a format 2 or later archive; in
	// format 1 the same byte means bzip2 then zlib.
	CompressionLZMA Compression = 0x400
)

// lzmaByte is how LZMA is written in a sector.
const lzmaByte = 0x12

var methodNames = []struct {
	bit  Compression
	name string
}{
	// In the order the methods are undone when several are combined.
	{CompressionBzip2, "bzip2"},
	{CompressionPKWare, "pkware"},
	{CompressionZlib, "zlib"},
	{CompressionHuffman, "huffman"},
	{CompressionADPCMStereo, "adpcm-stereo"},
	{CompressionADPCMMono, "adpcm-mono"},
	{CompressionSparse, "sparse"},
}

// String gives the method's name, with "+" between combined methods (in
// the order they are undone), e.g. "huffman+adpcm-mono" for 0x41.
func (c Compression) String() string {
	switch c {
	case Stored:
		return "stored"
	case Imploded:
		return "implode"
	case CompressionLZMA:
		return "lzma"
	}
	var parts []string
	rest := c
	for _, m := range methodNames {
		if c&m.bit != 0 {
			parts = append(parts, m.name)
			rest &^= m.bit
		}
	}
	if rest != 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("unknown(%#02x)", uint16(c)))
	}
	return strings.Join(parts, "+")
}

// methodError is a decompression failure before the caller adds the
// archive, file and offset.
type methodError struct {
	method      Compression
	unsupported bool
	reason      string
}

func (e *methodError) Error() string { return e.method.String() + ": " + e.reason }

// stage decompresses src into dst (len(dst) is the capacity) and returns
// the number of bytes produced.
type stage func(dst, src []byte) (int, error)

// decompressGeneric undoes the method mask at src[0] the way format-1
// archives are read: every bit names a method, undone in a fixed order.
func decompressGeneric(dst, src []byte) (int, error) {
	mask, names, err := stagesGeneric(src[0])
	if err != nil {
		return 0, err
	}
	return runStages(dst, src[1:], mask, names)
}

// decompressFixed undoes the compression byte at src[0] the way format 2
// and later archives are read: only a fixed set of bytes is valid there,
// and 0x12 means LZMA.
func decompressFixed(dst, src []byte) (int, error) {
	mask, names, err := stagesFixed(src[0])
	if err != nil {
		return 0, err
	}
	return runStages(dst, src[1:], mask, names)
}

// stagesGeneric lists the methods a format-1 method mask names, in the
// order they are undone.
func stagesGeneric(b byte) (Compression, []Compression, error) {
	mask := Compression(b)
	var names []Compression
	rest := mask
	for _, m := range methodNames {
		if mask&m.bit != 0 {
			rest &^= m.bit
			names = append(names, m.bit)
		}
	}
	if rest != 0 || len(names) == 0 {
		return mask, nil, &methodError{method: mask, reason: fmt.Sprintf("unknown compression byte %#02x", b)}
	}
	return mask, names, nil
}

// stagesFixed lists the methods a format-2+ compression byte names, in the
// order they are undone.
func stagesFixed(b byte) (Compression, []Compression, error) {
	mask := Compression(b)
	switch mask {
	case lzmaByte:
		return CompressionLZMA, []Compression{CompressionLZMA}, nil
	case CompressionZlib, CompressionPKWare, CompressionBzip2, CompressionSparse:
		return mask, []Compression{mask}, nil
	case CompressionSparse | CompressionZlib:
		return mask, []Compression{CompressionZlib, CompressionSparse}, nil
	case CompressionSparse | CompressionBzip2:
		return mask, []Compression{CompressionBzip2, CompressionSparse}, nil
	case CompressionADPCMMono | CompressionHuffman:
		return mask, []Compression{CompressionHuffman, CompressionADPCMMono}, nil
	case CompressionADPCMStereo | CompressionHuffman:
		return mask, []Compression{CompressionHuffman, CompressionADPCMStereo}, nil
	}
	return mask, nil, &methodError{method: mask, reason: fmt.Sprintf("unknown compression byte %#02x", b)}
}

// decompressTable undoes a compressed table (format 4), always with the
// fixed set of methods.
func decompressTable(dst, src []byte) (int, error) {
	if len(src) == 0 {
		return 0, errors.New("empty")
	}
	return decompressFixed(dst, src)
}

func stageFor(m Compression) stage {
	switch m {
	case CompressionZlib:
		return inflateZlib
	case CompressionPKWare:
		return explode
	case CompressionBzip2:
		return unBzip2
	case CompressionSparse:
		return unSparse
	case CompressionHuffman:
		return unHuffman
	case CompressionADPCMMono:
		return unADPCMMono
	case CompressionADPCMStereo:
		return unADPCMStereo
	}
	return nil
}

// checkStages reports a method this package does not implement, before
// anything is decoded.
func checkStages(mask Compression, names []Compression) error {
	for _, m := range names {
		if stageFor(m) == nil {
			return &methodError{method: mask, unsupported: true, reason: "method " + m.String() + " is not implemented"}
		}
	}
	return nil
}

// stageErr turns a stage's failure into a methodError.
func stageErr(mask, m Compression, err error) error {
	if err == errHuffUnsupported {
		return &methodError{method: mask, unsupported: true, reason: err.Error()}
	}
	return &methodError{method: mask, reason: m.String() + ": " + err.Error()}
}

// runStages applies the stages in order, alternating between dst and a
// scratch buffer so that the last one writes into dst.
func runStages(dst, src []byte, mask Compression, names []Compression) (int, error) {
	if err := checkStages(mask, names); err != nil {
		return 0, err
	}
	var tmp []byte
	if len(names) > 1 {
		tmp = make([]byte, len(dst))
	}
	in := src
	n := 0
	for i, m := range names {
		out := dst
		if (len(names)-1-i)%2 == 1 {
			out = tmp
		}
		var err error
		n, err = stageFor(m)(out, in)
		if err != nil {
			return 0, stageErr(mask, m, err)
		}
		if n == 0 {
			return 0, &methodError{method: mask, reason: m.String() + " produced no data"}
		}
		in = out[:n]
	}
	return n, nil
}

// zlibReaders keeps inflaters for reuse: a fresh one costs tens of
// kilobytes, and archives have thousands of sectors.
var zlibReaders sync.Pool

// inflateZlib inflates a zlib stream into dst. Like zlib's inflate with
// Z_FINISH, which Storm calls, it fails when the stream would produce more
// than len(dst) bytes or does not reach its end (with a valid Adler-32);
// a stream that ends early is fine and returns the shorter length.
func inflateZlib(dst, src []byte) (int, error) { return inflate(dst, src, true) }

// inflateHead inflates the start of a zlib stream into dst and stops once
// dst is full, without looking further.
func inflateHead(dst, src []byte) (int, error) { return inflate(dst, src, false) }

// inflate is inflateZlib, or with whole false inflateHead.
func inflate(dst, src []byte, whole bool) (int, error) {
	br := bytes.NewReader(src)
	var zr io.ReadCloser
	if v := zlibReaders.Get(); v != nil {
		zr = v.(io.ReadCloser)
		if err := zr.(zlib.Resetter).Reset(br, nil); err != nil {
			return 0, err
		}
	} else {
		var err error
		if zr, err = zlib.NewReader(br); err != nil {
			return 0, err
		}
	}
	n, err := readFull(zr, dst)
	if err == nil && whole {
		// The buffer is full: the stream must end here.
		var one [1]byte
		m, err2 := zr.Read(one[:])
		for m == 0 && err2 == nil {
			m, err2 = zr.Read(one[:])
		}
		switch {
		case m > 0:
			err = errors.New("the stream holds more data than the declared size")
		case err2 != io.EOF:
			err = fmt.Errorf("the stream does not end: %w", err2)
		}
	}
	if err == nil || err == io.EOF {
		zlibReaders.Put(zr)
		return n, nil
	}
	return 0, err
}

// readFull reads into p until it is full (nil) or the reader ends (io.EOF
// with the count so far) or fails.
func readFull(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if err != nil {
			if err == io.EOF {
				return n, io.EOF
			}
			return n, err
		}
	}
	return n, nil
}

// unBzip2 decompresses a bzip2 stream. Data beyond len(dst) is dropped, as
// libbzip2's single BZ2_bzDecompress call in Storm leaves it unread.
func unBzip2(dst, src []byte) (int, error) {
	n, err := readFull(bzip2.NewReader(bytes.NewReader(src)), dst)
	if err != nil && err != io.EOF {
		return 0, err
	}
	return n, nil
}

// unSparse undoes StarCraft II's sparse encoding: a big-endian output size,
// then chunks that are either literal runs (high bit set: 1-128 bytes) or
// runs of zeros (3-130 bytes). Output the input ends before is zero.
func unSparse(dst, src []byte) (int, error) {
	n, _, err := sparse(dst, src, len(dst))
	return n, err
}

// sparse decodes into dst, which may be shorter than the capacity the
// declared size is checked against, and stops when dst is full. It returns
// the bytes produced (zeros after the input ends included) and how many of
// them the input decided.
func sparse(dst, src []byte, capacity int) (n, decided int, err error) {
	if len(src) < 5 {
		return 0, 0, errors.New("shorter than 5 bytes")
	}
	size := binary.BigEndian.Uint32(src)
	if uint64(size) > uint64(capacity) {
		return 0, 0, fmt.Errorf("declares %d bytes, more than the %d expected", size, capacity)
	}
	out := dst[:min(int(size), len(dst))]
	in := src[4:]
	o := 0
	for len(in) > 0 && o < len(out) {
		c := in[0]
		in = in[1:]
		if c&0x80 != 0 {
			n := int(c&0x7F) + 1
			n = min(n, len(out)-o)
			if n > len(in) {
				return 0, 0, errors.New("literal run past the end of the input")
			}
			copy(out[o:], in[:n])
			in = in[n:]
			o += n
		} else {
			n := min(int(c&0x7F)+3, len(out)-o)
			clear(out[o : o+n])
			o += n
		}
	}
	clear(out[o:])
	return len(out), o, nil
}
