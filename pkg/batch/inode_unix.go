//go:build unix

package batch

import (
	"os"
	"syscall"
)

// inode is the file's inode number: a file replaced by another of the
// same size and time (a rename over it) still changes its stamp.
func inode(fi os.FileInfo) uint64 {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}
