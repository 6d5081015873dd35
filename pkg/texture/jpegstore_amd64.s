//go:build amd64 && !purego

#include "textflag.h"

// func storeChan8(tmp *[64]int32, dst *uint8, stride, ny, ch int)
//
// store's common case: ny rows of eight samples of tmp, level-shifted and
// clamped as clampSample does (the int32 sum wraps as Go's does), into
// byte ch of the eight 4-byte pixels at dst, rows stride bytes apart; the
// other bytes are written back as they were.
TEXT ·storeChan8(SB), NOSPLIT, $0-40
	MOVQ tmp+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ stride+16(FP), DX
	MOVQ ny+24(FP), CX
	MOVQ ch+32(FP), AX
	SHLQ $3, AX
	MOVQ AX, X15                      // the channel's shift, in bits
	VPCMPEQD Y14, Y14, Y14
	VPSRLD $24, Y14, Y13              // 255
	VPSLLD X15, Y13, Y14              // the channel's byte
	VPSRLD $1, Y13, Y12
	VPSUBD Y12, Y13, Y12              // 128
	VPXOR Y11, Y11, Y11
	TESTQ CX, CX
	JZ   scdone

scrow:
	VMOVDQU (SI), Y0
	VPADDD Y12, Y0, Y0
	VPMAXSD Y11, Y0, Y0
	VPMINSD Y13, Y0, Y0
	VPSLLD X15, Y0, Y0
	VMOVDQU (DI), Y1
	VPBLENDVB Y14, Y0, Y1, Y1
	VMOVDQU Y1, (DI)
	ADDQ $32, SI
	ADDQ DX, DI
	DECQ CX
	JNZ  scrow

scdone:
	VZEROUPPER
	RET
