// Package atomicfile replaces files whole: a reader of the target sees
// either its old content or the complete new content, never a part, and a
// failed or cancelled write leaves the old file as it was.
//
// The content goes to a temporary file in the target's own folder (so the
// final rename cannot cross file systems), which is flushed to disk and
// then renamed over the target. Without the flush, a crash soon after the
// rename can leave the new name pointing at an empty or truncated file on
// common file systems. The temporary file's name contains a fixed marker,
// so the leftovers of a process killed in the middle (SIGKILL gives it no
// chance to clean up) can be found with IsTemp and removed.
package atomicfile

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// marker is part of every temporary file name and of no name a program of
// this project writes otherwise.
const marker = ".mdxr-tmp-"

// perm is the permission of every written file: readable by others, like
// os.WriteFile's files under the usual umask, because outputs are served
// and shared (CI artifacts, web servers), while os.CreateTemp's files are
// private.
const perm = 0o644

// IsTemp reports whether name (a path or a base name) is a temporary file
// of this package, as an interrupted write leaves it behind.
func IsTemp(name string) bool {
	return strings.Contains(filepath.Base(name), marker)
}

// WriteFile replaces the file name with data (see Write).
func WriteFile(ctx context.Context, name string, data []byte) error {
	return Write(ctx, name, writeData(data))
}

// writeData is a write function that writes data.
func writeData(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := bytes.NewReader(data).WriteTo(w)
		return err
	}
}

// Write replaces the file name with what write writes to the buffered
// writer it is given, which write must not keep. The folder of name must
// exist. On any error (from write, the file system, or ctx cancelled
// before the rename) the temporary file is removed, name is left
// untouched and the error is returned as is: os errors name the
// temporary file, whose name starts with "." and name's base name, and
// callers add the target themselves.
func Write(ctx context.Context, name string, write func(io.Writer) error) error {
	return replace(ctx, name, write, true)
}

// writers keeps the buffered writers replace hands to write functions: a
// batch writes a few files for every model, and a new 64 KiB buffer for
// each was a fifteenth of what a whole-corpus batch allocated.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(io.Discard, 1<<16) }}

// replace writes name through a temporary file; sync flushes it to disk
// before the rename.
func replace(ctx context.Context, name string, write func(io.Writer) error, sync bool) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+marker+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close() // may be closed already; that error says nothing new
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return err
	}
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(f)
	defer func() {
		bw.Reset(io.Discard) // no hold on the file, nor an error kept for the next
		writers.Put(bw)
	}()
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if sync {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// Group writes many files, each whole or not at all as Write does, but
// flushes them to disk together in Sync instead of one by one: a flush per
// file is what makes extracting thousands of small files slow. Until Sync
// has returned, a crash may leave some of them empty or truncated under
// their final names. A Group is safe for concurrent use; the zero value is
// ready.
type Group struct {
	mu    sync.Mutex
	names []string
}

// Write replaces the file name as the package's Write does, without
// flushing it.
func (g *Group) Write(ctx context.Context, name string, write func(io.Writer) error) error {
	if err := replace(ctx, name, write, false); err != nil {
		return err
	}
	g.mu.Lock()
	g.names = append(g.names, name)
	g.mu.Unlock()
	return nil
}

// WriteFile replaces the file name with data as Write does, without
// flushing it.
func (g *Group) WriteFile(ctx context.Context, name string, data []byte) error {
	return g.Write(ctx, name, writeData(data))
}

// Sync flushes every file whose Write returned before it was called.
func (g *Group) Sync() error {
	g.mu.Lock()
	names := g.names
	g.names = nil
	g.mu.Unlock()
	return syncAll(names)
}

// syncFiles flushes the files one by one; syncAll uses it where the
// system has no cheaper way.
func syncFiles(names []string) error {
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
