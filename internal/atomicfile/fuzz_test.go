package atomicfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzWriteName writes a file under any name: the name is refused, or the
// file lands inside the folder and reads back; nothing appears beside it,
// and no temporary file is left.
func FuzzWriteName(f *testing.F) {
	for _, s := range []string{"a.png", "x/y/z.png", "../x", "/etc/x", "a//b", "./a", "link/a", "C:/x", `a\b`, "a\x00b", "..", "a/.."} {
		f.Add(s)
	}
	parent := f.TempDir()
	dir := filepath.Join(parent, "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "link")); err != nil {
		f.Skipf("no symbolic links here: %v", err)
	}
	f.Fuzz(func(t *testing.T, name string) {
		d, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.WriteFile(context.Background(), name, []byte("x")); err == nil {
			if b, err := d.ReadFile(name); err != nil || string(b) != "x" {
				t.Fatalf("%q written but reads back %q, %v", name, b, err)
			}
			if err := d.Remove(name); err != nil {
				t.Fatal(err)
			}
		}
		ents, _ := os.ReadDir(parent)
		if len(ents) != 1 {
			t.Fatalf("writing %q put %d entries beside the folder", name, len(ents)-1)
		}
		if err := d.SweepTemp(); err != nil {
			t.Fatal(err)
		}
		filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && IsTemp(e.Name()) {
				t.Fatalf("writing %q left %s", name, p)
			}
			return nil
		})
	})
}
