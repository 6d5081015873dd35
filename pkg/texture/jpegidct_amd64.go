//go:build amd64 && !purego

package texture

import "golang.org/x/sys/cpu"

// haveIDCTVec reports whether idctColsVec is used; tests turn it off to
// compare with the Go loop.
var haveIDCTVec = cpu.X86.HasAVX2

// idctColsVec is idctCols (and idctColsTop, which is idctCols with rows
// 4-7 zero) with AVX2, eight columns at once.
//
//go:noescape
func idctColsVec(tmp *[64]int32)

// idctRowsVec is idctRows with AVX2, the eight rows at once.
//
//go:noescape
func idctRowsVec(blk, tmp *[64]int32)

// storeChan8 is store's loop for a block eight pixels wide: ny rows of
// tmp's samples into byte ch of the pixels at dst, rows stride apart.
//
//go:noescape
func storeChan8(tmp *[64]int32, dst *uint8, stride, ny, ch int)
