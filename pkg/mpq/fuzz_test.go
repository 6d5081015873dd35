package mpq

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
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
	// The hostile cases, small: a long list, many names for one block, names
	// many folders deep, unnamed bzip2 entries.
	f.Add(hostile.MPQListfileBomb(3, 5000))
	f.Add(hostile.MPQManyNames(40, 0))
	f.Add(hostile.MPQManyNames(10, 20))
	f.Add(hostile.MPQUnnamed(3, 4, hostile.SectorTable([][]byte{hostile.Bzip2Sector(0, 4096)}), 4096))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := NewReader(bytes.NewReader(data), int64(len(data)), "fuzz.mpq", budget.Limits{ReadBytes: 1 << 20})
		if err != nil {
			return
		}
		for _, file := range a.Files() {
			whole, werr := file.ReadAll()
			checkHead(t, a, file, whole, werr)
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

// checkHead checks Head against a whole read of file: never more than
// asked or than the first sector holds, and when the whole read worked,
// the same bytes, or a refusal for the work it would take.
func checkHead(t *testing.T, a *Archive, file *File, whole []byte, werr error) {
	first := file.Size
	if file.Flags&FlagSingleUnit == 0 {
		first = min(first, int64(a.Header().SectorSize))
	}
	for _, n := range []int{1, 4, 100} {
		h, err := file.Head(n)
		var ue *UnsupportedError
		switch {
		case err == nil && int64(len(h)) != min(int64(n), first):
			t.Fatalf("block %d: Head(%d) gave %d bytes of a first sector of %d", file.BlockIndex, n, len(h), first)
		case werr == nil && err == nil && !bytes.Equal(h, whole[:len(h)]):
			t.Fatalf("block %d: Head(%d) = %x, the file starts %x", file.BlockIndex, n, h, whole[:len(h)])
		case werr == nil && err != nil && !errors.As(err, &ue):
			t.Fatalf("block %d: the file reads but Head(%d) fails: %v", file.BlockIndex, n, err)
		}
	}
}

// FuzzDecompress feeds arbitrary sectors to both method-byte decoders and
// to the PKWARE decoder, with an output size taken from the input.
func FuzzDecompress(f *testing.F) {
	text := bytes.Repeat([]byte("line of text 0123456789\n"), 100)
	f.Add(uint16(len(text)), hostile.ZlibSector(text))
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
		// Each method alone: its head is the start of its whole output.
		if size == 0 {
			return
		}
		_, names, err := stagesGeneric(src[0])
		if err != nil || len(names) != 1 || stageFor(names[0]) == nil {
			return
		}
		m := names[0]
		n, err := stageFor(m)(dst, src[1:])
		for _, k := range []int{1, 3, 64} {
			k = min(k, len(dst))
			head := make([]byte, k)
			hn, decided, herr := headStage(m, head, src[1:], len(dst))
			switch {
			case herr == nil && (hn > k || decided > hn):
				t.Fatalf("%v: head of %d gave %d bytes, %d decided", m, k, hn, decided)
			case err == nil && herr != nil:
				t.Fatalf("%v: decodes whole but its head of %d fails: %v", m, k, herr)
			case err == nil && (hn != min(k, n) || !bytes.Equal(head[:hn], dst[:hn])):
				t.Fatalf("%v: head of %d = %x, whole output starts %x", m, k, head[:hn], dst[:min(k, n)])
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
		mpqcrypt.Decrypt(raw, st.key)
	}
	return raw, uint16(st.expected(0)), true
}
