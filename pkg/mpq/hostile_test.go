package mpq

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// isReadLimit reports whether err is the read limit's refusal of file
// ("archive:name") for a declared size of value bytes.
func isReadLimit(err error, file string, value int64) bool {
	var be *budget.Error
	return errors.As(err, &be) && be.Limit == budget.ReadBytes && be.File == file && be.Value == value
}

func TestBuiltArchiveReads(t *testing.T) {
	// The builder itself: a plain zlib file reads back.
	data := bytes.Repeat([]byte("abc"), 3000)
	a, err := openBytes(t, hostile.MPQ(3, []hostile.MPQBlock{{
		Raw:  hostile.SectorTable([][]byte{hostile.ZlibSector(data[:4096]), hostile.ZlibSector(data[4096:8192]), hostile.ZlibSector(data[8192:])}),
		Size: uint32(len(data)), Flags: FlagExists | FlagCompress,
	}}, []hostile.MPQName{{Name: "a.txt", Block: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.ReadFile("a.txt")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
}

func TestTruncatedArchives(t *testing.T) {
	full, err := readFixture("v1.mpq")
	if err != nil {
		t.Fatal(err)
	}
	// Every prefix: opening and reading must fail cleanly or succeed.
	for n := 0; n < len(full); n++ {
		a, err := openBytes(t, full[:n])
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%d bytes: %T %v, want a FormatError", n, err, err)
			}
			continue
		}
		for _, f := range a.Files() {
			f.ReadAll()
		}
	}
	// The tables sit at the end, so cutting into them clips them (format 1).
	a, err := openBytes(t, full[:len(full)-40])
	if err != nil {
		t.Fatal(err)
	}
	if h := a.Header(); h.BlockEntriesRead >= h.BlockTableEntries {
		t.Errorf("block table not clipped: %+v", h)
	}
}

func readFixture(name string) ([]byte, error) {
	a, err := Open(fixtureDir+"/"+name, budget.Limits{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	b := make([]byte, a.size)
	_, err = a.r.ReadAt(b, 0)
	return b, err
}

func TestTablesPastTheEnd(t *testing.T) {
	b := hostile.MPQ(3, []hostile.MPQBlock{{Raw: []byte("xyz"), Size: 3, Flags: FlagExists}}, []hostile.MPQName{{Name: "a", Block: 0}})
	bad := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(bad[16:], uint32(len(b)+100)) // hash table offset
	_, err := openBytes(t, bad)
	var fe *FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "hash table offset") || fe.Archive != "test.mpq" {
		t.Errorf("hash table past the end: %v", err)
	}
	bad = append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(bad[20:], uint32(len(b)+1)) // block table offset
	if _, err := openBytes(t, bad); !errors.As(err, &fe) || !strings.Contains(err.Error(), "block table offset") {
		t.Errorf("block table past the end: %v", err)
	}
	// A hash table claiming 2^28 entries is read as far as the file goes,
	// without allocating for the rest.
	bad = append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(bad[24:], 0x0FFFFFFF+1) // masked to 0 -> no hash table
	if _, err := openBytes(t, bad); err == nil {
		t.Error("a hash table of 0 entries opened")
	}
	bad = append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(bad[24:], 0x08000000)
	var a *Archive
	if n := allocs.Bytes(func() { a, err = openBytes(t, bad) }); n > 10<<20 {
		t.Errorf("opening with a 2^27-entry hash table allocated %d bytes", n)
	}
	if err != nil {
		t.Fatal(err)
	}
	// The name's slot now falls in the missing part; probing wraps to the
	// start and stops at the first free entry, as in Storm: not found.
	if _, err := a.ReadFile("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lookup through a clipped hash table: %v", err)
	}
}

func TestHugeClaims(t *testing.T) {
	// A block claiming 4 GiB is not a file (Storm ignores sizes >= 2 GiB).
	b := hostile.MPQ(3, []hostile.MPQBlock{
		{Raw: []byte("xyz"), Size: 0xFFFFFFF0, Flags: FlagExists},
		{Raw: []byte("xyz"), Size: 0x7FFFFFFF, Flags: FlagExists},
		{Raw: hostile.SectorTable([][]byte{hostile.ZlibSector(make([]byte, 4096))}), Size: 0x7FFFFFFF, Flags: FlagExists | FlagCompress},
	}, []hostile.MPQName{{Name: "4g", Block: 0}, {Name: "2g", Block: 1}, {Name: "2gz", Block: 2}})
	a, err := openBytes(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Open("4g"); err == nil {
		t.Error("a 4 GiB block opened")
	}
	n := allocs.Bytes(func() {
		_, err = a.ReadFile("2g")
	})
	if !isReadLimit(err, "test.mpq:2g", 0x7FFFFFFF) || n > 1<<20 {
		t.Errorf("ReadFile of a 2 GiB claim: %v after allocating %d bytes", err, n)
	}
	// Streaming it fails as soon as the data is found missing.
	n = allocs.Bytes(func() {
		var f io.ReadCloser
		if f, err = a.Open("2g"); err == nil {
			_, err = io.Copy(io.Discard, f)
		}
	})
	var fe *FormatError
	if !errors.As(err, &fe) || n > 1<<20 {
		t.Errorf("streaming a 2 GiB claim: %v after allocating %d bytes", err, n)
	}
	n = allocs.Bytes(func() { _, err = a.Open("2gz") })
	if !errors.As(err, &fe) || n > 1<<20 {
		t.Errorf("a 2 GiB compressed claim with a 1-sector table: %v after allocating %d bytes", err, n)
	}
}

func TestDecompressionBomb(t *testing.T) {
	// 32 MiB sectors of zeros compress to ~32 KB each: a file claiming
	// 2 GiB made of them streams in bounded memory and ReadFile refuses it.
	const sector = 32 << 20
	z := hostile.ZlibSector(make([]byte, sector))
	sectors := make([][]byte, 64)
	for i := range sectors {
		sectors[i] = z
	}
	b := hostile.MPQ(16, []hostile.MPQBlock{{Raw: hostile.SectorTable(sectors), Size: 64*sector - 1, Flags: FlagExists | FlagCompress}}, []hostile.MPQName{{Name: "bomb", Block: 0}})
	a, err := openBytes(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ReadFile("bomb"); !isReadLimit(err, "test.mpq:bomb", 64*sector-1) {
		t.Errorf("ReadFile: %v, want the read limit's *budget.Error", err)
	}
	var copied int64
	n := allocs.Bytes(func() {
		f, err := a.Open("bomb")
		if err != nil {
			t.Fatal(err)
		}
		copied, err = io.CopyN(io.Discard, f, 2*sector)
		if err != nil {
			t.Fatal(err)
		}
	})
	if copied != 2*sector || n > 100<<20 {
		t.Errorf("streamed %d bytes allocating %d", copied, n)
	}
	// The last sector decompresses to more than it should hold.
	last := hostile.SectorTable([][]byte{hostile.ZlibSector(make([]byte, 5000))})
	b = hostile.MPQ(3, []hostile.MPQBlock{{Raw: last, Size: 4096, Flags: FlagExists | FlagCompress}}, []hostile.MPQName{{Name: "long", Block: 0}})
	if a, err = openBytes(t, b); err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	if _, err := a.ReadFile("long"); !errors.As(err, &fe) || !strings.Contains(err.Error(), "more data than the declared size") {
		t.Errorf("zlib stream longer than its sector: %v", err)
	}
}

func TestUnknownCompressionByte(t *testing.T) {
	sector := append([]byte{0x04}, make([]byte, 100)...)
	b := hostile.MPQ(3, []hostile.MPQBlock{{Raw: hostile.SectorTable([][]byte{sector}), Size: 4096, Flags: FlagExists | FlagCompress}}, []hostile.MPQName{{Name: "odd", Block: 0}})
	a, err := openBytes(t, b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.ReadFile("odd")
	var fe *FormatError
	if !errors.As(err, &fe) || fe.File != "odd" || !strings.Contains(err.Error(), "0x04") {
		t.Errorf("compression byte 0x04: %v", err)
	}
}

func TestBrokenSectorTables(t *testing.T) {
	good := hostile.SectorTable([][]byte{hostile.ZlibSector(make([]byte, 4096)), hostile.ZlibSector(make([]byte, 100))})
	for name, mutate := range map[string]func(b []byte){
		"decreasing":   func(b []byte) { binary.LittleEndian.PutUint32(b[4:], 2) },
		"past the end": func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 0x7FFFFFF0) },
		"too long":     func(b []byte) { binary.LittleEndian.PutUint32(b[8:], binary.LittleEndian.Uint32(b[4:])+5000) },
	} {
		body := append([]byte(nil), good...)
		mutate(body)
		a, err := openBytes(t, hostile.MPQ(3, []hostile.MPQBlock{{Raw: body, Size: 4196, Flags: FlagExists | FlagCompress}}, []hostile.MPQName{{Name: "f", Block: 0}}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.ReadFile("f")
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a FormatError", name, err)
		}
	}
}

func TestHashEntriesPointingNowhere(t *testing.T) {
	b := hostile.MPQ(3,
		[]hostile.MPQBlock{{Raw: []byte("data"), Size: 4, Flags: FlagExists}},
		[]hostile.MPQName{{Name: "real", Block: 0}, {Name: "ghost", Block: 40}})
	a, err := openBytes(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Open("ghost"); err == nil {
		t.Error("an entry pointing past the block table opened")
	}
	if len(a.Warnings()) == 0 {
		t.Error("no warning for a hash entry pointing past the block table")
	}
	if got, _ := a.ReadFile("real"); string(got) != "data" {
		t.Errorf("real: %q", got)
	}
}

func TestNotAnArchive(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("MPQ"), bytes.Repeat([]byte("garbage!"), 1000)} {
		_, err := openBytes(t, b)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%d bytes of garbage: %v", len(b), err)
		}
	}
}

// TestHostileBuilder checks that internal/hostile's archives, which the
// hostile-input cases are built with, read back as written.
func TestHostileBuilder(t *testing.T) {
	big := bytes.Repeat([]byte("abcdefgh"), 3000)
	b := hostile.MPQFiles(map[string][]byte{`dir\a.txt`: []byte("hello"), "b.bin": big}, []string{`dir\a.txt`, "b.bin"})
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "built.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"dir/a.txt": []byte("hello"), "b.bin": big} {
		got, err := fs.ReadFile(a, name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
}

// TestHostileMPQPadded checks the builder of padded compressed files the
// hostile cases use: the file reads back as its head and zeros.
func TestHostileMPQPadded(t *testing.T) {
	head := []byte("BLP1 head")
	b := hostile.MPQ(3, []hostile.MPQBlock{hostile.MPQPadded(3, head, 10000)}, []hostile.MPQName{{Name: "p.blp", Block: 0}})
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "padded.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadFile(a, "p.blp")
	if err != nil || len(got) != 10000 || !bytes.HasPrefix(got, head) || bytes.Count(got[len(head):], []byte{0}) != 10000-len(head) {
		t.Errorf("%d bytes, %v", len(got), err)
	}
}
