//go:build !unix

package batch

import "os"

// inode is 0 where os.FileInfo carries no inode number: stamps there
// rest on size and modification time alone.
func inode(os.FileInfo) uint64 { return 0 }
