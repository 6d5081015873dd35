//go:build !linux

package atomicfile

import "os"

// syncAll flushes the files one by one.
func syncAll(names []string, open func(string) (*os.File, error)) error {
	return syncFiles(names, open)
}
