//go:build !amd64 || purego

package texture

// haveIDCTVec is false: the vector column pass is built for amd64 only.
var haveIDCTVec = false

func idctColsVec(tmp *[64]int32) { idctCols(tmp) }
