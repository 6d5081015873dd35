//go:build !linux

package atomicfile

// syncAll flushes the files one by one.
func syncAll(names []string) error { return syncFiles(names) }
