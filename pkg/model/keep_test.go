package model

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/bitdiff"
	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestLoadKeepsNoBytes: the front door hands its read buffer to the
// next load (fileBufs) once an MDX or MDL file is decoded, which is right
// only if the decoded model keeps none of the file's bytes. Each model is
// decoded from a copy of its file that is then overwritten, and must stay
// equal, bit for bit, to the model decoded from a copy left alone. The
// repository's models run always; the shared corpus's, when it is there:
// every 4th of each format and MDX version by default, all with
// MDXR_FULL=1.
func TestLoadKeepsNoBytes(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../../testdata/models", "../../testdata/mpq/src/models", "../../cmd/mdxrender/demo"} {
		paths = append(paths, modelFiles(t, dir)...)
	}
	if len(paths) < 5 {
		t.Fatalf("found %d models in the repository's test data", len(paths))
	}
	d := testshared.Root()
	repo := len(paths)
	if _, err := os.Stat(filepath.Join(d, "corpus", "files")); err == nil {
		paths = append(paths, modelFiles(t, filepath.Join(d, "corpus", "files"))...)
	}
	sample := sweep.New(4)
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if i >= repo && !sample.Take(modelKind(b)) {
			continue
		}
		if err := keepsNoBytes(b, p); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d repository models, corpus models %s", repo, sample)
}

// modelKind is an MDX file's version (its VERS chunk comes first), or
// "MDL" for a text file.
func modelKind(b []byte) string {
	if len(b) >= 16 && string(b[:8]) == "MDLXVERS" {
		return fmt.Sprintf("MDX %d", binary.LittleEndian.Uint32(b[12:]))
	}
	if len(b) >= 4 && string(b[:4]) == "MDLX" {
		return "MDX"
	}
	return "MDL"
}

// keepsNoBytes decodes b twice, from two copies, overwrites the second
// copy, and says how the second model (or error) then differs from the
// first, if it does.
func keepsNoBytes(b []byte, name string) error {
	want, werr := Load(bytes.Clone(b), name, budget.Limits{})
	c := bytes.Clone(b)
	got, gerr := Load(c, name, budget.Limits{})
	for i := range c {
		c[i] ^= 0xa5
	}
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		return fmt.Errorf("%s: error %v after the bytes changed, %v before", name, gerr, werr)
	}
	if d := bitdiff.Diff(want, got, 1, true); len(d) > 0 {
		return fmt.Errorf("%s: the decoded model changed with its file's bytes, at %s", name, d[0])
	}
	return nil
}

// modelFiles lists the MDX and MDL files under dir (M2 files keep their
// bytes and are not pooled).
func modelFiles(t testing.TB, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".mdx" || ext == ".mdl") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzLoadKeepsNoBytes is TestLoadKeepsNoBytes for any bytes: what
// Load makes of an MDX or MDL file, or the error it gives, must not
// change when the file's bytes change after it returns.
func FuzzLoadKeepsNoBytes(f *testing.F) {
	for _, dir := range []string{"../../testdata/models", "../../cmd/mdxrender/demo"} {
		for _, p := range modelFiles(f, dir) {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if Detect(b) == FormatM2 {
			return // an M2 File keeps its bytes, and is not pooled
		}
		if err := keepsNoBytes(b, "fuzz"); err != nil {
			t.Fatal(err)
		}
	})
}
