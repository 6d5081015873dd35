//go:build amd64 && !purego

#include "textflag.h"

// The column pass of the inverse DCT, idctCols, for the eight columns at
// once: each lane is a column, each register a row, and every operation
// is the int32 one idctCols does (wrapping multiplies, arithmetic shifts),
// so the samples are the same.

// Eight copies of each constant: idctRC6x12, c+s and s−c of that rotation,
// idctR14, then idctC3, idctC1 with theirs, and idctColBias; then, for
// the row pass, idctRC6x18 with its c+s and s−c, and idctR8.
DATA idctk<>+0(SB)/4, $0x454
DATA idctk<>+4(SB)/4, $0x454
DATA idctk<>+8(SB)/4, $0x454
DATA idctk<>+12(SB)/4, $0x454
DATA idctk<>+16(SB)/4, $0x454
DATA idctk<>+20(SB)/4, $0x454
DATA idctk<>+24(SB)/4, $0x454
DATA idctk<>+28(SB)/4, $0x454
DATA idctk<>+32(SB)/4, $0xec8
DATA idctk<>+36(SB)/4, $0xec8
DATA idctk<>+40(SB)/4, $0xec8
DATA idctk<>+44(SB)/4, $0xec8
DATA idctk<>+48(SB)/4, $0xec8
DATA idctk<>+52(SB)/4, $0xec8
DATA idctk<>+56(SB)/4, $0xec8
DATA idctk<>+60(SB)/4, $0xec8
DATA idctk<>+64(SB)/4, $0x620
DATA idctk<>+68(SB)/4, $0x620
DATA idctk<>+72(SB)/4, $0x620
DATA idctk<>+76(SB)/4, $0x620
DATA idctk<>+80(SB)/4, $0x620
DATA idctk<>+84(SB)/4, $0x620
DATA idctk<>+88(SB)/4, $0x620
DATA idctk<>+92(SB)/4, $0x620
DATA idctk<>+96(SB)/4, $0x2d41
DATA idctk<>+100(SB)/4, $0x2d41
DATA idctk<>+104(SB)/4, $0x2d41
DATA idctk<>+108(SB)/4, $0x2d41
DATA idctk<>+112(SB)/4, $0x2d41
DATA idctk<>+116(SB)/4, $0x2d41
DATA idctk<>+120(SB)/4, $0x2d41
DATA idctk<>+124(SB)/4, $0x2d41
DATA idctk<>+128(SB)/4, $0xd4e
DATA idctk<>+132(SB)/4, $0xd4e
DATA idctk<>+136(SB)/4, $0xd4e
DATA idctk<>+140(SB)/4, $0xd4e
DATA idctk<>+144(SB)/4, $0xd4e
DATA idctk<>+148(SB)/4, $0xd4e
DATA idctk<>+152(SB)/4, $0xd4e
DATA idctk<>+156(SB)/4, $0xd4e
DATA idctk<>+160(SB)/4, $0x1632
DATA idctk<>+164(SB)/4, $0x1632
DATA idctk<>+168(SB)/4, $0x1632
DATA idctk<>+172(SB)/4, $0x1632
DATA idctk<>+176(SB)/4, $0x1632
DATA idctk<>+180(SB)/4, $0x1632
DATA idctk<>+184(SB)/4, $0x1632
DATA idctk<>+188(SB)/4, $0x1632
DATA idctk<>+192(SB)/4, $0xfffffb96
DATA idctk<>+196(SB)/4, $0xfffffb96
DATA idctk<>+200(SB)/4, $0xfffffb96
DATA idctk<>+204(SB)/4, $0xfffffb96
DATA idctk<>+208(SB)/4, $0xfffffb96
DATA idctk<>+212(SB)/4, $0xfffffb96
DATA idctk<>+216(SB)/4, $0xfffffb96
DATA idctk<>+220(SB)/4, $0xfffffb96
DATA idctk<>+224(SB)/4, $0xfb1
DATA idctk<>+228(SB)/4, $0xfb1
DATA idctk<>+232(SB)/4, $0xfb1
DATA idctk<>+236(SB)/4, $0xfb1
DATA idctk<>+240(SB)/4, $0xfb1
DATA idctk<>+244(SB)/4, $0xfb1
DATA idctk<>+248(SB)/4, $0xfb1
DATA idctk<>+252(SB)/4, $0xfb1
DATA idctk<>+256(SB)/4, $0x12d0
DATA idctk<>+260(SB)/4, $0x12d0
DATA idctk<>+264(SB)/4, $0x12d0
DATA idctk<>+268(SB)/4, $0x12d0
DATA idctk<>+272(SB)/4, $0x12d0
DATA idctk<>+276(SB)/4, $0x12d0
DATA idctk<>+280(SB)/4, $0x12d0
DATA idctk<>+284(SB)/4, $0x12d0
DATA idctk<>+288(SB)/4, $0xfffff36e
DATA idctk<>+292(SB)/4, $0xfffff36e
DATA idctk<>+296(SB)/4, $0xfffff36e
DATA idctk<>+300(SB)/4, $0xfffff36e
DATA idctk<>+304(SB)/4, $0xfffff36e
DATA idctk<>+308(SB)/4, $0xfffff36e
DATA idctk<>+312(SB)/4, $0xfffff36e
DATA idctk<>+316(SB)/4, $0xfffff36e
DATA idctk<>+320(SB)/4, $0x80000
DATA idctk<>+324(SB)/4, $0x80000
DATA idctk<>+328(SB)/4, $0x80000
DATA idctk<>+332(SB)/4, $0x80000
DATA idctk<>+336(SB)/4, $0x80000
DATA idctk<>+340(SB)/4, $0x80000
DATA idctk<>+344(SB)/4, $0x80000
DATA idctk<>+348(SB)/4, $0x80000
DATA idctk<>+352(SB)/4, $0x11518
DATA idctk<>+356(SB)/4, $0x11518
DATA idctk<>+360(SB)/4, $0x11518
DATA idctk<>+364(SB)/4, $0x11518
DATA idctk<>+368(SB)/4, $0x11518
DATA idctk<>+372(SB)/4, $0x11518
DATA idctk<>+376(SB)/4, $0x11518
DATA idctk<>+380(SB)/4, $0x11518
DATA idctk<>+384(SB)/4, $0x3b20e
DATA idctk<>+388(SB)/4, $0x3b20e
DATA idctk<>+392(SB)/4, $0x3b20e
DATA idctk<>+396(SB)/4, $0x3b20e
DATA idctk<>+400(SB)/4, $0x3b20e
DATA idctk<>+404(SB)/4, $0x3b20e
DATA idctk<>+408(SB)/4, $0x3b20e
DATA idctk<>+412(SB)/4, $0x3b20e
DATA idctk<>+416(SB)/4, $0x187de
DATA idctk<>+420(SB)/4, $0x187de
DATA idctk<>+424(SB)/4, $0x187de
DATA idctk<>+428(SB)/4, $0x187de
DATA idctk<>+432(SB)/4, $0x187de
DATA idctk<>+436(SB)/4, $0x187de
DATA idctk<>+440(SB)/4, $0x187de
DATA idctk<>+444(SB)/4, $0x187de
DATA idctk<>+448(SB)/4, $0xb5
DATA idctk<>+452(SB)/4, $0xb5
DATA idctk<>+456(SB)/4, $0xb5
DATA idctk<>+460(SB)/4, $0xb5
DATA idctk<>+464(SB)/4, $0xb5
DATA idctk<>+468(SB)/4, $0xb5
DATA idctk<>+472(SB)/4, $0xb5
DATA idctk<>+476(SB)/4, $0xb5
GLOBL idctk<>(SB), RODATA|NOPTR, $480

// ROTATE is rotate in eight lanes: t = c·(a+b), x = t − (c+s)·b and
// y = t + (s−c)·a, with c, c+s and s−c at offsets kt, kb and ka of idctk.
#define ROTATE(a, b, kt, kb, ka, t, x, y) \
	VPADDD b, a, t                \
	VPMULLD idctk<>+kt(SB), t, t  \
	VPMULLD idctk<>+kb(SB), b, x  \
	VPSUBD x, t, x                \
	VPMULLD idctk<>+ka(SB), a, y  \
	VPADDD y, t, y

// ODD ends the odd half of either pass: p7, p5 = u7 ± m3 and p4, p6 =
// u4 ± m5, each shifted right by sh bits, then v4, v7 = rotate(p4, p7)
// by π·3/16 and v5, v6 = rotate(p5, p6) by π/16, t a scratch register.
#define ODD(u7, u4, m3, m5, sh, p7, p5, p4, p6, t, v4, v7, v5, v6) \
	VPADDD m3, u7, p7                   \
	VPSUBD m3, u7, p5                   \
	VPADDD m5, u4, p4                   \
	VPSUBD m5, u4, p6                   \
	VPSRAD $sh, p7, p7                  \
	VPSRAD $sh, p5, p5                  \
	VPSRAD $sh, p4, p4                  \
	VPSRAD $sh, p6, p6                  \
	ROTATE(p4, p7, 128, 160, 192, t, v4, v7) \
	ROTATE(p5, p6, 224, 256, 288, t, v5, v6)

// func idctColsVec(tmp *[64]int32)
TEXT ·idctColsVec(SB), NOSPLIT, $0-8
	MOVQ tmp+0(FP), DI
	// Even half: rows 0, 4, 2, 6.
	VMOVDQU 0(DI), Y0
	VPADDD idctk<>+320(SB), Y0, Y0         // b = g0 + bias
	VMOVDQU 128(DI), Y4
	VPADDD Y4, Y0, Y8
	VPSUBD Y4, Y0, Y9
	VPSRAD $2, Y8, Y8                  // s
	VPSRAD $2, Y9, Y9                  // d
	VMOVDQU 64(DI), Y2
	VPSRAD $13, Y2, Y2                 // g2>>13
	VMOVDQU 192(DI), Y6
	VPSRAD $13, Y6, Y6                 // g6>>13
	ROTATE(Y2, Y6, 0, 32, 64, Y10, Y11, Y12) // y2, y6
	VPADDD Y12, Y8, Y0                 // q0
	VPSUBD Y12, Y8, Y3                 // q3
	VPADDD Y11, Y9, Y1                 // q1
	VPSUBD Y11, Y9, Y2                 // q2
	// Odd half: rows 1, 7, 3, 5.
	VMOVDQU 32(DI), Y4
	VMOVDQU 224(DI), Y5
	VPADDD Y5, Y4, Y6                  // u7
	VPSUBD Y5, Y4, Y7                  // u4
	VMOVDQU 96(DI), Y8
	VPSRAD $13, Y8, Y8
	VPMULLD idctk<>+96(SB), Y8, Y8         // m3
	VMOVDQU 160(DI), Y9
	VPSRAD $13, Y9, Y9
	VPMULLD idctk<>+96(SB), Y9, Y9         // m5
	ODD(Y6, Y7, Y8, Y9, 14, Y10, Y11, Y12, Y13, Y4, Y5, Y6, Y7, Y8)
	// The rows out, >> 18.
	VPADDD Y6, Y0, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 0(DI)
	VPSUBD Y6, Y0, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 224(DI)
	VPADDD Y8, Y1, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 32(DI)
	VPSUBD Y8, Y1, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 192(DI)
	VPADDD Y7, Y2, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 64(DI)
	VPSUBD Y7, Y2, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 160(DI)
	VPADDD Y5, Y3, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 96(DI)
	VPSUBD Y5, Y3, Y9
	VPSRAD $18, Y9, Y9
	VMOVDQU Y9, 128(DI)
	VZEROUPPER
	RET

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

// TRANSPOSE8 transposes the 8×8 int32 matrix whose rows are a0-a7 into
// the columns b0-b7 (b0 holds every row's first value), in three rounds
// of interleaving: 32-bit values, 64-bit pairs, then 128-bit halves. The
// a registers are clobbered.
#define TRANSPOSE8(a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7) \
	VPUNPCKLDQ a1, a0, b0          \
	VPUNPCKHDQ a1, a0, b1          \
	VPUNPCKLDQ a3, a2, b2          \
	VPUNPCKHDQ a3, a2, b3          \
	VPUNPCKLDQ a5, a4, b4          \
	VPUNPCKHDQ a5, a4, b5          \
	VPUNPCKLDQ a7, a6, b6          \
	VPUNPCKHDQ a7, a6, b7          \
	VPUNPCKLQDQ b2, b0, a0         \
	VPUNPCKHQDQ b2, b0, a1         \
	VPUNPCKLQDQ b3, b1, a2         \
	VPUNPCKHQDQ b3, b1, a3         \
	VPUNPCKLQDQ b6, b4, a4         \
	VPUNPCKHQDQ b6, b4, a5         \
	VPUNPCKLQDQ b7, b5, a6         \
	VPUNPCKHQDQ b7, b5, a7         \
	VPERM2I128 $0x20, a4, a0, b0   \
	VPERM2I128 $0x20, a5, a1, b1   \
	VPERM2I128 $0x20, a6, a2, b2   \
	VPERM2I128 $0x20, a7, a3, b3   \
	VPERM2I128 $0x31, a4, a0, b4   \
	VPERM2I128 $0x31, a5, a1, b5   \
	VPERM2I128 $0x31, a6, a2, b6   \
	VPERM2I128 $0x31, a7, a3, b7

// func idctRowsVec(blk, tmp *[64]int32)
//
// idctRows for the eight rows at once, every row taking the whole
// transform (the Go loop's shortcuts only leave out terms that are zero):
// the block is transposed so that each lane is a row and each register a
// frequency, transformed with idctRows' int32 operations, and transposed
// back into tmp.
TEXT ·idctRowsVec(SB), NOSPLIT, $0-16
	MOVQ blk+0(FP), SI
	MOVQ tmp+8(FP), DI
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVDQU 128(SI), Y4
	VMOVDQU 160(SI), Y5
	VMOVDQU 192(SI), Y6
	VMOVDQU 224(SI), Y7
	TRANSPOSE8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15)
	// Y8-Y15 are frequencies 0-7 of every row. Even half: 0, 4, 2, 6.
	VPSLLD $17, Y8, Y0                 // e0
	VPSLLD $17, Y12, Y1                // e1
	VPADDD Y1, Y0, Y2                  // s
	VPSUBD Y1, Y0, Y3                  // d
	ROTATE(Y10, Y14, 352, 384, 416, Y4, Y5, Y6) // y2, y6
	VPADDD Y6, Y2, Y0                  // q0
	VPSUBD Y6, Y2, Y7                  // q3
	VPADDD Y5, Y3, Y1                  // q1
	VPSUBD Y5, Y3, Y2                  // q2
	// Odd half: 1, 7, 3, 5.
	VPSLLD $7, Y9, Y9
	VPSLLD $7, Y15, Y15
	VPADDD Y15, Y9, Y3                 // u7
	VPSUBD Y15, Y9, Y4                 // u4
	VPMULLD idctk<>+448(SB), Y11, Y11      // m3
	VPMULLD idctk<>+448(SB), Y13, Y13      // m5
	ODD(Y3, Y4, Y11, Y13, 2, Y5, Y6, Y8, Y10, Y3, Y4, Y9, Y11, Y12)
	VPADDD Y9, Y0, Y13                 // out0
	VPSUBD Y9, Y0, Y14                 // out7
	VPADDD Y12, Y1, Y15                // out1
	VPSUBD Y12, Y1, Y3                 // out6
	VPADDD Y11, Y2, Y5                 // out2
	VPSUBD Y11, Y2, Y6                 // out5
	VPADDD Y4, Y7, Y8                  // out3
	VPSUBD Y4, Y7, Y10                 // out4
	TRANSPOSE8(Y13, Y15, Y5, Y8, Y10, Y6, Y3, Y14, Y0, Y1, Y2, Y4, Y7, Y9, Y11, Y12)
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y4, 96(DI)
	VMOVDQU Y7, 128(DI)
	VMOVDQU Y9, 160(DI)
	VMOVDQU Y11, 192(DI)
	VMOVDQU Y12, 224(DI)
	VZEROUPPER
	RET
