// Package readlimit reads a file whose size its metadata gives into one
// buffer of that size, with a hard cap on what it reads.
package readlimit

import (
	"io"
	"math"
)

// Read reads r to its end or to limit+1 bytes, whichever comes first;
// over reports that r had more than limit bytes (b then holds limit+1).
// size is what r is expected to hold (a file's size from Stat): the
// buffer is allocated for that many bytes, never more than limit+1, so
// that a file of a few megabytes is read into one allocation instead of
// a buffer that grows and copies itself. A wrong size costs only growth.
func Read(r io.Reader, size, limit int64) (b []byte, over bool, err error) {
	return ReadInto(r, size, limit, nil)
}

// ReadInto is Read into buf's storage when it has room for size+1 bytes
// (it is then overwritten), else into a new buffer.
func ReadInto(r io.Reader, size, limit int64, buf []byte) (b []byte, over bool, err error) {
	lim := int(min(max(limit, 0), math.MaxInt-1)) + 1 // bytes to read at most
	// One byte past the expected end, so that EOF is seen without growing.
	if want := int(min(max(size, 0), int64(lim-1))) + 1; cap(buf) >= want {
		b = buf[:0]
	} else {
		b = make([]byte, 0, want)
	}
	for len(b) < lim {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append choose the growth
		}
		k, rerr := r.Read(b[len(b):min(cap(b), lim)])
		b = b[:len(b)+k]
		if len(b) == lim {
			break // limit+1 bytes: over, whatever came with them
		}
		if rerr == io.EOF {
			return b, false, nil
		}
		if rerr != nil {
			return b, false, rerr
		}
	}
	return b, true, nil
}
