//go:build amd64 && !purego

package raster

import "golang.org/x/sys/cpu"

// haveVec reports whether the fixed rule and Resolve use their vector
// kernels; tests turn it off to compare with the Go loops.
var haveVec = cpu.X86.HasAVX2

// sampleMulN is sampleMul for a.n groups of eight fragments, as long as
// each group's fragments all read the same mip levels: it returns how
// many groups, from the first, it did; the group after them (if that is
// not a.n) is the Go loop's, and nothing of it is written. With a.c the
// colours are c, and what r, g, b and a held is not read.
//
//go:noescape
func sampleMulN(a *smArgs) int

// uvLOD8 is shadeSpan's pass 3 (texture coordinates and level of detail)
// for 8·groups fragments of triangle tr.
//
//go:noescape
func uvLOD8(tr *tri, c *uvConsts, p0, p1, p2, iq, u, v, lod *float32, groups int)

// blend4 is blendSpan for BlendReplace, BlendOver and BlendAdd.
//
//go:noescape
func blend4(c *blendArgs)

// pass1x8 is rasterTri's pass 1 for the row span c describes; it returns
// how many fragments it appended.
//
//go:noescape
func pass1x8(c *p1Args) int

// resolveStraight is Resolve's conversion of n pixels (n even) of sums
// to straight 8-bit colour, over transparency, into dst, which holds
// zeros: pixels that stay transparent black are not written.
//
//go:noescape
func resolveStraight(src *float32, dst *uint8, n int)
