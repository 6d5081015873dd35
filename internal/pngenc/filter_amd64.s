//go:build amd64 && !purego

#include "textflag.h"

// func upBlocks(d, cur, prev []byte)
TEXT ·upBlocks(SB), NOSPLIT, $0-72
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ cur_base+24(FP), SI
	MOVQ prev_base+48(FP), DX
	SHRQ $5, CX
	JZ   done
loop:
	VMOVDQU (SI), Y0
	VPSUBB (DX), Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER
done:
	RET
