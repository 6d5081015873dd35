//go:build !amd64 || purego

package texture

// haveIDCTVec is false: the vector column pass is built for amd64 only.
var haveIDCTVec = false

func idctColsVec(tmp *[64]int32) { idctCols(tmp) }

func idctRowsVec(blk, tmp *[64]int32) { idctRows(blk, tmp, ^uint32(0)) }

func storeChan8(tmp *[64]int32, dst *uint8, stride, ny, ch int) {}
