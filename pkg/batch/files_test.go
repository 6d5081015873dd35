package batch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// Outputs go into folders made on the way, and a cancelled write leaves the
// old file alone with an error naming it (the writer itself is tested in
// internal/atomicfile).
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "a.png")
	if err := WriteFileAtomic(context.Background(), name, []byte("two")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := WriteFileAtomic(ctx, name, []byte("three"))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), name) {
		t.Errorf("a cancelled write: %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "two" {
		t.Errorf("content %q, want the last complete write", b)
	}
	ents, _ := os.ReadDir(filepath.Dir(name))
	for _, e := range ents {
		if atomicfile.IsTemp(e.Name()) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
