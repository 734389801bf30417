#include "textflag.h"

// func indexPairsAVX2(s string, from int, t *pairTab) int
//
// The first i >= from such that s[i] == t[k] and s[i+1] == t[maxPairs+k]
// for some k < maxPairs, or -1. len(s) must be at least 33 and from at
// least 0: every load reads 32 bytes at i and at i+1, the last ones those
// ending at len(s).
TEXT ·indexPairsAVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ from+16(FP), DX
	MOVQ t+24(FP), DI
	VPBROADCASTB 0(DI), Y6
	VPBROADCASTB 1(DI), Y7
	VPBROADCASTB 2(DI), Y8
	VPBROADCASTB 3(DI), Y9
	VPBROADCASTB 4(DI), Y10
	VPBROADCASTB 5(DI), Y11
	VPBROADCASTB 6(DI), Y12
	VPBROADCASTB 7(DI), Y13
	VPBROADCASTB 8(DI), Y14
	VPBROADCASTB 9(DI), Y15
	LEAQ -33(BX), R8     // the start of the last chunk
	DECQ BX              // the end of the pair starts

loop:
	CMPQ DX, R8
	JA   last
	VMOVDQU (SI)(DX*1), Y0
	VMOVDQU 1(SI)(DX*1), Y1
	VPCMPEQB Y6, Y0, Y2
	VPCMPEQB Y11, Y1, Y3
	VPAND    Y3, Y2, Y2
	VPCMPEQB Y7, Y0, Y3
	VPCMPEQB Y12, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPCMPEQB Y8, Y0, Y3
	VPCMPEQB Y13, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPCMPEQB Y9, Y0, Y3
	VPCMPEQB Y14, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPCMPEQB Y10, Y0, Y3
	VPCMPEQB Y15, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPMOVMSKB Y2, AX
	TESTL AX, AX
	JNZ   found
	ADDQ  $32, DX
	JMP   loop

last:
	// The chunk that ends at the last pair start, less the starts before
	// DX, which the loop has tested.
	CMPQ DX, BX
	JAE  none
	VMOVDQU (SI)(R8*1), Y0
	VMOVDQU 1(SI)(R8*1), Y1
	VPCMPEQB Y6, Y0, Y2
	VPCMPEQB Y11, Y1, Y3
	VPAND    Y3, Y2, Y2
	VPCMPEQB Y7, Y0, Y3
	VPCMPEQB Y12, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPCMPEQB Y8, Y0, Y3
	VPCMPEQB Y13, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPCMPEQB Y9, Y0, Y3
	VPCMPEQB Y14, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPCMPEQB Y10, Y0, Y3
	VPCMPEQB Y15, Y1, Y4
	VPAND    Y4, Y3, Y3
	VPOR     Y3, Y2, Y2
	VPMOVMSKB Y2, AX
	MOVQ  DX, CX
	SUBQ  R8, CX
	SHRQ  CX, AX
	TESTQ AX, AX
	JZ    none
	BSFQ  AX, AX
	ADDQ  DX, AX
	VZEROUPPER
	MOVQ  AX, ret+32(FP)
	RET

found:
	BSFL AX, AX
	ADDQ DX, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

none:
	VZEROUPPER
	MOVQ $-1, ret+32(FP)
	RET
