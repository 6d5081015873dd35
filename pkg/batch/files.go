package batch

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// WriteFileAtomic writes one output file of a batch: it creates the missing
// folders, then replaces name whole (internal/atomicfile), so readers never
// see a half-written file. If ctx is cancelled before the rename, the
// temporary file is removed and the target is left as it was; SweepTemp
// finds the temporary files of a run killed in the middle.
func WriteFileAtomic(ctx context.Context, name string, data []byte) error {
	return writeOutput(name, func() error { return atomicfile.WriteFile(ctx, name, data) })
}

// writeOutput creates the folder of name, then calls write, which
// replaces name whole, and names the file in its error.
func writeOutput(name string, write func() error) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := write(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// SweepTemp removes temporary files left below dir by an interrupted run.
func SweepTemp(dir string) error {
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && atomicfile.IsTemp(e.Name()) {
			return os.Remove(p)
		}
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	return err
}
