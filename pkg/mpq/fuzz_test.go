package mpq

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// FuzzOpen opens arbitrary bytes as an archive and reads everything it
// finds, through Files and through the fs.FS view. Nothing may panic, hang
// or allocate without bound.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"v1.mpq", "v2.mpq", "v3.mpq", "v4.mpq", "map.w3x", "protected.w3x", "userdata.mpq", "no-listfile.mpq", "locales.mpq", "sector-crc.mpq", "sound-v1.mpq"} {
		if b, err := os.ReadFile(filepath.Join(fixtureDir, name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := NewReader(bytes.NewReader(data), int64(len(data)), "fuzz.mpq", budget.Limits{ReadBytes: 1 << 20})
		if err != nil {
			return
		}
		for _, file := range a.Files() {
			file.ReadAll()
			file.Compressions()
			if rc, err := file.Open(); err == nil {
				io.CopyN(io.Discard, rc, 1<<20)
				rc.Close()
			}
		}
		fs.WalkDir(a, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				fs.ReadFile(a, p)
			}
			return nil
		})
	})
}

// FuzzDecompress feeds arbitrary sectors to both method-byte decoders and
// to the PKWARE decoder, with an output size taken from the input.
func FuzzDecompress(f *testing.F) {
	text := bytes.Repeat([]byte("line of text 0123456789\n"), 100)
	f.Add(uint16(len(text)), zlibSector(text))
	f.Add(uint16(13), []byte{0x00, 0x04, 0x82, 0x24, 0x25, 0x8f, 0x80, 0x7f}) // "AIAIAIAIAIAIA"
	f.Add(uint16(100), []byte{0x20, 0, 0, 0, 100, 0x83, 1, 2, 3, 4, 0x7f})
	// First sectors of fixture files, one per method.
	for _, c := range []struct{ archive, name string }{
		{"methods-v1.mpq", "huffmann.txt"}, {"methods-v1.mpq", "pkware.txt"}, {"methods-v1.mpq", "bzip2.txt"},
		{"methods-v1.mpq", "sparse-zlib.bin"}, {"sound-v1.mpq", "stereo.wav"}, {"sound-v1.mpq", "mono.wav"},
	} {
		if sector, size, ok := firstSector(c.archive, c.name); ok {
			f.Add(size, sector)
		}
	}
	f.Fuzz(func(t *testing.T, size uint16, src []byte) {
		if len(src) == 0 {
			return
		}
		dst := make([]byte, size)
		for _, dec := range []func(dst, src []byte) (int, error){decompressGeneric, decompressFixed, explode} {
			n, err := dec(dst, src)
			if err == nil && (n < 0 || n > len(dst)) {
				t.Fatalf("produced %d bytes into %d", n, len(dst))
			}
		}
	})
}

// firstSector returns the stored (decrypted) bytes of a fixture file's
// first sector and the size they decode to.
func firstSector(archive, name string) ([]byte, uint16, bool) {
	a, err := Open(filepath.Join(fixtureDir, archive), budget.Limits{})
	if err != nil {
		return nil, 0, false
	}
	defer a.Close()
	f, ok := a.Lookup(name)
	if !ok {
		return nil, 0, false
	}
	st, err := f.prepare()
	if err != nil || st.size == 0 {
		return nil, 0, false
	}
	off, n := st.rawRange(0)
	raw := make([]byte, n)
	if st.readRaw(raw, off) != nil {
		return nil, 0, false
	}
	if st.flags&FlagEncrypted != 0 {
		decryptBlock(raw, st.key)
	}
	return raw, uint16(st.expected(0)), true
}
