// Package testshared finds the shared folder of corpus files and reference
// renders that lives beside the repository (../shared, or $MDXR_SHARED).
// The folder is not part of the repository, so tests that need it skip
// cleanly without it.
package testshared

import (
	"os"
	"path/filepath"
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
