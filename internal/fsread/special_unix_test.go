//go:build unix

package fsread

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestReadRefusesSpecialFiles: a FIFO and a link to /dev/zero are refused
// before they are opened (opening the FIFO would block), and a file over
// the limit before it is read, each error naming the file.
func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.mdx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	zero := filepath.Join(dir, "zero.mdx")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, p := range []string{fifo, zero} {
		if _, err := Path(p, nil, nil); err == nil || !strings.Contains(err.Error(), p+": not a regular file") {
			t.Errorf("%s: %v", p, err)
		}
		if _, err := FS(os.DirFS(dir), filepath.Base(p), p, nil, nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FS %s: %v", p, err)
		}
	}
	big := filepath.Join(dir, "big.mdl")
	if err := os.WriteFile(big, make([]byte, 2000), 0o644); err != nil {
		t.Fatal(err)
	}
	var be *budget.Error
	if _, err := Path(big, budget.NewMeter(budget.Limits{ReadBytes: 1000}), nil); !errors.As(err, &be) || be.Value != 2000 || be.Max != 1000 || be.File != big || be.Limit != budget.ReadBytes {
		t.Errorf("over the read limit: %v", err)
	}
}
