//go:build !unix

package batch

import "os"

// tryLock has no advisory lock to take on this platform; the batch runs
// unlocked (docs/batch.md says so).
func tryLock(f *os.File) (bool, error) { return false, errNoLocks }
