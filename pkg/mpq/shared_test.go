package mpq

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// corpusArchive is one row of corpus/archives/manifest.tsv.
type corpusArchive struct {
	path   string // absolute
	rel    string // as in the manifest
	offset string
	files  string
}

// corpusArchives lists the shared archives, skipping when there are none.
func corpusArchives(t testing.TB) []corpusArchive {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(testshared.Dir(t, "corpus/archives/manifest.tsv"), "corpus", "archives"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cols []string
	var out []corpusArchive
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = fields
			continue
		}
		row := map[string]string{}
		for i, c := range cols {
			if i < len(fields) {
				row[c] = fields[i]
			}
		}
		out = append(out, corpusArchive{
			path:   filepath.Join(dir, row["local_path"]),
			rel:    row["local_path"],
			offset: row["mpq_offset"],
			files:  row["files"],
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Skip("manifest lists no archives")
	}
	return out
}
