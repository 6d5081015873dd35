package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// writeArchive writes an archive's bytes as dir/name and returns its path.
func writeArchive(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// symlinkOrSkip makes a symbolic link or skips the test where there are
// none.
func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// filesBelow lists the files (and links) below dir, slash paths, sorted.
func filesBelow(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// An output folder may hold links planted before the extraction: a folder
// link inside it is not written through, wherever it leads, and is named;
// a link in the place of a file is replaced by the file.
func TestArchiveExtractRefusesLinks(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	elsewhere := filepath.Join(parent, "elsewhere")
	for _, d := range []string{filepath.Join(out, "sub"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(parent, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlinkOrSkip(t, filepath.Join("..", "elsewhere"), filepath.Join(out, "link"))
	symlinkOrSkip(t, "sub", filepath.Join(out, "inner"))
	symlinkOrSkip(t, filepath.Join("..", "..", "victim.txt"), filepath.Join(out, "ok", "fine.txt"))
	names := []string{`link\pwned.txt`, `link\deep\pwned.txt`, `inner\also.txt`, `ok\fine.txt`}
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = []byte("from the archive")
	}
	arch := writeArchive(t, parent, "x.mpq", hostile.MPQFiles(files, names))
	stdout, stderr, code := run(t, "archive", "extract", arch, "-o", out)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, link := range []string{"link", "inner"} {
		want := filepath.Join(out, link) + ": a symbolic link inside the output folder; not followed"
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, ".mdxr-tmp-") {
		t.Errorf("stderr names a temporary file:\n%s", stderr)
	}
	if got := filesBelow(t, elsewhere); len(got) != 0 {
		t.Errorf("written through the link, outside the output folder: %v", got)
	}
	if got := filesBelow(t, filepath.Join(out, "sub")); len(got) != 0 {
		t.Errorf("written through the inner link: %v", got)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the file link's target was overwritten: %q", b)
	}
	fi, err := os.Lstat(filepath.Join(out, "ok", "fine.txt"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("ok/fine.txt is not the extracted file: %v, %v", fi, err)
	}
	if !strings.Contains(stdout, "extracted 2 files") { // ok\fine.txt and (listfile)
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}
