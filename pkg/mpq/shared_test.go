package mpq

import (
	"path/filepath"
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
	var out []corpusArchive
	for _, row := range testshared.ReadTSV(t, filepath.Join(dir, "manifest.tsv")) {
		out = append(out, corpusArchive{
			path:   filepath.Join(dir, row["local_path"]),
			rel:    row["local_path"],
			offset: row["mpq_offset"],
			files:  row["files"],
		})
	}
	if len(out) == 0 {
		t.Skip("manifest lists no archives")
	}
	return out
}
