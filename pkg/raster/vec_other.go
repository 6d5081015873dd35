//go:build !amd64 || purego

package raster

// haveVec is false: the vector kernels are built for amd64 without fused
// multiply-adds only.
var haveVec = false

func sampleMulN(a *smArgs) int { return 0 }

func uvLOD8(tr *tri, c *uvConsts, p0, p1, p2, iq, u, v, lod *float32, groups int) {}

func light8(tr *tri, c *lightConsts, p0, p1, p2, rp, gp, bp *float32, groups int) {}

func blend4(c *blendArgs) {}

func pass1x8(c *p1Args) int { return 0 }

func passRows8(c *p1Args, tr *tri) int { return 0 }

func resolveSum(block, out *float32, stride, k, w int, inv float32) {}

func resolveStraight(src *float32, dst *uint8, n int) {}

func mulRGB8(fp, rp, gp, bp *float32, groups int) {}
