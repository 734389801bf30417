#include "textflag.h"

// Each search compares 32 starts at a time: Y0, Y1 and Y2 hold the 32
// bytes at R9, R9+1 and R9+2, and Y3 gathers, byte by byte, whether a
// triple of the table at DI starts there. The table holds each triple's
// bytes broadcast to 32 (triple k's byte b at 32*(3k+b)).

// FIRST sets Y3 where the triple at table offset o starts.
#define FIRST(o) \
	VMOVDQU  (R9), Y0 \
	VMOVDQU  1(R9), Y1 \
	VMOVDQU  2(R9), Y2 \
	VPCMPEQB o(DI), Y0, Y3 \
	VPCMPEQB o+32(DI), Y1, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB o+64(DI), Y2, Y4 \
	VPAND    Y4, Y3, Y3

// ALSO adds to Y3 where the triple at table offset o starts.
#define ALSO(o) \
	VPCMPEQB o(DI), Y0, Y4 \
	VPCMPEQB o+32(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB o+64(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3

#define TRIPLES3 FIRST(0) ALSO(96) ALSO(192)
#define TRIPLES TRIPLES3 ALSO(288) ALSO(384)
#define TRIPLES6 TRIPLES ALSO(480)

// SEARCH is the body of a search with the chunk test CHUNK, which sets Y3
// at R9: the first i >= from such that s[i:i+3] is one of the table's
// triples, or -1. len(s) must be at least MinLen and from at least 0:
// every load reads 32 bytes at i, i+1 and i+2, the last ones those ending
// at len(s). (Labels belong to the TEXT block that expands it.)
#define SEARCH(CHUNK) \
	MOVQ s_base+0(FP), SI \
	MOVQ s_len+8(FP), BX \
	MOVQ from+16(FP), DX \
	MOVQ t+24(FP), DI \
	LEAQ -34(BX), R8 \
	SUBQ $2, BX \
loop: \
	CMPQ DX, R8 \
	JA   last \
	LEAQ (SI)(DX*1), R9 \
	CHUNK \
	VPMOVMSKB Y3, AX \
	TESTL AX, AX \
	JNZ   found \
	ADDQ  $32, DX \
	JMP   loop \
last: \
	CMPQ DX, BX \
	JAE  none \
	LEAQ (SI)(R8*1), R9 \
	CHUNK \
	VPMOVMSKB Y3, AX \
	MOVQ  DX, CX \
	SUBQ  R8, CX \
	SHRQ  CX, AX \
	TESTQ AX, AX \
	JZ    none \
	BSFQ  AX, AX \
	ADDQ  DX, AX \
	VZEROUPPER \
	MOVQ  AX, ret+32(FP) \
	RET \
found: \
	BSFL AX, AX \
	ADDQ DX, AX \
	VZEROUPPER \
	MOVQ AX, ret+32(FP) \
	RET \
none: \
	VZEROUPPER \
	MOVQ $-1, ret+32(FP) \
	RET

// In SEARCH, R8 is the start of the last chunk and BX the end of the
// triples' starts; the last chunk is the one that ends at the last start,
// less the starts before DX, which the loop has tested.

// func indexAVX2(s string, from int, t *Tab) int: SEARCH over the Max
// triples of t.
TEXT ·indexAVX2(SB), NOSPLIT, $0-40
	SEARCH(TRIPLES)

// func index3AVX2(s string, from int, t *Tab) int: SEARCH over the first
// three triples of t only.
TEXT ·index3AVX2(SB), NOSPLIT, $0-40
	SEARCH(TRIPLES3)

// func index6AVX2(s string, from int, t *Tab6) int: SEARCH over the Max6
// triples of t.
TEXT ·index6AVX2(SB), NOSPLIT, $0-40
	SEARCH(TRIPLES6)
