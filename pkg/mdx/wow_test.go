package mdx

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func boarPath(t *testing.T) []byte {
	t.Helper()
	dir := sharedDir(t)
	b, err := os.ReadFile(filepath.Join(dir, "corpus", "files", "MDX-Parser", "MDXParser", "Files", "Boar.mdx"))
	if err != nil {
		t.Skip(err)
	}
	return b
}

func TestWoWBoarRoundTrip(t *testing.T) {
	b := boarPath(t)
	m, err := DecodeBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeBytes(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		n := 0
		for n < len(out) && n < len(b) && out[n] == b[n] {
			n++
		}
		t.Fatalf("re-encoded %d bytes, original %d; first difference at %#x", len(out), len(b), n)
	}
}
