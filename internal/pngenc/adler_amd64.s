//go:build amd64 && !purego

#include "textflag.h"

// The weights 32, 31, …, 1 of a block's bytes, and sixteen 16-bit ones.
DATA adlerw<>+0(SB)/8, $0x191a1b1c1d1e1f20
DATA adlerw<>+8(SB)/8, $0x1112131415161718
DATA adlerw<>+16(SB)/8, $0x90a0b0c0d0e0f10
DATA adlerw<>+24(SB)/8, $0x102030405060708
GLOBL adlerw<>(SB), RODATA|NOPTR, $32
DATA adlerones<>+0(SB)/8, $0x0001000100010001
DATA adlerones<>+8(SB)/8, $0x0001000100010001
DATA adlerones<>+16(SB)/8, $0x0001000100010001
DATA adlerones<>+24(SB)/8, $0x0001000100010001
GLOBL adlerones<>(SB), RODATA|NOPTR, $32

// func adlerBlocks(p []byte) (sum, weighted, before uint64)
//
// Y1 holds the byte sums so far (four 64-bit lanes), Y3 the sums of Y1
// before each block, Y2 the weighted sums (eight 32-bit lanes).
TEXT ·adlerBlocks(SB), NOSPLIT, $0-48
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), CX
	SHRQ $5, CX
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y7, Y7, Y7
	VMOVDQU adlerw<>(SB), Y6
	VMOVDQU adlerones<>(SB), Y8
	TESTQ CX, CX
	JZ done
loop:
	VMOVDQU (SI), Y0
	VPADDQ Y1, Y3, Y3
	VPSADBW Y7, Y0, Y4
	VPADDQ Y4, Y1, Y1
	VPMADDUBSW Y6, Y0, Y5
	VPMADDWD Y8, Y5, Y5
	VPADDD Y5, Y2, Y2
	ADDQ $32, SI
	DECQ CX
	JNZ loop
done:
	// Horizontal sums.
	VEXTRACTI128 $1, Y1, X4
	VPADDQ X4, X1, X1
	VPSHUFD $0x4e, X1, X4
	VPADDQ X4, X1, X1
	MOVQ X1, sum+24(FP)
	VEXTRACTI128 $1, Y2, X4
	VPADDD X4, X2, X2
	VPSHUFD $0x4e, X2, X4
	VPADDD X4, X2, X2
	VPSHUFD $0xb1, X2, X4
	VPADDD X4, X2, X2
	MOVL X2, AX
	MOVQ AX, weighted+32(FP)
	VEXTRACTI128 $1, Y3, X4
	VPADDQ X4, X3, X3
	VPSHUFD $0x4e, X3, X4
	VPADDQ X4, X3, X3
	MOVQ X3, before+40(FP)
	VZEROUPPER
	RET
