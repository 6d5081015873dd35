//go:build amd64 && !purego

package pngenc

import "golang.org/x/sys/cpu"

// haveUpVec reports whether upBlocks is used; tests turn it off to
// compare with the Go loop.
var haveUpVec = cpu.X86.HasAVX2

// upBlocks sets d[i] = cur[i] − prev[i] for the first len(d) &^ 31 bytes,
// 32 at a time; cur and prev are at least as long as d.
//
//go:noescape
func upBlocks(d, cur, prev []byte)
