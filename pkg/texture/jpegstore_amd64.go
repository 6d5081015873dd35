//go:build amd64 && !purego

package texture

import "golang.org/x/sys/cpu"

// haveStoreVec reports whether storeChan8 is used; tests turn it off to
// compare with the Go loop.
var haveStoreVec = cpu.X86.HasAVX2

// storeChan8 is store's loop for a block eight pixels wide: ny rows of
// tmp's samples into byte ch of the pixels at dst, rows stride apart.
//
//go:noescape
func storeChan8(tmp *[64]int32, dst *uint8, stride, ny, ch int)
