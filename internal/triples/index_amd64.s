#include "textflag.h"

// TRIPLES sets the bytes of Y3 where a triple of the table at DI starts
// in the 32 bytes at R9 (reading 34).
#define TRIPLES \
	VMOVDQU (R9), Y0 \
	VMOVDQU 1(R9), Y1 \
	VMOVDQU 2(R9), Y2 \
	VPCMPEQB 0(DI), Y0, Y3 \
	VPCMPEQB 32(DI), Y1, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB 64(DI), Y2, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB 96(DI), Y0, Y4 \
	VPCMPEQB 128(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 160(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 192(DI), Y0, Y4 \
	VPCMPEQB 224(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 256(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 288(DI), Y0, Y4 \
	VPCMPEQB 320(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 352(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 384(DI), Y0, Y4 \
	VPCMPEQB 416(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 448(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3

// func indexAVX2(s string, from int, t *Tab) int
//
// The first i >= from such that s[i:i+3] is one of the Max triples
// of t, or -1. t holds each triple's bytes broadcast to 32 (triple k's
// byte b at t[3k+b]). len(s) must be at least MinLen and from at
// least 0: every load reads 32 bytes at i, i+1 and i+2, the last ones
// those ending at len(s).
TEXT ·indexAVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ from+16(FP), DX
	MOVQ t+24(FP), DI
	LEAQ -34(BX), R8     // the start of the last chunk
	SUBQ $2, BX          // the end of the triples' starts

loop:
	CMPQ DX, R8
	JA   last
	LEAQ (SI)(DX*1), R9
	TRIPLES
	VPMOVMSKB Y3, AX
	TESTL AX, AX
	JNZ   found
	ADDQ  $32, DX
	JMP   loop

last:
	// The chunk that ends at the last triple start, less the starts
	// before DX, which the loop has tested.
	CMPQ DX, BX
	JAE  none
	LEAQ (SI)(R8*1), R9
	TRIPLES
	VPMOVMSKB Y3, AX
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

// TRIPLES3 is TRIPLES for the first three triples of the table at DI.
#define TRIPLES3 \
	VMOVDQU (R9), Y0 \
	VMOVDQU 1(R9), Y1 \
	VMOVDQU 2(R9), Y2 \
	VPCMPEQB 0(DI), Y0, Y3 \
	VPCMPEQB 32(DI), Y1, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB 64(DI), Y2, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB 96(DI), Y0, Y4 \
	VPCMPEQB 128(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 160(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 192(DI), Y0, Y4 \
	VPCMPEQB 224(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 256(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3

// func index3AVX2(s string, from int, t *Tab) int
//
// indexAVX2 for the first three triples of t only.
//
// The first i >= from such that s[i:i+3] is one of the first three triples
// of t, or -1. t holds each triple's bytes broadcast to 32 (triple k's
// byte b at t[3k+b]). len(s) must be at least MinLen and from at
// least 0: every load reads 32 bytes at i, i+1 and i+2, the last ones
// those ending at len(s).
TEXT ·index3AVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ from+16(FP), DX
	MOVQ t+24(FP), DI
	LEAQ -34(BX), R8     // the start of the last chunk
	SUBQ $2, BX          // the end of the triples' starts

loop3:
	CMPQ DX, R8
	JA   last3
	LEAQ (SI)(DX*1), R9
	TRIPLES3
	VPMOVMSKB Y3, AX
	TESTL AX, AX
	JNZ   found3
	ADDQ  $32, DX
	JMP   loop3

last3:
	// The chunk that ends at the last triple start, less the starts
	// before DX, which the loop has tested.
	CMPQ DX, BX
	JAE  none3
	LEAQ (SI)(R8*1), R9
	TRIPLES3
	VPMOVMSKB Y3, AX
	MOVQ  DX, CX
	SUBQ  R8, CX
	SHRQ  CX, AX
	TESTQ AX, AX
	JZ    none3
	BSFQ  AX, AX
	ADDQ  DX, AX
	VZEROUPPER
	MOVQ  AX, ret+32(FP)
	RET

found3:
	BSFL AX, AX
	ADDQ DX, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

none3:
	VZEROUPPER
	MOVQ $-1, ret+32(FP)
	RET

// TRIPLES6 is TRIPLES for the Max6 triples of a Tab6 at DI.
#define TRIPLES6 \
	VMOVDQU (R9), Y0 \
	VMOVDQU 1(R9), Y1 \
	VMOVDQU 2(R9), Y2 \
	VPCMPEQB 0(DI), Y0, Y3 \
	VPCMPEQB 32(DI), Y1, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB 64(DI), Y2, Y4 \
	VPAND    Y4, Y3, Y3 \
	VPCMPEQB 96(DI), Y0, Y4 \
	VPCMPEQB 128(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 160(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 192(DI), Y0, Y4 \
	VPCMPEQB 224(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 256(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 288(DI), Y0, Y4 \
	VPCMPEQB 320(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 352(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 384(DI), Y0, Y4 \
	VPCMPEQB 416(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 448(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3 \
	VPCMPEQB 480(DI), Y0, Y4 \
	VPCMPEQB 512(DI), Y1, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPCMPEQB 544(DI), Y2, Y5 \
	VPAND    Y5, Y4, Y4 \
	VPOR     Y4, Y3, Y3

// func index6AVX2(s string, from int, t *Tab6) int
//
// The first i >= from such that s[i:i+3] is one of the Max6 triples
// of t, or -1. t holds each triple's bytes broadcast to 32 (triple k's
// byte b at t[3k+b]). len(s) must be at least MinLen and from at
// least 0: every load reads 32 bytes at i, i+1 and i+2, the last ones
// those ending at len(s).
TEXT ·index6AVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ from+16(FP), DX
	MOVQ t+24(FP), DI
	LEAQ -34(BX), R8     // the start of the last chunk
	SUBQ $2, BX          // the end of the triples' starts

loop6:
	CMPQ DX, R8
	JA   last6
	LEAQ (SI)(DX*1), R9
	TRIPLES6
	VPMOVMSKB Y3, AX
	TESTL AX, AX
	JNZ   found6
	ADDQ  $32, DX
	JMP   loop6

last6:
	// The chunk that ends at the last triple start, less the starts
	// before DX, which the loop has tested.
	CMPQ DX, BX
	JAE  none6
	LEAQ (SI)(R8*1), R9
	TRIPLES6
	VPMOVMSKB Y3, AX
	MOVQ  DX, CX
	SUBQ  R8, CX
	SHRQ  CX, AX
	TESTQ AX, AX
	JZ    none6
	BSFQ  AX, AX
	ADDQ  DX, AX
	VZEROUPPER
	MOVQ  AX, ret+32(FP)
	RET

found6:
	BSFL AX, AX
	ADDQ DX, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

none6:
	VZEROUPPER
	MOVQ $-1, ret+32(FP)
	RET
