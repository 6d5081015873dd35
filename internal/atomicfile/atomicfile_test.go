package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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

// open opens dir as a Dir closed at the end of the test.
func open(t *testing.T, dir string) *Dir {
	t.Helper()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// symlink makes a symbolic link or skips the test where there are none.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// Written files are complete when they appear, readable by others, and the
// temporary file is the only other entry while the write runs.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir)
	name := filepath.Join(dir, "a.png")
	if err := d.WriteFile(context.Background(), "a.png", []byte("one")); err != nil {
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
	err = d.Write(context.Background(), "a.png", func(w io.Writer) error {
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
	d := open(t, dir)
	boom := errors.New("boom")
	if err := d.WriteFile(context.Background(), "out.mdx", []byte("old")); err != nil {
		t.Fatal(err)
	}
	err := d.Write(context.Background(), "out.mdx", func(w io.Writer) error {
		// More than the buffer, so part of it reaches the file.
		if _, err := w.Write(make([]byte, 200000)); err != nil {
			return err
		}
		return boom
	})
	if err != boom {
		t.Fatalf("err = %v, want boom as it is", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out.mdx")); string(b) != "old" {
		t.Errorf("file changed to %d bytes", len(b))
	}
	if got := names(t, dir); !slices.Equal(got, []string{"out.mdx"}) {
		t.Errorf("folder holds %v: temporary file left behind", got)
	}
}

// A write cancelled before the rename keeps the last complete content.
func TestCancelledWriteLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir)
	if err := d.WriteFile(context.Background(), "m.json", []byte("done")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.WriteFile(ctx, "m.json", []byte("half")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write: err = %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.json")); string(b) != "done" {
		t.Errorf("content %q, want the last complete write", b)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"m.json"}) {
		t.Errorf("folder holds %v", got)
	}
}

// A rename that fails (the target is a folder) removes the temporary
// file, and the error names the target, not the temporary file. Missing
// folders are created on the way; a file where a folder should be is an
// error.
func TestFileSystemErrors(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir)
	if err := os.MkdirAll(filepath.Join(dir, "taken", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := d.WriteFile(context.Background(), "taken", []byte("x"))
	if err == nil {
		t.Fatal("replacing a folder succeeded")
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, "taken")) || strings.Contains(err.Error(), marker) {
		t.Errorf("error %q should name the target and not the temporary file", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"taken"}) {
		t.Errorf("folder holds %v after a failed rename", got)
	}
	if err := d.WriteFile(context.Background(), "no/such/f", []byte("deep")); err != nil {
		t.Errorf("write into missing folders: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "no", "such", "f")); string(b) != "deep" {
		t.Errorf("no/such/f holds %q", b)
	}
	err = d.WriteFile(context.Background(), "no/such/f/g", nil)
	if err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file on the way: %v", err)
	}
}

// Names that are not plain paths inside the folder are refused before
// anything is written.
func TestNamesStayInside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	d, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"../x", "/x", "a//b", "./a", "a/./b", ".", "", "a/", "a/../../x", "..", "/", "a\x00b"} {
		err := d.WriteFile(context.Background(), name, []byte("x"))
		if !errors.Is(err, errNotLocal) {
			t.Errorf("%q: %v, want refused", name, err)
		}
		if err := d.MkdirAll(name); err == nil {
			t.Errorf("MkdirAll(%q) succeeded", name)
		}
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Errorf("parent holds %v", got)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("folder holds %v", got)
	}
}

// A symbolic link on the way to a file is refused wherever it leads, and
// named; nothing is written through it.
func TestLinkOnTheWay(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	elsewhere := filepath.Join(parent, "elsewhere")
	for _, p := range []string{filepath.Join(dir, "sub"), elsewhere} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, filepath.Join("..", "elsewhere"), filepath.Join(dir, "link"))
	symlink(t, "sub", filepath.Join(dir, "inner")) // stays inside, still refused
	d := open(t, dir)
	for _, c := range []struct{ name, link string }{
		{"link/pwned.txt", "link"}, {"link/a/b/pwned.txt", "link"}, {"inner/x.png", "inner"},
	} {
		check := func(what string, err error) {
			t.Helper()
			var se *SymlinkError
			if !errors.As(err, &se) || se.Path != filepath.Join(dir, c.link) {
				t.Errorf("%s %s: %v, want a SymlinkError naming %s", what, c.name, err, filepath.Join(dir, c.link))
			}
			if err != nil && !strings.Contains(err.Error(), filepath.Join(dir, c.link)+": a symbolic link inside the output folder; not followed") {
				t.Errorf("%s %s: message %q", what, c.name, err)
			}
		}
		check("Write", d.WriteFile(context.Background(), c.name, []byte("x")))
		g := d.Group()
		check("Group.Write", g.WriteFile(context.Background(), c.name, []byte("x")))
		check("MkdirAll", d.MkdirAll(c.name))
		check("Remove", d.Remove(c.name))
		_, err := d.ReadFile(c.name)
		check("ReadFile", err)
		_, err = d.OpenFile(c.name, os.O_RDWR|os.O_CREATE, 0o644)
		check("OpenFile", err)
	}
	if got := names(t, elsewhere); len(got) != 0 {
		t.Errorf("written through the link: %v", got)
	}
	if got := names(t, filepath.Join(dir, "sub")); len(got) != 0 {
		t.Errorf("written through the inner link: %v", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"inner", "link", "sub"}) {
		t.Errorf("output folder holds %v", got)
	}
}

// A link at the final name is replaced by the new file; its target is
// left alone. OpenFile and ReadFile refuse it.
func TestLinkAtTheName(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(parent, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, victim, filepath.Join(dir, "a.png"))
	d := open(t, dir)
	var se *SymlinkError
	if _, err := d.ReadFile("a.png"); !errors.As(err, &se) {
		t.Errorf("ReadFile of a link: %v", err)
	}
	if _, err := d.OpenFile("a.png", os.O_RDWR, 0); !errors.As(err, &se) {
		t.Errorf("OpenFile of a link: %v", err)
	}
	if err := d.WriteFile(context.Background(), "a.png", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target now holds %q", b)
	}
	fi, err := os.Lstat(filepath.Join(dir, "a.png"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("a.png is not a regular file now: %v %v", fi, err)
	}
}

// A target name too long to repeat whole in the temporary file's name is
// still written.
func TestLongName(t *testing.T) {
	d := open(t, t.TempDir())
	name := strings.Repeat("é", 120) + ".png" // 244 bytes
	if err := d.WriteFile(context.Background(), name, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := d.ReadFile(name); err != nil || string(b) != "x" {
		t.Errorf("read back %q, %v", b, err)
	}
}

// Names need not be UTF-8: archives' names are often in a code page.
func TestNonUTF8Names(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("this file system wants names in Unicode")
	}
	dir := t.TempDir()
	d := open(t, dir)
	name := "\xc7\xd1\xb1\xdb/\xb8\xf0\xb5\xa8.mdx" // CP949 bytes
	if err := d.WriteFile(context.Background(), name, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "\xc7\xd1\xb1\xdb", ".x"+marker+"1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.SweepTemp(); err != nil {
		t.Fatal(err)
	}
	es, err := d.ReadDir("\xc7\xd1\xb1\xdb")
	if err != nil || len(es) != 1 || es[0].Name() != "\xb8\xf0\xb5\xa8.mdx" {
		t.Errorf("ReadDir: %v, %v", es, err)
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

// SweepTemp removes temporary files at every depth, and nothing else,
// and does not enter linked folders.
func TestSweepTemp(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	elsewhere := filepath.Join(parent, "elsewhere")
	for p, s := range map[string]string{
		"out/a.png": "a", "out/.a.png.mdxr-tmp-1": "", "out/x/y/.b.mdxr-tmp-2": "", "out/x/y/b": "b",
		"elsewhere/.c.mdxr-tmp-3": "",
	} {
		p = filepath.Join(parent, filepath.FromSlash(p))
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, []byte(s), 0o644)); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, elsewhere, filepath.Join(dir, "link"))
	d := open(t, dir)
	if err := d.SweepTemp(); err != nil {
		t.Fatal(err)
	}
	var left []string
	filepath.WalkDir(parent, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(parent, p)
			left = append(left, filepath.ToSlash(rel))
		}
		return nil
	})
	want := []string{"elsewhere/.c.mdxr-tmp-3", "out/a.png", "out/link", "out/x/y/b"}
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}

// WriteNamed writes the one file a user named, in its folder.
func TestWriteNamed(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.png")
	if err := WriteNamed(context.Background(), name, writeData([]byte("x"))); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "x" {
		t.Errorf("x.png holds %q", b)
	}
	if err := WriteNamed(context.Background(), filepath.Join(dir, "missing", "x.png"), writeData(nil)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing folder: %v", err)
	}
	if err := WriteNamed(context.Background(), dir+string(filepath.Separator), writeData(nil)); err == nil {
		t.Error("a folder name was written")
	}
}

func TestGroup(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir)
	g := d.Group()
	for i := range 5 {
		if err := g.Write(context.Background(), fmt.Sprintf("f%d.txt", i), func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "file %d", i)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	// A failed write in a group leaves nothing behind either.
	if err := g.Write(context.Background(), "bad.txt", func(w io.Writer) error { return errors.New("boom") }); err == nil {
		t.Fatal("a failed write returned no error")
	}
	if err := g.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := syncFiles([]string{"f0.txt"}, g.open); err != nil {
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
	// A file gone before the flush is an error naming it.
	g.WriteFile(context.Background(), "gone.txt", nil)
	os.Remove(filepath.Join(dir, "gone.txt"))
	if err := g.Sync(); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "gone.txt") {
		t.Errorf("flushing a removed file: %v", err)
	}
}
