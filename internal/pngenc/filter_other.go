//go:build !amd64 || purego

package pngenc

// haveUpVec is false: the vector filter is built for amd64 only.
var haveUpVec = false

func upBlocks(d, cur, prev []byte) {}
