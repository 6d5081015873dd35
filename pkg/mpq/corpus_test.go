package mpq

import (
	"crypto/md5"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// knownUnreadable lists the files of the shared archives this reader
// refuses, with the reason; every other file must read.
var knownUnreadable = map[string]string{
	// SINGLE_UNIT files in a map: Warcraft III's Storm does not know the
	// flag, StormLib clears it for maps, and read as sectored files their
	// zlib streams make a corrupt sector table.
	"JMPQ3/buildtest.w3x|war3map.j":  "format",
	"JMPQ3/buildtest.w3x|(listfile)": "format",
}

func TestCorpusArchives(t *testing.T) {
	for _, ca := range corpusArchives(t) {
		t.Run(ca.rel, func(t *testing.T) {
			a, err := Open(ca.path, budget.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if want, _ := strconv.ParseInt(ca.offset, 10, 64); a.Header().Offset != want {
				t.Errorf("header at %d, manifest says %d", a.Header().Offset, want)
			}
			files := a.Files()
			if want, _ := strconv.Atoi(ca.files); len(files) != want {
				t.Errorf("%d files, manifest says %d", len(files), want)
			}
			crcs, md5s := attributes(t, a)
			read, checked := 0, 0
			for _, f := range files {
				key := ca.rel + "|" + f.Name
				data, err := f.ReadAll()
				if why, ok := knownUnreadable[key]; ok {
					var fe *FormatError
					var ue *UnsupportedError
					if why == "unsupported" && !errors.As(err, &ue) || why == "format" && !errors.As(err, &fe) {
						t.Errorf("%s: want a %s error, got %v", f.label(), why, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", f.label(), err)
					continue
				}
				if int64(len(data)) != f.Size {
					t.Errorf("%s: read %d bytes, size %d", f.label(), len(data), f.Size)
				}
				// Streaming must give the same bytes as ReadAll.
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				streamed, err := io.ReadAll(struct{ io.Reader }{rc})
				rc.Close()
				if err != nil || string(streamed) != string(data) {
					t.Errorf("%s: streamed read differs (%v)", f.label(), err)
				}
				// (attributes) holds a CRC32 and maybe an MD5 per block; it
				// leaves them zero for itself and the signature.
				if c, ok := crcs[f.BlockIndex]; ok && c != 0 && f.Name != "(signature)" {
					checked++
					if got := crc32.ChecksumIEEE(data); got != c {
						t.Errorf("%s: CRC32 %08x, (attributes) says %08x", f.label(), got, c)
					}
				}
				if m, ok := md5s[f.BlockIndex]; ok && m != ([16]byte{}) && f.Name != "(signature)" {
					if got := md5.Sum(data); got != m {
						t.Errorf("%s: MD5 differs from (attributes)", f.label())
					}
				}
				read++
			}
			// Every listed name opens through the fs.FS view.
			n := 0
			err = fs.WalkDir(a, ".", func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() {
					n++
					if _, err := fs.Stat(a, strings.ToUpper(p)); err != nil {
						t.Errorf("stat %s: %v", strings.ToUpper(p), err)
					}
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
			t.Logf("%d entries, %d read (%d against (attributes) CRCs), %d names in the tree, warnings %q", len(files), read, checked, n, a.Warnings())
		})
	}
}

// attributes parses the archive's (attributes), if any, into per-block
// CRC32s and MD5s.
func attributes(t *testing.T, a *Archive) (map[int]uint32, map[int][16]byte) {
	data, err := a.ReadFile("(attributes)")
	if err != nil {
		return nil, nil
	}
	if len(data) < 8 {
		t.Fatalf("(attributes) is %d bytes", len(data))
	}
	flags := binary.LittleEndian.Uint32(data[4:])
	n := int(a.Header().BlockEntriesRead)
	crcs, md5s := map[int]uint32{}, map[int][16]byte{}
	p := data[8:]
	if flags&1 != 0 {
		if len(p) < 4*n {
			t.Fatalf("(attributes) too short for %d CRCs", n)
		}
		for i := 0; i < n; i++ {
			crcs[i] = binary.LittleEndian.Uint32(p[4*i:])
		}
		p = p[4*n:]
	}
	if flags&2 != 0 {
		if len(p) < 8*n {
			t.Fatalf("(attributes) too short for %d times", n)
		}
		p = p[8*n:]
	}
	if flags&4 != 0 {
		if len(p) < 16*n {
			t.Fatalf("(attributes) too short for %d MD5s", n)
		}
		for i := 0; i < n; i++ {
			md5s[i] = [16]byte(p[16*i:])
		}
	}
	return crcs, md5s
}
