package readlimit

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestRead(t *testing.T) {
	data := strings.Repeat("0123456789", 100) // 1,000 bytes
	for _, c := range []struct {
		name        string
		size, limit int64
		want        int
		over        bool
	}{
		{"exact size", 1000, 5000, 1000, false},
		{"size too small", 10, 5000, 1000, false},
		{"size too large", 1 << 40, 5000, 1000, false},
		{"unknown size", -1, 5000, 1000, false},
		{"at the limit", 1000, 1000, 1000, false},
		{"over the limit", 1000, 999, 1000, true},
		{"far over", 1000, 10, 11, true},
		{"zero limit", 1000, 0, 1, true},
		{"huge limit", 1000, 1<<63 - 1, 1000, false},
	} {
		for _, r := range []io.Reader{strings.NewReader(data), iotest.OneByteReader(strings.NewReader(data)), iotest.DataErrReader(strings.NewReader(data))} {
			b, over, err := Read(r, c.size, c.limit)
			if err != nil || over != c.over || len(b) != c.want || !bytes.Equal(b, []byte(data[:c.want])) {
				t.Errorf("%s: %d bytes, over %v, err %v; want %d bytes, over %v", c.name, len(b), over, err, c.want, c.over)
			}
			if int64(cap(b)) > max(c.limit+1, 0) && c.limit < 1<<40 {
				t.Errorf("%s: buffer of %d bytes for a limit of %d", c.name, cap(b), c.limit)
			}
		}
	}
}

func TestReadError(t *testing.T) {
	bad := errors.New("disk on fire")
	b, over, err := Read(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(bad)), 10, 100)
	if !errors.Is(err, bad) || over || string(b) != "abc" {
		t.Errorf("got %q, %v, %v; want the 3 bytes read and the error", b, over, err)
	}
}

func TestReadInto(t *testing.T) {
	data := strings.Repeat("0123456789", 100)
	for _, c := range []struct {
		name       string
		bufCap     int
		size       int64
		limit      int64
		want       int
		over, same bool
	}{
		{"room", 2000, 1000, 5000, 1000, false, true},
		{"exact room", 1001, 1000, 5000, 1000, false, true},
		{"one byte short", 1000, 1000, 5000, 1000, false, false},
		{"no buffer", 0, 1000, 5000, 1000, false, false},
		{"over the limit", 2000, 1000, 10, 11, true, true},
		{"size too small", 2000, 10, 5000, 1000, false, true},
	} {
		buf := bytes.Repeat([]byte{0xa5}, c.bufCap)
		b, over, err := ReadInto(strings.NewReader(data), c.size, c.limit, buf)
		if err != nil || over != c.over || !bytes.Equal(b, []byte(data[:c.want])) {
			t.Errorf("%s: %d bytes, over %v, err %v; want %d bytes, over %v", c.name, len(b), over, err, c.want, c.over)
		}
		if same := c.bufCap > 0 && &b[:1][0] == &buf[:1][0]; same != c.same {
			t.Errorf("%s: read into the buffer given: %v, want %v", c.name, same, c.same)
		}
	}
}
