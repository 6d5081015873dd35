//go:build !amd64 || purego

package pngenc

// haveAdlerVec is false: the vector sums are built for amd64 only.
var haveAdlerVec = false

func adlerBlocks(p []byte) (sum, weighted, before uint64) { return 0, 0, 0 }
