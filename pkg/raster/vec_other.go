//go:build !amd64 || purego

package raster

// haveVec is false: the vector kernels are built for amd64 only.
var haveVec = false

func sampleMulN(a *smArgs) int { return 0 }

func uvLOD8(tr *tri, c *uvConsts, p0, p1, p2, iq, u, v, lod *float32, groups int) {}

func blend4(c *blendArgs) {}

func pass1x8(c *p1Args) int { return 0 }

func resolveStraight(src *float32, dst *uint8, n int) {}
