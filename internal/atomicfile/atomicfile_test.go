package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// names lists the entries of dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*")) // "*" matches dot files too
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

// Written files are complete when they appear, readable by others, and the
// temporary file is the only other entry while the write runs.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.png")
	if err := WriteFile(context.Background(), name, []byte("one")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want -rw-r--r--", st.Mode().Perm())
	}
	var during []string
	err = Write(context.Background(), name, func(w io.Writer) error {
		during = names(t, dir)
		_, err := io.WriteString(w, "two")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "two" {
		t.Errorf("content %q, want two", b)
	}
	if len(during) != 2 || during[0] != "a.png" && during[1] != "a.png" {
		t.Fatalf("folder during the write: %v, want a.png and one temporary file", during)
	}
	for _, n := range during {
		if (n == "a.png") == IsTemp(n) {
			t.Errorf("IsTemp(%q) = %v", n, IsTemp(n))
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.png"}) {
		t.Errorf("folder holds %v after the write", got)
	}
}

// A write that fails, after part of the data reached the temporary file,
// leaves the old file untouched and no temporary file behind.
func TestFailedWriteLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.mdx")
	boom := errors.New("boom")
	if err := WriteFile(context.Background(), name, []byte("old")); err != nil {
		t.Fatal(err)
	}
	err := Write(context.Background(), name, func(w io.Writer) error {
		// More than the buffer, so part of it reaches the file.
		if _, err := w.Write(make([]byte, 200000)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("file changed to %d bytes", len(b))
	}
	if got := names(t, dir); !slices.Equal(got, []string{"out.mdx"}) {
		t.Errorf("folder holds %v: temporary file left behind", got)
	}
}

// A write cancelled before the rename keeps the last complete content.
func TestCancelledWriteLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "m.json")
	if err := WriteFile(context.Background(), name, []byte("done")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WriteFile(ctx, name, []byte("half")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write: err = %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "done" {
		t.Errorf("content %q, want the last complete write", b)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"m.json"}) {
		t.Errorf("folder holds %v", got)
	}
}

// A rename that fails (the target is a folder) removes the temporary file;
// a missing folder is an error, not created.
func TestFileSystemErrors(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(context.Background(), target, []byte("x")); err == nil {
		t.Error("replacing a folder succeeded")
	}
	if got := names(t, dir); !slices.Equal(got, []string{"taken"}) {
		t.Errorf("folder holds %v after a failed rename", got)
	}
	if err := WriteFile(context.Background(), filepath.Join(dir, "no", "such", "f"), nil); err == nil {
		t.Error("write into a missing folder succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing folder was created: %v", err)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".a.png.mdxr-tmp-123":         true,
		"out/units/.b.gif.mdxr-tmp-9": true,
		"a.png":                       false,
		"out/.mdxrender-cache/a.json": false,
	} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestGroup(t *testing.T) {
	dir := t.TempDir()
	var g Group
	for i := range 5 {
		name := filepath.Join(dir, fmt.Sprintf("f%d.txt", i))
		if err := g.Write(context.Background(), name, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "file %d", i)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	// A failed write in a group leaves nothing behind either.
	if err := g.Write(context.Background(), filepath.Join(dir, "bad.txt"), func(w io.Writer) error { return errors.New("boom") }); err == nil {
		t.Fatal("a failed write returned no error")
	}
	if err := g.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := syncFiles([]string{filepath.Join(dir, "f0.txt")}); err != nil {
		t.Fatal(err)
	}
	got := names(t, dir)
	if len(got) != 5 || got[0] != "f0.txt" {
		t.Fatalf("folder holds %v", got)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "f3.txt"))
	if string(b) != "file 3" {
		t.Errorf("f3.txt holds %q", b)
	}
}
