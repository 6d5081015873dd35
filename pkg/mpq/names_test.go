package mpq

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// split runs splitNames over data, whole and a byte at a time (so that
// every name is cut by the end of a read), and checks both agree.
func split(t *testing.T, data []byte, nul, flags bool, count int64) ([]string, int) {
	t.Helper()
	var out [2][]string
	var long [2]int
	for pass, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data))} {
		var err error
		long[pass], err = splitNames(r, nul, flags, count, func(name []byte) { out[pass] = append(out[pass], string(name)) })
		if err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(out[0], out[1]) || long[0] != long[1] {
		t.Fatalf("%.40q whole: %q (%d long); a byte at a time: %q (%d long)", data, out[0], long[0], out[1], long[1])
	}
	return out[0], long[0]
}

func TestSplitListfile(t *testing.T) {
	long := strings.Repeat("x", maxNameLen+1)
	max := strings.Repeat("y", maxNameLen)
	for _, c := range []struct {
		in   string
		want []string
		long int
	}{
		{"", nil, 0},
		{"a", []string{"a"}, 0},
		{"a\r\nb\nc\rd;e", []string{"a", "b", "c", "d", "e"}, 0},
		{"\r\n\r\n;;a b\t\n", []string{"a b\t"}, 0},
		{"a\n" + long + "\nb", []string{"a", "b"}, 1},
		{long, nil, 1},
		{max + "\n" + max, []string{max, max}, 0},
		{long + long + ";" + long, nil, 2},
	} {
		got, n := split(t, []byte(c.in), false, false, -1)
		if !reflect.DeepEqual(got, c.want) || n != c.long {
			t.Errorf("%.40q: %q (%d long), want %q (%d long)", c.in, got, n, c.want, c.long)
		}
	}
}

func TestSplitImports(t *testing.T) {
	rec := func(flag byte, name string) string { return string([]byte{flag}) + name + "\x00" }
	for _, c := range []struct {
		in    string
		flags bool
		count int64
		want  []string
	}{
		// A flag byte is skipped even when it is NUL or a separator.
		{rec(5, "a.mdx") + rec(0, "b.blp") + rec(';', "c"), true, 3, []string{"a.mdx", "b.blp", "c"}},
		// The count stops the list; empty names count as records.
		{rec(5, "a") + rec(5, "") + rec(5, "b") + rec(5, "c"), true, 3, []string{"a", "b"}},
		// A count past the data: the data ends the list, and an
		// unterminated last name still counts.
		{rec(5, "a") + "\x05tail", true, 100, []string{"a", "tail"}},
		{rec(5, "a") + "\x05", true, 100, []string{"a"}},
		// Version 0: no flag bytes.
		{"a\x00b\x00", false, 5, []string{"a", "b"}},
	} {
		got, _ := split(t, []byte(c.in), true, c.flags, c.count)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

// TestImportsName checks war3map.imp naming end to end: every path names
// its entry as written and under war3mapImported\.
func TestImportsName(t *testing.T) {
	var imp bytes.Buffer
	binary.Write(&imp, binary.LittleEndian, [2]uint32{1, 2})
	imp.WriteString("\x0dunit.mdx\x00\x05Textures\\skin.blp\x00")
	b := hostile.MPQ(3, []hostile.MPQBlock{{Data: imp.Bytes(), Sectors: true}, {Data: []byte("m")}, {Data: []byte("t")}},
		[]hostile.MPQName{{Name: "war3map.imp", Block: 0}, {Name: `war3mapImported\unit.mdx`, Block: 1}, {Name: `Textures\skin.blp`, Block: 2}})
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "imp.w3x", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range a.Files() {
		names = append(names, f.Name)
	}
	if want := []string{"war3map.imp", `war3mapImported\unit.mdx`, `Textures\skin.blp`}; !reflect.DeepEqual(names, want) {
		t.Errorf("named %q, want %q", names, want)
	}
}

// TestListfileStreamed opens an archive whose (listfile) holds a million
// one-letter names: opening hashes them where they lie and keeps only the
// one that names an entry, so it allocates about one sector and one read
// buffer, not a string per name.
func TestListfileStreamed(t *testing.T) {
	const names = 1 << 20
	b := hostile.MPQListfileBomb(3, names)
	var a *Archive
	var err error
	n := allocs.Bytes(func() { a, err = NewReader(bytes.NewReader(b), int64(len(b)), "names.mpq", budget.Limits{}) })
	if err != nil {
		t.Fatal(err)
	}
	if n > 1<<20 {
		t.Errorf("opening with a list of %d names allocated %d bytes", names, n)
	}
	if f, ok := a.Lookup("a"); !ok || a.files[1].Name != "a" || f.Size != int64(len("the one listed file")) {
		t.Errorf("the listed file is not named: %+v", a.files)
	}
	if w := a.Warnings(); len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}
}

// TestListfileReadLimit: a (listfile) over the read limit is not read,
// with a warning that carries the budget's error.
func TestListfileReadLimit(t *testing.T) {
	b := hostile.MPQListfileBomb(3, 5000)
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "names.mpq", budget.Limits{ReadBytes: 9999})
	if err != nil {
		t.Fatal(err)
	}
	if a.files[1].Name != "" {
		t.Errorf("named from a list over the read limit: %q", a.files[1].Name)
	}
	w := a.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "names.mpq:(listfile)") || !strings.Contains(w[0], "read_bytes") {
		t.Errorf("warnings: %q", w)
	}
	// Within the limit the same list names the file.
	if a, err = NewReader(bytes.NewReader(b), int64(len(b)), "names.mpq", budget.Limits{ReadBytes: 10000}); err != nil || a.files[1].Name != "a" {
		t.Errorf("within the limit: %v, %+v", err, a.files)
	}
}

// BenchmarkListfileBomb opens the full-size case: 16 Mi one-letter names
// (32 MiB of list in a few tens of kilobytes of archive).
func BenchmarkListfileBomb(b *testing.B) {
	data := hostile.MPQListfileBomb(10, 16<<20)
	b.Logf("archive of %d bytes", len(data))
	b.ReportAllocs()
	for b.Loop() {
		a, err := NewReader(bytes.NewReader(data), int64(len(data)), "bomb.mpq", budget.Limits{})
		if err != nil || a.files[1].Name != "a" {
			b.Fatal(err, fmt.Sprint(a.files))
		}
	}
}

// A (listfile) that cannot be read leaves one warning that says where
// in the archive it went wrong without naming the archive and the list
// twice (the warning names them already).
func TestListfileCorruptWarning(t *testing.T) {
	// Compressed, in sectors, with an offset table that points far past
	// the block.
	table := []byte{0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f}
	b := hostile.MPQ(3,
		[]hostile.MPQBlock{{Raw: table, Size: 5000, Flags: FlagExists | FlagCompress}, {Raw: []byte("data"), Size: 4, Flags: FlagExists}},
		[]hostile.MPQName{{Name: "(listfile)", Block: 0}, {Name: "real", Block: 1}})
	a, err := NewReader(bytes.NewReader(b), int64(len(b)), "names.mpq", budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	w := a.Warnings()
	if len(w) != 1 || !strings.HasPrefix(w[0], "(listfile) is unreadable: at offset 0x") || strings.Contains(w[0], "names.mpq") {
		t.Errorf("warnings: %q", w)
	}
}
