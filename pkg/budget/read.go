package budget

import (
	"io"

	"github.com/mdxrender/mdxrender/internal/readlimit"
)

// Read reads r, a file of size bytes (as its metadata says) named file in
// errors, charging what it reads to ReadBytes: the size is charged before
// anything is read, so a file larger than what is left is refused without
// a byte of it read, and a file that turns out longer than it said is
// charged as it goes and cut off with an *Error once it passes the limit.
// The bytes go into buf's storage when it has room.
func (m *Meter) Read(r io.Reader, size int64, file string, buf []byte) ([]byte, error) {
	size = max(size, 0)
	if err := m.Charge(ReadBytes, size, file, "reading the file"); err != nil {
		return nil, err
	}
	left := m.Left(ReadBytes)
	b, over, err := readlimit.ReadInto(r, size, size+left, buf)
	if err != nil {
		return nil, err
	}
	if extra := int64(len(b)) - size; extra > 0 {
		if over {
			return nil, &Error{File: file, Limit: ReadBytes, Max: m.Limits().Get(ReadBytes),
				Value: m.Used(ReadBytes) + extra, What: "reading a file longer than its size said"}
		}
		if err := m.Charge(ReadBytes, extra, file, "reading a file longer than its size said"); err != nil {
			return nil, err
		}
	}
	return b, nil
}
