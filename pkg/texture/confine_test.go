package texture

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// confineTree makes a texture root whose links lead to a folder outside
// it in every way a link can (a folder link, a relative and an absolute
// file link, a link several folders down, a link to a link), plus links
// that stay inside, relative and absolute; it returns the root and the
// outside folder.
func confineTree(t *testing.T, base string) (root, outside string) {
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	writeTGA(t, filepath.Join(outside, "secret.tga"), [3]uint8{9, 9, 9})
	writeTGA(t, filepath.Join(outside, "Textures", "deep.tga"), [3]uint8{9, 9, 9})
	writeTGA(t, filepath.Join(root, "ok.tga"), [3]uint8{1, 1, 1})
	writeTGA(t, filepath.Join(root, "Textures", "real.tga"), [3]uint8{2, 2, 2})
	for link, target := range map[string]string{
		"sub":                outside,
		"rel.tga":            filepath.Join("..", "outside", "secret.tga"),
		"abs.tga":            filepath.Join(outside, "secret.tga"),
		"Textures/up":        filepath.Join("..", "..", "outside", "Textures"),
		"hop":                "sub",
		"inside.tga":         "ok.tga",
		"absinside.tga":      filepath.Join(root, "ok.tga"),
		"Textures/back.tga":  filepath.Join("..", "ok.tga"),
		"Textures/loop1.tga": "loop2.tga",
		"Textures/loop2.tga": "loop1.tga",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return root, outside
}

// confineLookups looks up, lists and opens through the links of
// confineTree as a model's textures would, and checks that what leads
// outside is refused without naming the outside folder, while links that
// stay inside are followed.
func confineLookups(t *testing.T, root, outside string) {
	r := &Resolver{Sources: []Source{Folder(root)}}
	for _, p := range []string{`sub\secret.tga`, `SUB\Secret.blp`, `rel.tga`, `abs.tga`, `Textures\up\deep.tga`,
		`textures\UP\Deep.blp`, `hop\secret.tga`, `sub\Textures\deep.tga`, `Textures\loop1.tga`,
		`absinside.tga`, // an absolute link is refused even when it points inside (os.Root's rule)
	} {
		tex, warns := r.Load(Request{Path: p})
		if colourOf(t, tex) != [3]uint8{255, 255, 255} || len(warns) != 1 {
			t.Errorf("%q: got %v, %v; want refused", p, colourOf(t, tex), warns)
		}
		for _, w := range warns {
			if strings.Contains(w.String(), outside) {
				t.Errorf("%q: the warning names the outside folder: %s", p, w)
			}
		}
	}
	for p, want := range map[string]uint8{"inside.tga": 1, `Textures\back.tga`: 1, `textures\REAL.blp`: 2} {
		if tex, warns := r.Load(Request{Path: p}); colourOf(t, tex)[0] != want {
			t.Errorf("%q (stays inside): %v %v", p, colourOf(t, tex), warns)
		}
	}
	fsys := Folder(root).FS
	for _, name := range []string{"sub", "hop", "Textures/up"} {
		if _, err := fs.ReadDir(fsys, name); err == nil || strings.Contains(err.Error(), outside) {
			t.Errorf("ReadDir %s: %v", name, err)
		}
		if _, err := fs.Stat(fsys, name); err == nil {
			t.Errorf("Stat %s: followed", name)
		}
	}
	if _, err := fsys.Open("sub/secret.tga"); err == nil {
		t.Error("Open sub/secret.tga: followed")
	}
}

// TestFolderConfinement runs confineLookups in the test process.
func TestFolderConfinement(t *testing.T) {
	root, outside := confineTree(t, t.TempDir())
	confineLookups(t, root, outside)
}

// TestFolderNeverTouchesOutside runs the lookups of TestFolderConfinement
// under strace and checks that no system call named a path in the outside
// folder: it was never opened, listed or even statted, only the links
// pointing at it read. It skips without strace (or where it cannot trace).
func TestFolderNeverTouchesOutside(t *testing.T) {
	if base := os.Getenv("MDXR_CONFINE_BASE"); base != "" {
		// The traced child: the tree exists; look it up.
		confineLookups(t, filepath.Join(base, "root"), filepath.Join(base, "outside"))
		return
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace not installed")
	}
	base := t.TempDir()
	_, outside := confineTree(t, base)
	log := filepath.Join(t.TempDir(), "strace.log")
	cmd := exec.Command(strace, "-f", "-qq", "-o", log, "-e", "trace=%file,getdents64",
		os.Args[0], "-test.run=^TestFolderNeverTouchesOutside$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MDXR_CONFINE_BASE="+base)
	out, err := cmd.CombinedOutput()
	b, rerr := os.ReadFile(log)
	if rerr != nil || len(b) == 0 {
		t.Skipf("strace could not trace the test (%v): %s", err, out)
	}
	if err != nil {
		t.Fatalf("the traced lookups failed: %v\n%s", err, out)
	}
	// The first path argument of each call (readlinkat's second string is
	// the link's target, which is read, not followed).
	call := regexp.MustCompile(`^\d+\s+(\w+)\((?:[A-Z_]+|\d+), "([^"]*)"|^\d+\s+(\w+)\("([^"]*)"`)
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		m := call.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n++
		if p := m[2] + m[4]; p == outside || strings.HasPrefix(p, outside+string(filepath.Separator)) {
			t.Errorf("touched the outside folder: %s", line)
		}
	}
	if n == 0 {
		t.Skip("strace logged no file system calls")
	}
	t.Logf("%d file system calls traced", n)
}

// TestFolderKeepsItsRealPath checks that a Folder resolves the links in
// its own path once: after a lookup, moving a link in that path to
// another folder does not move the Source (a new Folder follows it), and
// Stat and Open report the file as os.Stat does.
func TestFolderKeepsItsRealPath(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, d, "x.txt"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cur := filepath.Join(base, "cur")
	if err := os.Symlink("a", cur); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	src := Folder(cur)
	read := func(s Source) string {
		t.Helper()
		b, err := fs.ReadFile(s.FS, "x.txt")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read(src); got != "a" {
		t.Fatalf("read %q through the link to a", got)
	}
	if err := os.Remove(cur); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b", cur); err != nil {
		t.Fatal(err)
	}
	if got := read(src); got != "a" {
		t.Fatalf("the Source moved with the link: read %q", got)
	}
	if got := read(Folder(cur)); got != "b" {
		t.Fatalf("a new Folder read %q, not b", got)
	}
	st, err := fs.Stat(src.FS, "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(filepath.Join(base, "a", "x.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Name() != want.Name() || st.Size() != want.Size() || st.Mode() != want.Mode() || !st.ModTime().Equal(want.ModTime()) {
		t.Fatalf("Stat gives %v %d %v %v, os.Stat %v %d %v %v", st.Name(), st.Size(), st.Mode(), st.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
	}
	if _, err := fs.Stat(src.FS, "missing.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat of a missing file: %v", err)
	}
}
