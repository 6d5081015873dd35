package batch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/clip"
)

// LockError says that another batch is writing into the same output
// folder, as the same shard: two runs would overwrite each other's
// manifest, gallery and cache records, so the second does not start.
type LockError struct {
	Dir string
	// Holder is what the other run wrote into the lock file: its process
	// id, host and start time.
	Holder string
}

func (e *LockError) Error() string {
	return fmt.Sprintf("batch: another batch is writing into %s (%s); wait for it to finish, or give this one another output.dir", e.Dir, e.Holder)
}

// lockName is the lock file of a shard's runs in CacheDir; the shards of
// one batch take different locks, so they may share a folder.
func lockName(sh Shard) string {
	if sh.Count > 1 {
		return fmt.Sprintf("lock-%d-of-%d", sh.Index, sh.Count)
	}
	return "lock"
}

// lockOutput takes the output folder's lock for this shard and returns
// the function that releases it. The lock is an advisory lock of the
// operating system on a file in CacheDir, so it is released however the
// process ends (a killed batch leaves no stale lock); where the file
// system cannot lock (some network file systems), the batch runs
// unlocked rather than not at all.
func lockOutput(out *atomicfile.Dir, sh Shard) (func(), error) {
	if err := out.MkdirAll(CacheDir); err != nil {
		return nil, fmt.Errorf("batch: output folder: %w", err)
	}
	f, err := out.OpenFile(path.Join(CacheDir, lockName(sh)), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("batch: lock: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		// Unsupported: go on without.
		return func() { f.Close() }, nil
	}
	if !held {
		b, _ := io.ReadAll(io.LimitReader(f, maxHolder))
		f.Close()
		holder := strings.TrimSpace(string(b))
		if holder == "" {
			holder = "no details"
		}
		return nil, &LockError{Dir: out.Name(), Holder: clip.Display(holder, maxHolder)}
	}
	host, _ := os.Hostname()
	f.Truncate(0)
	fmt.Fprintf(f, "pid %d on %s, since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	return func() {
		f.Truncate(0)
		f.Close()
	}, nil
}

// maxHolder bounds what is read of another run's lock file: it holds one
// short line, unless something else wrote there.
const maxHolder = 200

// errNoLocks is tryLock's error where the platform has no advisory locks.
var errNoLocks = errors.New("no file locks here")
