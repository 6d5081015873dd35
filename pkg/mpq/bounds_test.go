package mpq

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestManyNamesOneBlock: 8,192 names (each its own hash entry, all in the
// listfile) stand for one block. Every name is listed, all read the same
// bytes, and opening costs a fixed amount per hash entry.
func TestManyNamesOneBlock(t *testing.T) {
	const n = 8192
	b := hostile.MPQManyNames(n, 0)
	var a *Archive
	var err error
	used := allocs.Bytes(func() { a, err = NewReader(bytes.NewReader(b), int64(len(b)), "names.mpq", budget.Limits{}) })
	if err != nil {
		t.Fatal(err)
	}
	entries := int(a.Header().HashEntriesRead)
	t.Logf("%d bytes of archive, %d hash entries: opening allocated %d bytes (%d per entry)", len(b), entries, used, int(used)/entries)
	if used > uint64(entries)*300 {
		t.Errorf("opening allocated %d bytes for %d hash entries", used, entries)
	}
	files := a.Files()
	if len(files) != n+1 {
		t.Fatalf("%d files, want %d", len(files), n+1)
	}
	for _, name := range []string{"name0", "name8191"} {
		got, err := fs.ReadFile(a, name)
		if err != nil || string(got) != "one block behind every name" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

// TestDeepNamesTree: 1,000 names 16 elements deep (the most the tree
// takes), each its own chain of folders. The folder tree costs about a
// copy of each name, not a node per folder, and walking it finds every
// file.
func TestDeepNamesTree(t *testing.T) {
	const n, depth = 1000, maxTreeDepth - 1
	b := hostile.MPQManyNames(n, depth)
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "deep.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var names int
	for _, f := range a.Files() {
		names += len(f.Name)
	}
	used := allocs.Bytes(func() { a.root() })
	t.Logf("%d names of %d bytes in all, %d folders: the tree allocated %d bytes", n, names, n*depth, used)
	if used > uint64(names*3/2+100*n) {
		t.Errorf("the tree of %d names (%d bytes) allocated %d bytes", n, names, used)
	}
	if files := walkFiles(t, a); files != n+1 {
		t.Errorf("walked %d files, want %d", files, n+1)
	}
	deep := "name7" + strings.Repeat("/x", depth)
	if st, err := fs.Stat(a, strings.ToUpper(deep)); err != nil || st.IsDir() || st.Name() != "x" {
		t.Errorf("stat of a deep name: %v, %v", st, err)
	}
	if st, err := fs.Stat(a, "NAME7/X"); err != nil || !st.IsDir() || st.Name() != "x" {
		t.Errorf("stat of a folder: %v, %v", st, err)
	}
}

// TestTooDeepNames: names of more path elements than the tree takes are
// listed and open by name, but are not walked.
func TestTooDeepNames(t *testing.T) {
	const n, depth = 10, 100
	b := hostile.MPQManyNames(n, depth)
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "deep.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if files := len(a.Files()); files != n+1 {
		t.Errorf("%d files listed, want %d", files, n+1)
	}
	if files := walkFiles(t, a); files != 1 {
		t.Errorf("walked %d files, want the listfile alone", files)
	}
	deep := "name7" + strings.Repeat("/x", depth)
	if got, err := fs.ReadFile(a, deep); err != nil || string(got) != "one block behind every name" {
		t.Errorf("a name too deep for the tree: %q, %v", got, err)
	}
}

// walkFiles walks a's folder tree and counts its files.
func walkFiles(t *testing.T, a *Archive) int {
	files := 0
	err := fs.WalkDir(a, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files++
			if p != "(listfile)" && !strings.HasSuffix(p, "/x") {
				t.Errorf("walked to %.60s", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	return files
}

// TestCompressedTableReadLimit: a format-4 hash table is stored
// compressed, so its declared size is backed by nothing in the file. It
// is decompressed within the read limit and refused over it, before
// anything is allocated for it.
func TestCompressedTableReadLimit(t *testing.T) {
	b := hostile.MPQCompressedTable(16)
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "v4.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.ReadFile("a"); err != nil || string(got) != "hello" {
		t.Fatalf("a compressed hash table: %q, %v", got, err)
	}
	b = hostile.MPQCompressedTable(1 << 16) // 1 MiB once decompressed, a few kB stored
	var be *budget.Error
	used := allocs.Bytes(func() {
		_, err = NewReader(bytes.NewReader(b), int64(len(b)), "v4.mpq", budget.Limits{ReadBytes: 1 << 19})
	})
	if !errors.As(err, &be) || be.Limit != budget.ReadBytes || be.Value != 1<<20 || be.File != "v4.mpq" || used > 64<<10 {
		t.Errorf("a 1 MiB compressed table over a 512 KiB read limit: %v, allocating %d bytes", err, used)
	}
	if a, err = NewReader(bytes.NewReader(b), int64(len(b)), "v4.mpq", budget.Limits{}); err != nil || a.Header().HashEntriesRead != 1<<16 {
		t.Errorf("within the default limit: %v", err)
	}
}

// TestLongNamesInErrors: a name of a megabyte, from a model naming a
// texture or from the archive itself, makes an error line of a few hundred
// bytes, whatever the error.
func TestLongNamesInErrors(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	b := hostile.MPQ(3,
		[]hostile.MPQBlock{{Raw: hostile.SectorTable([][]byte{{0x04, 1, 2, 3}}), Size: 4096, Flags: FlagExists | FlagCompress}},
		[]hostile.MPQName{{Name: long, Block: 0}})
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "long.mpq", budget.Limits{ReadBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	f, ok := a.Lookup(long)
	if !ok {
		t.Fatal("not found")
	}
	_, errRead := f.ReadAll()
	_, errHead := f.Head(10)
	_, errOpen := a.Open(long + "x")
	_, errFS := fs.ReadFile(a, long)
	for _, err := range []error{errRead, errHead, errOpen, errFS} {
		if err == nil || len(err.Error()) > 1000 {
			t.Errorf("an error of %d bytes: %.300s", len(err.Error()), err)
		}
	}
	var be *budget.Error
	var fe *FormatError
	if !errors.As(errRead, &be) || !errors.As(errHead, &fe) || !errors.Is(errOpen, fs.ErrNotExist) || !errors.As(errFS, &be) {
		t.Errorf("errors: %v; %v; %v; %v", errRead, errHead, errOpen, errFS)
	}
}

// countingReader counts the reads an archive makes.
type countingReader struct {
	r     *bytes.Reader
	reads int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.r.ReadAt(p, off)
}

// TestCompressionsCost: a file of 65,536 sectors of 20 bytes that 100
// names point at. Compressions reads its first words through windows of
// 64 KiB (21 reads for its 1.3 MB), not one read per sector, and the
// names share one answer.
func TestCompressionsCost(t *testing.T) {
	const sectors = 1 << 16
	secs := make([][]byte, sectors)
	for i := range secs {
		secs[i] = make([]byte, 20)
		secs[i][0] = byte(CompressionZlib)
	}
	secs[sectors/2][0] = byte(CompressionBzip2)
	var names []hostile.MPQName
	for i := range 100 {
		names = append(names, hostile.MPQName{Name: fmt.Sprintf("name%d", i), Block: 0})
	}
	b := hostile.MPQ(0, []hostile.MPQBlock{{Raw: hostile.SectorTable(secs), Size: sectors * 512, Flags: FlagExists | FlagCompress}}, names)
	cr := &countingReader{r: bytes.NewReader(b)}
	a, err := NewReader(cr, int64(len(b)), "sectors.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	before := cr.reads
	for i := range 100 {
		f, ok := a.Lookup(fmt.Sprintf("name%d", i))
		if !ok {
			t.Fatalf("name%d not found", i)
		}
		cs, err := f.Compressions()
		if err != nil || len(cs) != 2 || cs[0] != CompressionZlib || cs[1] != CompressionBzip2 {
			t.Fatalf("name%d: %v, %v", i, cs, err)
		}
	}
	if n := cr.reads - before; n > 30 {
		t.Errorf("100 names of a file of %d sectors took %d reads", sectors, n)
	}
}
