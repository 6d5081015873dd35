package budget

import (
	"io"

	"github.com/mdxrender/mdxrender/internal/readlimit"
)

// readKey is the ChargeOnce key of a file's bytes.
type readKey string

// ChargeRead charges size bytes of the file name to ReadBytes, once per
// name and Meter: a texture that a batch reads to hash it and again to
// decode it, or that two layers use, is one file's worth of the model's
// reading.
func (m *Meter) ChargeRead(name string, size int64) error {
	return m.ChargeOnce(readKey(name), ReadBytes, max(size, 0), name, "reading the file")
}

// ReadFile reads r, the file name of size bytes (as its metadata says),
// charging it to ReadBytes as ChargeRead does: the size is charged before
// anything is read, so a file larger than what is left is refused without
// a byte of it read, and a file that turns out longer than it said is
// charged as it goes and cut off with an *Error once it passes the limit.
// The bytes go into buf's storage when it has room.
func (m *Meter) ReadFile(name string, r io.Reader, size int64, buf []byte) ([]byte, error) {
	size = max(size, 0)
	if err := m.ChargeRead(name, size); err != nil {
		return nil, err
	}
	left := m.Left(ReadBytes)
	b, over, err := readlimit.ReadInto(r, size, size+left, buf)
	if err != nil {
		return nil, err
	}
	if extra := int64(len(b)) - size; extra > 0 {
		const what = "reading a file longer than its size said"
		if over {
			used := m.Used(ReadBytes)
			return nil, &Error{File: name, Limit: ReadBytes, Max: m.Limits().Get(ReadBytes), Value: used + extra, Used: used, What: what}
		}
		if err := m.Charge(ReadBytes, extra, name, what); err != nil {
			return nil, err
		}
	}
	return b, nil
}
