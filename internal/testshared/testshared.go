// Package testshared finds the shared folder of corpus files and reference
// renders that lives beside the repository (../shared, or $MDXR_SHARED).
// The folder is not part of the repository, so tests that need it skip
// cleanly without it.
package testshared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root is where the shared folder is expected: $MDXR_SHARED when set,
// otherwise "shared" beside the module's root (the nearest folder above
// the working directory that holds go.mod). Root does not check that the
// folder is there; Dir does.
func Root() string {
	if d := os.Getenv("MDXR_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared")
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared")
		}
		up := filepath.Dir(d)
		if up == d {
			return filepath.Join("..", "shared")
		}
		d = up
	}
}

// Dir returns Root, skipping t when the file at the slash-separated path
// mark inside it (e.g. "corpus/manifest.tsv") is not there.
func Dir(t testing.TB, mark string) string {
	t.Helper()
	d := Root()
	if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(mark))); err != nil {
		t.Skipf("shared folder not available (%v); set MDXR_SHARED", err)
	}
	return d
}

// Corpus is Dir for tests of the corpus: it skips t without
// corpus/manifest.tsv.
func Corpus(t testing.TB) string {
	t.Helper()
	return Dir(t, "corpus/manifest.tsv")
}

// ReadTSV reads a tab-separated file whose first line names the columns,
// as the shared folder's manifests and job lists are, as one map from
// column name to value per row. It fails t when the file cannot be read.
func ReadTSV(t testing.TB, path string) []map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	var rows []map[string]string
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		fields := strings.Split(strings.TrimSuffix(line, "\r"), "\t")
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
	return rows
}

// CorpusFile is one row of corpus/manifest.tsv.
type CorpusFile struct {
	Path    string // the file's path from the test's working directory
	Rel     string // local_path column, e.g. files/HiveWE/...
	Magic   string
	Version string
	Note    string
}

// CorpusFiles lists the corpus manifest's rows, skipping t when the
// shared folder is absent.
func CorpusFiles(t testing.TB) []CorpusFile {
	t.Helper()
	dir := Corpus(t)
	var out []CorpusFile
	for _, r := range ReadTSV(t, filepath.Join(dir, "corpus", "manifest.tsv")) {
		out = append(out, CorpusFile{
			Path: filepath.Join(dir, "corpus", r["local_path"]), Rel: r["local_path"],
			Magic: r["magic"], Version: r["version"], Note: r["note"],
		})
	}
	return out
}

// Malformed reports whether the manifest marks the file as intentionally
// invalid (HiveWE's broken fixtures).
func (c CorpusFile) Malformed() bool {
	if !strings.Contains(c.Note, "intentionally invalid") {
		return false
	}
	base := strings.ToLower(filepath.Base(c.Rel))
	for _, w := range []string{"bad_", "overflow", "short", "truncated", "huge", "cycle"} {
		if strings.Contains(base, w) {
			return true
		}
	}
	return false
}
