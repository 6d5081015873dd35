package texture

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns ../shared (or $MDXR_SHARED), skipping the test when it
// is not there: the corpus and references are not part of the repository.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MDXR_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "corpus", "manifest.tsv")); err != nil {
		t.Skipf("shared material not available (%v); set MDXR_SHARED", err)
	}
	return dir
}

// readTSV returns the rows of a tab-separated file with a header line, as
// maps from column name to value.
func readTSV(t testing.TB, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cols []string
	var rows []map[string]string
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
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}
