package batch

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempMarker is part of every temporary file name, so a run can sweep the
// leftovers of a killed run (SIGKILL gives no chance to clean up).
const tempMarker = ".mdxr-tmp-"

// WriteFileAtomic writes data to a temporary file in the target's folder and
// renames it over the target, so readers never see a half-written file. If
// ctx is cancelled before the rename, the temporary file is removed and the
// target is left as it was.
func WriteFileAtomic(ctx context.Context, name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+tempMarker+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// CreateTemp makes the file private (0600); outputs are meant to be
	// read by others (CI artifact servers, web servers), as os.WriteFile's
	// files and the convert and texture commands' outputs are.
	err = f.Chmod(0o644)
	if err == nil {
		_, err = bytes.NewReader(data).WriteTo(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
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
		if !e.IsDir() && strings.Contains(e.Name(), tempMarker) {
			return os.Remove(p)
		}
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	return err
}
