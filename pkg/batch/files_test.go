package batch

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Outputs are complete when they appear, readable by others like any file
// os.WriteFile makes, and a cancelled write leaves the old file alone.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "a.png")
	if err := WriteFileAtomic(context.Background(), name, []byte("one")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
		t.Errorf("output mode %v, want -rw-r--r--", st.Mode().Perm())
	}
	if err := WriteFileAtomic(context.Background(), name, []byte("two")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WriteFileAtomic(ctx, name, []byte("three")); err == nil {
		t.Error("a cancelled write succeeded")
	}
	if b, _ := os.ReadFile(name); string(b) != "two" {
		t.Errorf("content %q, want the last complete write", b)
	}
	ents, _ := os.ReadDir(filepath.Dir(name))
	for _, e := range ents {
		if strings.Contains(e.Name(), tempMarker) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
