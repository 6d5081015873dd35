//go:build amd64 && !purego

package pngenc

import "golang.org/x/sys/cpu"

// haveAdlerVec reports whether adlerBlocks is used; tests turn it off to
// compare with the Go loop.
var haveAdlerVec = cpu.X86.HasAVX2

// adlerBlocks sums p (a multiple of 32 bytes, at most adlerRun) in
// blocks of 32: sum is the sum of its bytes, weighted the sum over each
// block of its bytes weighted 32, 31, …, 1, and before the sum over the
// blocks of the sum of every block before each.
//
//go:noescape
func adlerBlocks(p []byte) (sum, weighted, before uint64)
