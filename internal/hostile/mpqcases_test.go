package hostile

import (
	"bytes"
	"compress/bzip2"
	"io"
	"testing"
)

// TestBzip2Run decodes the streams Bzip2Run writes with compress/bzip2,
// which checks every block's CRC and the stream's: a run of one byte of
// every length class (no run, a short tail, whole chunks, several
// blocks), for byte values below, equal to and above the repeat count.
func TestBzip2Run(t *testing.T) {
	const block = 255 * 179996 // the bytes of one full block
	for _, b := range []byte{0, 7, 250, 251, 252, 255} {
		sizes := []int{0, 1, 3, 4, 5, 9, 254, 255, 256, 259, 1000, 100000}
		switch b {
		case 0:
			sizes = append(sizes, block, 2*block+300)
		case 252:
			sizes = append(sizes, block+7)
		}
		for _, n := range sizes {
			enc := Bzip2Run(b, n)
			got, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(enc)))
			if err != nil {
				t.Fatalf("byte %d × %d: %v", b, n, err)
			}
			if len(got) != n || bytes.Count(got, []byte{b}) != n {
				t.Fatalf("byte %d × %d: decoded %d bytes, not all %d", b, n, len(got), b)
			}
		}
	}
	// 32 MiB fit in one block of a few dozen bytes.
	if enc := Bzip2Run(0, 32<<20); len(enc) > 100 {
		t.Errorf("32 MiB of zeros took %d bytes", len(enc))
	}
}
