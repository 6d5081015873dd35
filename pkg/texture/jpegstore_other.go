//go:build !amd64 || purego

package texture

// haveStoreVec is false: the vector store is built for amd64 only.
var haveStoreVec = false

func storeChan8(tmp *[64]int32, dst *uint8, stride, ny, ch int) {}
