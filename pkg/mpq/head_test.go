package mpq

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// checkHeads compares Head with the start of a whole read for every file
// of a, for lengths from none to more than a sector.
func checkHeads(t *testing.T, a *Archive) {
	t.Helper()
	for _, f := range a.Files() {
		whole, werr := f.ReadAll()
		first := f.Size
		if f.Flags&FlagSingleUnit == 0 {
			first = min(f.Size, int64(a.Header().SectorSize))
		}
		for _, n := range []int{0, 1, 4, 100, 4096, 1 << 20} {
			h, err := f.Head(n)
			if werr != nil {
				// Head reads the first sector only; it may fail or not.
				if err == nil && int64(len(h)) != min(int64(n), first) {
					t.Errorf("%s: %s (block %d): Head(%d) gave %d bytes", a.Name(), f.Name, f.BlockIndex, n, len(h))
				}
				continue
			}
			want := whole[:min(int64(n), first)]
			if err != nil || !bytes.Equal(h, want) {
				t.Errorf("%s: %s (block %d, %v): Head(%d) = %d bytes, %v; want the first %d bytes of the file", a.Name(), f.Name, f.BlockIndex, FlagNames(f.Flags), n, len(h), err, len(want))
			}
		}
	}
}

// TestHeadFixtures: every method, encryption (with and without the name),
// imploded, single-unit and stored files, formats 1-4.
func TestHeadFixtures(t *testing.T) {
	for archive := range fixtureFiles() {
		checkHeads(t, openFixture(t, archive))
	}
	checkHeads(t, openFixture(t, "no-listfile.mpq"))
}

func TestHeadCorpus(t *testing.T) {
	for _, ca := range corpusArchives(t) {
		a, err := Open(ca.path, budget.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		checkHeads(t, a)
		a.Close()
	}
}

// TestHeadBzip2Bomb: an unnamed entry whose one sector is 32 MiB of zeros
// as bzip2. Head decodes its first block and the bytes asked for, not the
// sector: a few MiB allocated (compress/bzip2's block buffer) against the
// 32 MiB a whole sector needs.
func TestHeadBzip2Bomb(t *testing.T) {
	const size = 32 << 20
	raw := hostile.SectorTable([][]byte{hostile.Bzip2Sector(0, size)})
	b := hostile.MPQUnnamed(16, 3, raw, size)
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "bzip2.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	files := a.Files()
	if len(files) != 3 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		var h []byte
		used := allocs.Bytes(func() { h, err = f.Head(4096) })
		if err != nil || len(h) != 4096 || !bytes.Equal(h, make([]byte, 4096)) {
			t.Fatalf("block %d: %d bytes, %v", f.BlockIndex, len(h), err)
		}
		if used > 8<<20 {
			t.Errorf("Head of a 32 MiB bzip2 sector allocated %d bytes", used)
		}
	}
}

// adpcmSector is a format-1 sector compressed with zlib then ADPCM (mono):
// a starting sample, skip bytes of 0x81 (markers that consume input and
// produce nothing), then samples. Its first bytes need the whole run of
// markers decoded.
func adpcmSector(skip int) []byte {
	stream := []byte{0, 0, 0x34, 0x12}
	stream = append(stream, bytes.Repeat([]byte{0x81}, skip)...)
	stream = append(stream, bytes.Repeat([]byte{0x05, 0x45}, 2000)...)
	z := hostile.ZlibSector(stream)
	z[0] = byte(CompressionZlib | CompressionADPCMMono)
	return z
}

// TestHeadNeedsMore: when the last stage runs out of input the earlier
// stage was cut for, Head decodes more, up to its bound, and beyond that
// refuses rather than guess.
func TestHeadNeedsMore(t *testing.T) {
	for _, c := range []struct {
		skip  int
		shift uint16
		ok    bool
	}{
		{10, 3, true},           // within the first step
		{200 << 10, 9, true},    // needs the second
		{1500 << 10, 12, false}, // more than Head decodes
	} {
		sector := 512 << c.shift
		body := hostile.SectorTable([][]byte{adpcmSector(c.skip)})
		b := hostile.MPQ(c.shift, []hostile.MPQBlock{{Raw: body, Size: uint32(sector), Flags: FlagExists | FlagCompress}}, []hostile.MPQName{{Name: "s.wav", Block: 0}})
		a, err := openBytes(t, b)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := a.Lookup("s.wav")
		whole, err := f.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		h, err := f.Head(100)
		var ue *UnsupportedError
		switch {
		case c.ok && (err != nil || !bytes.Equal(h, whole[:100])):
			t.Errorf("%d markers: %v, %x; want %x", c.skip, err, h, whole[:100])
		case !c.ok && !errors.As(err, &ue):
			t.Errorf("%d markers: %v, want an UnsupportedError", c.skip, err)
		}
	}
}

// TestHeadReadLimit: Head is refused over the read limit like any read.
// The archive of one entry holds its tables in 528 bytes of the limit
// (checkTables).
func TestHeadReadLimit(t *testing.T) {
	data := hostile.MPQ(3, []hostile.MPQBlock{{Data: bytes.Repeat([]byte("x"), 2000)}}, []hostile.MPQName{{Name: "text.txt", Block: 0}})
	a, err := NewReader(bytes.NewReader(data), int64(len(data)), "one.mpq", budget.Limits{ReadBytes: 600})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := a.Lookup("text.txt")
	if h, err := f.Head(600); err != nil || len(h) != 600 {
		t.Errorf("Head(600): %d bytes, %v", len(h), err)
	}
	if _, err := f.Head(601); !isReadLimit(err, "one.mpq:text.txt", 601) {
		t.Errorf("Head(601) over a limit of 600: %v", err)
	}
}

// TestTablesWithinReadLimit: an archive of a million names for one block
// (the hostile case of 69 MB that cost 270 MB to open and a gigabyte to
// list) is refused at the default read limit once its tables are read,
// before its entries are built (reading the 32 MB hash table and its
// entries costs about four times its size); an eighth of it opens.
func TestTablesWithinReadLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 69 MB archive")
	}
	for _, c := range []struct {
		n  int
		ok bool
	}{{1 << 20, false}, {1 << 17, true}} {
		data := hostile.MPQManyNames(c.n, 0)
		var err error
		alloc := allocs.Bytes(func() {
			_, err = NewReader(bytes.NewReader(data), int64(len(data)), "names.mpq", budget.Limits{})
		})
		var be *budget.Error
		switch {
		case c.ok && err != nil:
			t.Errorf("%d names: %v", c.n, err)
		case !c.ok && (!errors.As(err, &be) || be.Limit != budget.ReadBytes):
			t.Errorf("%d names: %v, want the read_bytes limit's error", c.n, err)
		case !c.ok && alloc > 192<<20:
			t.Errorf("%d names: refused after allocating %d bytes", c.n, alloc)
		}
	}
}

// BenchmarkHeadBzip2Bomb sniffs the full-size case: 200 unnamed entries
// whose one sector is 32 MiB of zeros as bzip2.
func BenchmarkHeadBzip2Bomb(b *testing.B) {
	const size = 32 << 20
	raw := hostile.SectorTable([][]byte{hostile.Bzip2Sector(0, size)})
	data := hostile.MPQUnnamed(16, 200, raw, size)
	a, err := NewReader(bytes.NewReader(data), int64(len(data)), "bzip2.mpq", budget.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("archive of %d bytes", len(data))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range a.Files() {
			if _, err := f.Head(64); err != nil {
				b.Fatal(err)
			}
		}
	}
}
