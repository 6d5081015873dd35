package scratch

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"testing"
)

// A scratch file works as a file, leaves no name behind where the system
// lets an open file be removed, and none after Close anywhere.
func TestCreateLeavesNoName(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // os.TempDir on Unix
	t.Setenv("TMP", os.Getenv("TMPDIR"))
	f, err := Create("scratch-test-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("abc"), 5); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 3)
	if _, err := f.ReadAt(b, 5); err != nil || string(b) != "abc" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if runtime.GOOS != "windows" {
		if _, err := os.Stat(f.Name()); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("open scratch file %s still has its name: %v", f.Name(), err)
		}
	}
	if err := Close(f); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.Name()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("closed scratch file %s still has its name: %v", f.Name(), err)
	}
}
