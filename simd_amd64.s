//go:build gc && !purego

#include "textflag.h"

// AVX2 + FMA3 kernels for amd64. simd_amd64.go holds the stubs, their
// reference Go loops, and the Go wrappers that validate every length
// before calling in here: nothing below checks a bound.
//
// The matrix kernels work on tiles of C held in YMM accumulators. A tile
// whose rows run past the matrix repeats its last row (the duplicate rows
// compute and store the same values, after every load of C), and a tile
// whose columns run past it uses masked loads and stores (VMASKMOVPS reads
// zeros and writes nothing in the masked-out lanes, and never faults).
//
// ReLU is max(0, s) with the accumulator as the second operand, which
// VMAXPS returns when either is NaN, so NaN stays NaN as in Go's max; the
// following +0 turns a −0 into +0, again as Go's max(−0, 0) does.

// Lane numbers, to build the masks of partial vectors: lane l is active
// when l < the number of elements left.
DATA lanes32<>+0(SB)/4, $0
DATA lanes32<>+4(SB)/4, $1
DATA lanes32<>+8(SB)/4, $2
DATA lanes32<>+12(SB)/4, $3
DATA lanes32<>+16(SB)/4, $4
DATA lanes32<>+20(SB)/4, $5
DATA lanes32<>+24(SB)/4, $6
DATA lanes32<>+28(SB)/4, $7
DATA lanes32<>+32(SB)/4, $8
DATA lanes32<>+36(SB)/4, $9
DATA lanes32<>+40(SB)/4, $10
DATA lanes32<>+44(SB)/4, $11
DATA lanes32<>+48(SB)/4, $12
DATA lanes32<>+52(SB)/4, $13
DATA lanes32<>+56(SB)/4, $14
DATA lanes32<>+60(SB)/4, $15
DATA lanes32<>+64(SB)/4, $16
DATA lanes32<>+68(SB)/4, $17
DATA lanes32<>+72(SB)/4, $18
DATA lanes32<>+76(SB)/4, $19
DATA lanes32<>+80(SB)/4, $20
DATA lanes32<>+84(SB)/4, $21
DATA lanes32<>+88(SB)/4, $22
DATA lanes32<>+92(SB)/4, $23
DATA lanes32<>+96(SB)/4, $24
DATA lanes32<>+100(SB)/4, $25
DATA lanes32<>+104(SB)/4, $26
DATA lanes32<>+108(SB)/4, $27
DATA lanes32<>+112(SB)/4, $28
DATA lanes32<>+116(SB)/4, $29
DATA lanes32<>+120(SB)/4, $30
DATA lanes32<>+124(SB)/4, $31
GLOBL lanes32<>(SB), RODATA|NOPTR, $128

DATA lanes64<>+0(SB)/8, $0
DATA lanes64<>+8(SB)/8, $1
DATA lanes64<>+16(SB)/8, $2
DATA lanes64<>+24(SB)/8, $3
DATA lanes64<>+32(SB)/8, $4
DATA lanes64<>+40(SB)/8, $5
DATA lanes64<>+48(SB)/8, $6
DATA lanes64<>+56(SB)/8, $7
DATA lanes64<>+64(SB)/8, $8
DATA lanes64<>+72(SB)/8, $9
DATA lanes64<>+80(SB)/8, $10
DATA lanes64<>+88(SB)/8, $11
DATA lanes64<>+96(SB)/8, $12
DATA lanes64<>+104(SB)/8, $13
DATA lanes64<>+112(SB)/8, $14
DATA lanes64<>+120(SB)/8, $15
GLOBL lanes64<>(SB), RODATA|NOPTR, $128

// ---------------------------------------------------------------------
// gemmBcastF32: six rows of C by sixteen columns per tile, Y0–Y11 the
// accumulators (row r in Y(2r), Y(2r+1)), B(q, j:j+16) in Y12/Y13 and the
// broadcast A(i+r, q) in Y14/Y15. Columns left over (fewer than 16) go in
// masked chunks of eight, six accumulators Y0–Y5.

#define GB_A0 SI  // &A(i+r, 0) for the six rows of the tile
#define GB_A1 DI
#define GB_A2 R8
#define GB_A3 R9
#define GB_A4 R10
#define GB_A5 R11
#define GB_Q R12  // q·aqs·4: A's column offset
#define GB_AQ R13 // aqs·4
#define GB_B BX   // &B(q, j)
#define GB_LDB DX // ldb·4
#define GB_CNT CX // q iterations left
#define GB_J AX   // column j
// Locals: 0(SP)…40(SP) &C(i+r, 0) for the six rows, 48(SP) i.

// GB_ROWPTR sets dst = &row r of the tile: src + stride, unless r is past
// the rows left (in CX), when dst = src.
#define GB_ROWPTR(src, dst, stride, r) \
	MOVQ src, dst; \
	LEAQ (src)(stride*1), AX; \
	CMPQ CX, $r; \
	CMOVQGT AX, dst

// func gemmBcastF32(m, n, k int, a *float32, ars, aqs int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)
TEXT ·gemmBcastF32(SB), NOSPLIT, $64-96
	MOVQ ldb+56(FP), GB_LDB
	SHLQ $2, GB_LDB
	MOVQ $0, 48(SP)

gemmBcastF32_rows:
	MOVQ m+0(FP), CX
	SUBQ 48(SP), CX // rows left, ≥ 1
	MOVQ ars+32(FP), R12
	SHLQ $2, R12
	MOVQ 48(SP), AX
	IMULQ R12, AX
	MOVQ a+24(FP), GB_A0
	ADDQ AX, GB_A0  // A0 = &A(i, 0)
	GB_ROWPTR(GB_A0, GB_A1, R12, 1)
	GB_ROWPTR(GB_A1, GB_A2, R12, 2)
	GB_ROWPTR(GB_A2, GB_A3, R12, 3)
	GB_ROWPTR(GB_A3, GB_A4, R12, 4)
	GB_ROWPTR(GB_A4, GB_A5, R12, 5)
	MOVQ ldc+72(FP), R12
	SHLQ $2, R12
	MOVQ 48(SP), AX
	IMULQ R12, AX
	MOVQ c+64(FP), R13
	ADDQ AX, R13    // &C(i, 0)
	MOVQ R13, 0(SP)
	GB_ROWPTR(R13, R13, R12, 1)
	MOVQ R13, 8(SP)
	GB_ROWPTR(R13, R13, R12, 2)
	MOVQ R13, 16(SP)
	GB_ROWPTR(R13, R13, R12, 3)
	MOVQ R13, 24(SP)
	GB_ROWPTR(R13, R13, R12, 4)
	MOVQ R13, 32(SP)
	GB_ROWPTR(R13, R13, R12, 5)
	MOVQ R13, 40(SP)
	MOVQ aqs+40(FP), GB_AQ
	SHLQ $2, GB_AQ
	XORQ GB_J, GB_J

gemmBcastF32_cols:
	MOVQ n+8(FP), CX
	SUBQ GB_J, CX
	CMPQ CX, $16
	JLT  gemmBcastF32_tail

	// A full tile: C(i:i+6, j:j+16).
	MOVQ  flags+88(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcastF32_bias
	TESTQ $2, CX
	JNZ   gemmBcastF32_accum
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	JMP    gemmBcastF32_init

gemmBcastF32_bias:
	MOVQ    bias+80(FP), CX
	VMOVUPS (CX)(GB_J*4), Y0   // every row starts from bias[j:j+16]
	VMOVUPS 32(CX)(GB_J*4), Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y1, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y1, Y5
	VMOVAPS Y0, Y6
	VMOVAPS Y1, Y7
	VMOVAPS Y0, Y8
	VMOVAPS Y1, Y9
	VMOVAPS Y0, Y10
	VMOVAPS Y1, Y11
	JMP     gemmBcastF32_init

gemmBcastF32_accum:
	MOVQ    0(SP), CX
	VMOVUPS (CX)(GB_J*4), Y0   // C(i, j:j+16)
	VMOVUPS 32(CX)(GB_J*4), Y1
	MOVQ    8(SP), CX
	VMOVUPS (CX)(GB_J*4), Y2
	VMOVUPS 32(CX)(GB_J*4), Y3
	MOVQ    16(SP), CX
	VMOVUPS (CX)(GB_J*4), Y4
	VMOVUPS 32(CX)(GB_J*4), Y5
	MOVQ    24(SP), CX
	VMOVUPS (CX)(GB_J*4), Y6
	VMOVUPS 32(CX)(GB_J*4), Y7
	MOVQ    32(SP), CX
	VMOVUPS (CX)(GB_J*4), Y8
	VMOVUPS 32(CX)(GB_J*4), Y9
	MOVQ    40(SP), CX
	VMOVUPS (CX)(GB_J*4), Y10
	VMOVUPS 32(CX)(GB_J*4), Y11

gemmBcastF32_init:
	MOVQ  b+48(FP), GB_B
	LEAQ  (GB_B)(GB_J*4), GB_B
	XORQ  GB_Q, GB_Q
	MOVQ  k+16(FP), GB_CNT
	TESTQ GB_CNT, GB_CNT
	JZ    gemmBcastF32_store

gemmBcastF32_loop:
	// for r := range 6 { C(i+r, j:j+16) += A(i+r, q) * B(q, j:j+16) }
	VMOVUPS      (GB_B), Y12
	VMOVUPS      32(GB_B), Y13
	VBROADCASTSS (GB_A0)(GB_Q*1), Y14
	VBROADCASTSS (GB_A1)(GB_Q*1), Y15
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (GB_A2)(GB_Q*1), Y14
	VBROADCASTSS (GB_A3)(GB_Q*1), Y15
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (GB_A4)(GB_Q*1), Y14
	VBROADCASTSS (GB_A5)(GB_Q*1), Y15
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         GB_AQ, GB_Q
	ADDQ         GB_LDB, GB_B
	DECQ         GB_CNT
	JNZ          gemmBcastF32_loop

gemmBcastF32_store:
	MOVQ  flags+88(FP), CX
	TESTQ $4, CX
	JZ    gemmBcastF32_write
	VXORPS Y12, Y12, Y12
	VMAXPS Y0, Y12, Y0   // max(0, s): s if NaN
	VMAXPS Y1, Y12, Y1
	VMAXPS Y2, Y12, Y2
	VMAXPS Y3, Y12, Y3
	VMAXPS Y4, Y12, Y4
	VMAXPS Y5, Y12, Y5
	VMAXPS Y6, Y12, Y6
	VMAXPS Y7, Y12, Y7
	VMAXPS Y8, Y12, Y8
	VMAXPS Y9, Y12, Y9
	VMAXPS Y10, Y12, Y10
	VMAXPS Y11, Y12, Y11
	VADDPS Y12, Y0, Y0   // −0 + 0 = +0
	VADDPS Y12, Y1, Y1
	VADDPS Y12, Y2, Y2
	VADDPS Y12, Y3, Y3
	VADDPS Y12, Y4, Y4
	VADDPS Y12, Y5, Y5
	VADDPS Y12, Y6, Y6
	VADDPS Y12, Y7, Y7
	VADDPS Y12, Y8, Y8
	VADDPS Y12, Y9, Y9
	VADDPS Y12, Y10, Y10
	VADDPS Y12, Y11, Y11

gemmBcastF32_write:
	MOVQ    0(SP), CX
	VMOVUPS Y0, (CX)(GB_J*4)
	VMOVUPS Y1, 32(CX)(GB_J*4)
	MOVQ    8(SP), CX
	VMOVUPS Y2, (CX)(GB_J*4)
	VMOVUPS Y3, 32(CX)(GB_J*4)
	MOVQ    16(SP), CX
	VMOVUPS Y4, (CX)(GB_J*4)
	VMOVUPS Y5, 32(CX)(GB_J*4)
	MOVQ    24(SP), CX
	VMOVUPS Y6, (CX)(GB_J*4)
	VMOVUPS Y7, 32(CX)(GB_J*4)
	MOVQ    32(SP), CX
	VMOVUPS Y8, (CX)(GB_J*4)
	VMOVUPS Y9, 32(CX)(GB_J*4)
	MOVQ    40(SP), CX
	VMOVUPS Y10, (CX)(GB_J*4)
	VMOVUPS Y11, 32(CX)(GB_J*4)
	ADDQ    $16, GB_J
	JMP     gemmBcastF32_cols

gemmBcastF32_tail:
	// CX = n − j < 16 columns left: a masked chunk of eight.
	CMPQ CX, $0
	JLE  gemmBcastF32_nextrows
	VMOVQ        CX, X13
	VPBROADCASTD X13, Y13
	VPCMPGTD     lanes32<>(SB), Y13, Y13 // lane l active when l < n−j
	MOVQ  flags+88(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcastF32_tbias
	TESTQ $2, CX
	JNZ   gemmBcastF32_taccum
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	JMP    gemmBcastF32_tinit

gemmBcastF32_tbias:
	MOVQ       bias+80(FP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y0
	VMOVAPS    Y0, Y1
	VMOVAPS    Y0, Y2
	VMOVAPS    Y0, Y3
	VMOVAPS    Y0, Y4
	VMOVAPS    Y0, Y5
	JMP        gemmBcastF32_tinit

gemmBcastF32_taccum:
	MOVQ       0(SP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y0
	MOVQ       8(SP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y1
	MOVQ       16(SP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y2
	MOVQ       24(SP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y3
	MOVQ       32(SP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y4
	MOVQ       40(SP), CX
	VMASKMOVPS (CX)(GB_J*4), Y13, Y5

gemmBcastF32_tinit:
	MOVQ  b+48(FP), GB_B
	LEAQ  (GB_B)(GB_J*4), GB_B
	XORQ  GB_Q, GB_Q
	MOVQ  k+16(FP), GB_CNT
	TESTQ GB_CNT, GB_CNT
	JZ    gemmBcastF32_tstore

gemmBcastF32_tloop:
	VMASKMOVPS   (GB_B), Y13, Y12
	VBROADCASTSS (GB_A0)(GB_Q*1), Y14
	VBROADCASTSS (GB_A1)(GB_Q*1), Y15
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y12, Y15, Y1
	VBROADCASTSS (GB_A2)(GB_Q*1), Y14
	VBROADCASTSS (GB_A3)(GB_Q*1), Y15
	VFMADD231PS  Y12, Y14, Y2
	VFMADD231PS  Y12, Y15, Y3
	VBROADCASTSS (GB_A4)(GB_Q*1), Y14
	VBROADCASTSS (GB_A5)(GB_Q*1), Y15
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y12, Y15, Y5
	ADDQ         GB_AQ, GB_Q
	ADDQ         GB_LDB, GB_B
	DECQ         GB_CNT
	JNZ          gemmBcastF32_tloop

gemmBcastF32_tstore:
	MOVQ  flags+88(FP), CX
	TESTQ $4, CX
	JZ    gemmBcastF32_twrite
	VXORPS Y12, Y12, Y12
	VMAXPS Y0, Y12, Y0
	VMAXPS Y1, Y12, Y1
	VMAXPS Y2, Y12, Y2
	VMAXPS Y3, Y12, Y3
	VMAXPS Y4, Y12, Y4
	VMAXPS Y5, Y12, Y5
	VADDPS Y12, Y0, Y0   // −0 + 0 = +0
	VADDPS Y12, Y1, Y1
	VADDPS Y12, Y2, Y2
	VADDPS Y12, Y3, Y3
	VADDPS Y12, Y4, Y4
	VADDPS Y12, Y5, Y5

gemmBcastF32_twrite:
	MOVQ       0(SP), CX
	VMASKMOVPS Y0, Y13, (CX)(GB_J*4)
	MOVQ       8(SP), CX
	VMASKMOVPS Y1, Y13, (CX)(GB_J*4)
	MOVQ       16(SP), CX
	VMASKMOVPS Y2, Y13, (CX)(GB_J*4)
	MOVQ       24(SP), CX
	VMASKMOVPS Y3, Y13, (CX)(GB_J*4)
	MOVQ       32(SP), CX
	VMASKMOVPS Y4, Y13, (CX)(GB_J*4)
	MOVQ       40(SP), CX
	VMASKMOVPS Y5, Y13, (CX)(GB_J*4)
	ADDQ       $8, GB_J
	JMP        gemmBcastF32_cols

gemmBcastF32_nextrows:
	MOVQ 48(SP), AX
	ADDQ $6, AX
	MOVQ AX, 48(SP)
	CMPQ AX, m+0(FP)
	JLT  gemmBcastF32_rows
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// gemmBcast1F32: one row of C, the broadcast A(q) in Y15 and B read
// straight from memory by the FMAs. Every column is the same chain of k
// FMAs in q order, whichever of the paths below computes it.
//
// Without gemmAccum (a layer's forward pass) and for n ≥ 104: tiles of 104
// columns in Y0–Y12, the last one moved back to end at n, so that it
// recomputes (and stores again, unchanged) some columns of the one before
// instead of masking. Thirteen independent chains keep both FMA ports busy
// where eight chains of one tile, with the next tile's work too far ahead
// for the reorder buffer, leave them waiting on the FMA latency.
//
// Otherwise: 64 columns per tile in Y0–Y7. The columns past the last whole
// tile (n mod 64) go first, one vector of eight at a time in Y0, the last
// partial vector masked (mask Y8, B in Y12): a single vector is one
// dependent chain of k FMAs, which then overlaps the tiles' work instead of
// ending the kernel.

#define G1_A SI   // &A(q)
#define G1_B BX   // &B(q, j)
#define G1_AQ R8  // aqs·4
#define G1_LDB DX // ldb·4
#define G1_CNT CX // q iterations left
#define G1_J AX   // column j
#define G1_C DI   // &C(j)
#define G1_NT R9  // n rounded down to whole tiles: where they end

// func gemmBcast1F32(n, k int, a *float32, aqs int, b *float32, ldb int, c *float32, bias *float32, flags int)
TEXT ·gemmBcast1F32(SB), NOSPLIT, $0-72
	MOVQ aqs+24(FP), G1_AQ
	SHLQ $2, G1_AQ
	MOVQ ldb+40(FP), G1_LDB
	SHLQ $2, G1_LDB
	MOVQ c+48(FP), G1_C
	// Without gemmAccum and for n ≥ 104: tiles of 104 columns.
	MOVQ    flags+64(FP), CX
	TESTQ   $2, CX
	JNZ     gemmBcast1F32_narrow
	CMPQ    n+0(FP), $104
	JLT     gemmBcast1F32_narrow
	XORQ    G1_J, G1_J

gemmBcast1F32_wide:
	// j = min(j, n − 104): the last tile ends at n.
	MOVQ    n+0(FP), CX
	SUBQ    $104, CX
	CMPQ    G1_J, CX
	CMOVQGT CX, G1_J
	MOVQ    flags+64(FP), CX
	TESTQ   $1, CX
	JNZ     gemmBcast1F32_wbias
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	JMP    gemmBcast1F32_winit

gemmBcast1F32_wbias:
	MOVQ bias+56(FP), CX
	VMOVUPS (CX)(G1_J*4), Y0
	VMOVUPS 32(CX)(G1_J*4), Y1
	VMOVUPS 64(CX)(G1_J*4), Y2
	VMOVUPS 96(CX)(G1_J*4), Y3
	VMOVUPS 128(CX)(G1_J*4), Y4
	VMOVUPS 160(CX)(G1_J*4), Y5
	VMOVUPS 192(CX)(G1_J*4), Y6
	VMOVUPS 224(CX)(G1_J*4), Y7
	VMOVUPS 256(CX)(G1_J*4), Y8
	VMOVUPS 288(CX)(G1_J*4), Y9
	VMOVUPS 320(CX)(G1_J*4), Y10
	VMOVUPS 352(CX)(G1_J*4), Y11
	VMOVUPS 384(CX)(G1_J*4), Y12

gemmBcast1F32_winit:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*4), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F32_wstore

gemmBcast1F32_wloop:
	VBROADCASTSS (G1_A), Y15
	VFMADD231PS  (G1_B), Y15, Y0 // C(j:j+104) += A(q) * B(q, j:j+104)
	VFMADD231PS  32(G1_B), Y15, Y1
	VFMADD231PS  64(G1_B), Y15, Y2
	VFMADD231PS  96(G1_B), Y15, Y3
	VFMADD231PS  128(G1_B), Y15, Y4
	VFMADD231PS  160(G1_B), Y15, Y5
	VFMADD231PS  192(G1_B), Y15, Y6
	VFMADD231PS  224(G1_B), Y15, Y7
	VFMADD231PS  256(G1_B), Y15, Y8
	VFMADD231PS  288(G1_B), Y15, Y9
	VFMADD231PS  320(G1_B), Y15, Y10
	VFMADD231PS  352(G1_B), Y15, Y11
	VFMADD231PS  384(G1_B), Y15, Y12
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F32_wloop

gemmBcast1F32_wstore:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F32_wwrite
	VXORPS Y15, Y15, Y15
	VMAXPS Y0, Y15, Y0
	VMAXPS Y1, Y15, Y1
	VMAXPS Y2, Y15, Y2
	VMAXPS Y3, Y15, Y3
	VMAXPS Y4, Y15, Y4
	VMAXPS Y5, Y15, Y5
	VMAXPS Y6, Y15, Y6
	VMAXPS Y7, Y15, Y7
	VMAXPS Y8, Y15, Y8
	VMAXPS Y9, Y15, Y9
	VMAXPS Y10, Y15, Y10
	VMAXPS Y11, Y15, Y11
	VMAXPS Y12, Y15, Y12
	VADDPS Y15, Y0, Y0   // −0 + 0 = +0
	VADDPS Y15, Y1, Y1
	VADDPS Y15, Y2, Y2
	VADDPS Y15, Y3, Y3
	VADDPS Y15, Y4, Y4
	VADDPS Y15, Y5, Y5
	VADDPS Y15, Y6, Y6
	VADDPS Y15, Y7, Y7
	VADDPS Y15, Y8, Y8
	VADDPS Y15, Y9, Y9
	VADDPS Y15, Y10, Y10
	VADDPS Y15, Y11, Y11
	VADDPS Y15, Y12, Y12

gemmBcast1F32_wwrite:
	VMOVUPS Y0, (G1_C)(G1_J*4)
	VMOVUPS Y1, 32(G1_C)(G1_J*4)
	VMOVUPS Y2, 64(G1_C)(G1_J*4)
	VMOVUPS Y3, 96(G1_C)(G1_J*4)
	VMOVUPS Y4, 128(G1_C)(G1_J*4)
	VMOVUPS Y5, 160(G1_C)(G1_J*4)
	VMOVUPS Y6, 192(G1_C)(G1_J*4)
	VMOVUPS Y7, 224(G1_C)(G1_J*4)
	VMOVUPS Y8, 256(G1_C)(G1_J*4)
	VMOVUPS Y9, 288(G1_C)(G1_J*4)
	VMOVUPS Y10, 320(G1_C)(G1_J*4)
	VMOVUPS Y11, 352(G1_C)(G1_J*4)
	VMOVUPS Y12, 384(G1_C)(G1_J*4)
	ADDQ    $104, G1_J
	CMPQ    G1_J, n+0(FP)
	JLT     gemmBcast1F32_wide
	JMP     gemmBcast1F32_done

gemmBcast1F32_narrow:
	MOVQ n+0(FP), G1_NT
	ANDQ $-64, G1_NT
	MOVQ G1_NT, G1_J

gemmBcast1F32_vec:
	// CX = n − j columns left past the tiles: a vector of eight.
	MOVQ n+0(FP), CX
	SUBQ G1_J, CX
	CMPQ CX, $8
	JLT  gemmBcast1F32_last
	MOVQ  flags+64(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcast1F32_vbias
	TESTQ $2, CX
	JNZ   gemmBcast1F32_vaccum
	VXORPS Y0, Y0, Y0
	JMP    gemmBcast1F32_vinit

gemmBcast1F32_vbias:
	MOVQ bias+56(FP), CX
	JMP  gemmBcast1F32_vload

gemmBcast1F32_vaccum:
	MOVQ G1_C, CX

gemmBcast1F32_vload:
	VMOVUPS (CX)(G1_J*4), Y0

gemmBcast1F32_vinit:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*4), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F32_vstore

gemmBcast1F32_vloop:
	VBROADCASTSS (G1_A), Y15
	VFMADD231PS  (G1_B), Y15, Y0 // C(j:j+8) += A(q) * B(q, j:j+8)
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F32_vloop

gemmBcast1F32_vstore:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F32_vwrite
	VXORPS Y12, Y12, Y12
	VMAXPS Y0, Y12, Y0
	VADDPS Y12, Y0, Y0   // −0 + 0 = +0

gemmBcast1F32_vwrite:
	VMOVUPS Y0, (G1_C)(G1_J*4)
	ADDQ    $8, G1_J
	JMP     gemmBcast1F32_vec

gemmBcast1F32_last:
	// CX < 8 columns left: a masked vector.
	TESTQ CX, CX
	JZ    gemmBcast1F32_tiles
	VMOVQ        CX, X8
	VPBROADCASTD X8, Y8
	VPCMPGTD     lanes32<>(SB), Y8, Y8
	MOVQ  flags+64(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcast1F32_lbias
	TESTQ $2, CX
	JNZ   gemmBcast1F32_laccum
	VXORPS Y0, Y0, Y0
	JMP    gemmBcast1F32_linit

gemmBcast1F32_lbias:
	MOVQ bias+56(FP), CX
	JMP  gemmBcast1F32_lload

gemmBcast1F32_laccum:
	MOVQ G1_C, CX

gemmBcast1F32_lload:
	VMASKMOVPS (CX)(G1_J*4), Y8, Y0

gemmBcast1F32_linit:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*4), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F32_lstore

gemmBcast1F32_lloop:
	VBROADCASTSS (G1_A), Y15
	VMASKMOVPS   (G1_B), Y8, Y12
	VFMADD231PS  Y12, Y15, Y0
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F32_lloop

gemmBcast1F32_lstore:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F32_lwrite
	VXORPS Y12, Y12, Y12
	VMAXPS Y0, Y12, Y0
	VADDPS Y12, Y0, Y0   // −0 + 0 = +0

gemmBcast1F32_lwrite:
	VMASKMOVPS Y0, Y8, (G1_C)(G1_J*4)

gemmBcast1F32_tiles:
	XORQ G1_J, G1_J

gemmBcast1F32_cols:
	CMPQ G1_J, G1_NT
	JGE  gemmBcast1F32_done
	MOVQ  flags+64(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcast1F32_bias
	TESTQ $2, CX
	JNZ   gemmBcast1F32_accum
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	JMP    gemmBcast1F32_init

gemmBcast1F32_bias:
	MOVQ bias+56(FP), CX
	JMP  gemmBcast1F32_load

gemmBcast1F32_accum:
	MOVQ G1_C, CX

gemmBcast1F32_load:
	VMOVUPS (CX)(G1_J*4), Y0
	VMOVUPS 32(CX)(G1_J*4), Y1
	VMOVUPS 64(CX)(G1_J*4), Y2
	VMOVUPS 96(CX)(G1_J*4), Y3
	VMOVUPS 128(CX)(G1_J*4), Y4
	VMOVUPS 160(CX)(G1_J*4), Y5
	VMOVUPS 192(CX)(G1_J*4), Y6
	VMOVUPS 224(CX)(G1_J*4), Y7

gemmBcast1F32_init:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*4), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F32_store

gemmBcast1F32_loop:
	// C(j:j+64) += A(q) * B(q, j:j+64)
	VBROADCASTSS (G1_A), Y15
	VFMADD231PS  (G1_B), Y15, Y0
	VFMADD231PS  32(G1_B), Y15, Y1
	VFMADD231PS  64(G1_B), Y15, Y2
	VFMADD231PS  96(G1_B), Y15, Y3
	VFMADD231PS  128(G1_B), Y15, Y4
	VFMADD231PS  160(G1_B), Y15, Y5
	VFMADD231PS  192(G1_B), Y15, Y6
	VFMADD231PS  224(G1_B), Y15, Y7
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F32_loop

gemmBcast1F32_store:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F32_write
	VXORPS Y12, Y12, Y12
	VMAXPS Y0, Y12, Y0
	VMAXPS Y1, Y12, Y1
	VMAXPS Y2, Y12, Y2
	VMAXPS Y3, Y12, Y3
	VMAXPS Y4, Y12, Y4
	VMAXPS Y5, Y12, Y5
	VMAXPS Y6, Y12, Y6
	VMAXPS Y7, Y12, Y7
	VADDPS Y12, Y0, Y0   // −0 + 0 = +0
	VADDPS Y12, Y1, Y1
	VADDPS Y12, Y2, Y2
	VADDPS Y12, Y3, Y3
	VADDPS Y12, Y4, Y4
	VADDPS Y12, Y5, Y5
	VADDPS Y12, Y6, Y6
	VADDPS Y12, Y7, Y7

gemmBcast1F32_write:
	VMOVUPS Y0, (G1_C)(G1_J*4)
	VMOVUPS Y1, 32(G1_C)(G1_J*4)
	VMOVUPS Y2, 64(G1_C)(G1_J*4)
	VMOVUPS Y3, 96(G1_C)(G1_J*4)
	VMOVUPS Y4, 128(G1_C)(G1_J*4)
	VMOVUPS Y5, 160(G1_C)(G1_J*4)
	VMOVUPS Y6, 192(G1_C)(G1_J*4)
	VMOVUPS Y7, 224(G1_C)(G1_J*4)
	ADDQ    $64, G1_J
	JMP     gemmBcast1F32_cols

gemmBcast1F32_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// gemmDotF32: C(i:i+3, p:p+4) per tile as twelve dot products along k,
// accumulator Y(4r+t) for row i+r of A and row p+t of B. A's three rows go
// in Y12–Y14, B's rows one at a time in Y15. The last k mod 8 elements are
// a masked step whose mask waits in 0(SP), as no register is free for it.
// Each row's four sums reduce with VHADDPS to one XMM, stored whole, or
// masked for the last p < 4.

#define GD_A0 SI  // &A(i+r, 0), r = 0, 1, 2
#define GD_A1 DI
#define GD_A2 R8
#define GD_B0 R9  // &B(p+t, 0), t = 0…3
#define GD_B1 R10
#define GD_B2 R11
#define GD_B3 R12
#define GD_J AX   // element j along k
#define GD_K8 DX  // k − 8: the last j of a full step
// Locals: 0(SP) the k-tail mask (32 bytes), 32(SP) i, 40(SP) p,
// 48(SP)…64(SP) &C(i+r, 0).

// GD_ROWPTR sets dst = src + stride unless row r is past the rows left
// (in CX), when dst = src. BX is scratch.
#define GD_ROWPTR(src, dst, stride, r) \
	MOVQ src, dst; \
	LEAQ (src)(stride*1), BX; \
	CMPQ CX, $r; \
	CMOVQGT BX, dst

// GD_REDUCE4 leaves in Xa the four sums of Ya, Yb, Yc, Yd.
#define GD_REDUCE4(ya, yb, yc, yd, xa, xb) \
	VHADDPS yb, ya, ya; \
	VHADDPS yd, yc, yc; \
	VHADDPS yc, ya, ya; \
	VEXTRACTF128 $1, ya, xb; \
	VADDPS xb, xa, xa

// func gemmDotF32(m, n, k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)
TEXT ·gemmDotF32(SB), NOSPLIT, $72-88
	MOVQ         k+16(FP), CX
	ANDQ         $7, CX
	VMOVQ        CX, X15
	VPBROADCASTD X15, Y15
	VPCMPGTD     lanes32<>(SB), Y15, Y15
	VMOVUPS      Y15, 0(SP)             // lane l active when l < k mod 8
	MOVQ         k+16(FP), GD_K8
	SUBQ         $8, GD_K8
	MOVQ         $0, 32(SP)

gemmDotF32_rows:
	MOVQ m+0(FP), CX
	SUBQ 32(SP), CX // rows left
	MOVQ lda+32(FP), R13
	SHLQ $2, R13
	MOVQ 32(SP), BX
	IMULQ R13, BX
	MOVQ a+24(FP), GD_A0
	ADDQ BX, GD_A0
	GD_ROWPTR(GD_A0, GD_A1, R13, 1)
	GD_ROWPTR(GD_A1, GD_A2, R13, 2)
	MOVQ ldc+64(FP), R13
	SHLQ $2, R13
	MOVQ 32(SP), BX
	IMULQ R13, BX
	MOVQ c+56(FP), GD_B0
	ADDQ BX, GD_B0
	MOVQ GD_B0, 48(SP)
	GD_ROWPTR(GD_B0, GD_B0, R13, 1)
	MOVQ GD_B0, 56(SP)
	GD_ROWPTR(GD_B0, GD_B0, R13, 2)
	MOVQ GD_B0, 64(SP)
	MOVQ $0, 40(SP)

gemmDotF32_cols:
	MOVQ n+8(FP), CX
	SUBQ 40(SP), CX // columns left
	CMPQ CX, $0
	JLE  gemmDotF32_nextrows
	MOVQ ldb+48(FP), R13
	SHLQ $2, R13
	MOVQ 40(SP), BX
	IMULQ R13, BX
	MOVQ b+40(FP), GD_B0
	ADDQ BX, GD_B0
	GD_ROWPTR(GD_B0, GD_B1, R13, 1)
	GD_ROWPTR(GD_B1, GD_B2, R13, 2)
	GD_ROWPTR(GD_B2, GD_B3, R13, 3)
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	XORQ   GD_J, GD_J
	CMPQ   GD_J, GD_K8
	JGT    gemmDotF32_ktail

gemmDotF32_loop:
	// for r, t: C(i+r, p+t) += A(i+r, j:j+8) · B(p+t, j:j+8), lane-wise
	VMOVUPS     (GD_A0)(GD_J*4), Y12
	VMOVUPS     (GD_A1)(GD_J*4), Y13
	VMOVUPS     (GD_A2)(GD_J*4), Y14
	VMOVUPS     (GD_B0)(GD_J*4), Y15
	VFMADD231PS Y15, Y12, Y0
	VFMADD231PS Y15, Y13, Y4
	VFMADD231PS Y15, Y14, Y8
	VMOVUPS     (GD_B1)(GD_J*4), Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y5
	VFMADD231PS Y15, Y14, Y9
	VMOVUPS     (GD_B2)(GD_J*4), Y15
	VFMADD231PS Y15, Y12, Y2
	VFMADD231PS Y15, Y13, Y6
	VFMADD231PS Y15, Y14, Y10
	VMOVUPS     (GD_B3)(GD_J*4), Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y7
	VFMADD231PS Y15, Y14, Y11
	ADDQ        $8, GD_J
	CMPQ        GD_J, GD_K8
	JLE         gemmDotF32_loop

gemmDotF32_ktail:
	MOVQ k+16(FP), CX
	CMPQ GD_J, CX
	JGE  gemmDotF32_reduce
	VMOVUPS     0(SP), Y15
	VMASKMOVPS  (GD_A0)(GD_J*4), Y15, Y12
	VMASKMOVPS  (GD_A1)(GD_J*4), Y15, Y13
	VMASKMOVPS  (GD_A2)(GD_J*4), Y15, Y14
	VMASKMOVPS  (GD_B0)(GD_J*4), Y15, Y15
	VFMADD231PS Y15, Y12, Y0
	VFMADD231PS Y15, Y13, Y4
	VFMADD231PS Y15, Y14, Y8
	VMOVUPS     0(SP), Y15
	VMASKMOVPS  (GD_B1)(GD_J*4), Y15, Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y5
	VFMADD231PS Y15, Y14, Y9
	VMOVUPS     0(SP), Y15
	VMASKMOVPS  (GD_B2)(GD_J*4), Y15, Y15
	VFMADD231PS Y15, Y12, Y2
	VFMADD231PS Y15, Y13, Y6
	VFMADD231PS Y15, Y14, Y10
	VMOVUPS     0(SP), Y15
	VMASKMOVPS  (GD_B3)(GD_J*4), Y15, Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y7
	VFMADD231PS Y15, Y14, Y11

gemmDotF32_reduce:
	GD_REDUCE4(Y0, Y1, Y2, Y3, X0, X1)
	GD_REDUCE4(Y4, Y5, Y6, Y7, X4, X5)
	GD_REDUCE4(Y8, Y9, Y10, Y11, X8, X9)
	// X15 = mask of the columns p:p+4 that exist
	MOVQ         n+8(FP), CX
	SUBQ         40(SP), CX
	VMOVQ        CX, X15
	VPBROADCASTD X15, X15
	VPCMPGTD     lanes32<>(SB), X15, X15
	MOVQ         40(SP), BX
	MOVQ         flags+80(FP), R13
	TESTQ        $1, R13
	JZ           gemmDotF32_nobias
	MOVQ         bias+72(FP), R13
	VMASKMOVPS   (R13)(BX*4), X15, X12
	VADDPS       X0, X12, X0            // bias[p] + s
	VADDPS       X4, X12, X4
	VADDPS       X8, X12, X8
	MOVQ         flags+80(FP), R13

gemmDotF32_nobias:
	TESTQ  $4, R13
	JZ     gemmDotF32_write
	VXORPS X12, X12, X12
	VMAXPS X0, X12, X0
	VMAXPS X4, X12, X4
	VMAXPS X8, X12, X8
	VADDPS X12, X0, X0
	VADDPS X12, X4, X4
	VADDPS X12, X8, X8

gemmDotF32_write:
	CMPQ       CX, $4
	JLT        gemmDotF32_partial
	MOVQ       48(SP), R13
	VMOVUPS    X0, (R13)(BX*4)
	MOVQ       56(SP), R13
	VMOVUPS    X4, (R13)(BX*4)
	MOVQ       64(SP), R13
	VMOVUPS    X8, (R13)(BX*4)
	ADDQ       $4, BX
	MOVQ       BX, 40(SP)
	JMP        gemmDotF32_cols

gemmDotF32_partial:
	MOVQ       48(SP), R13
	VMASKMOVPS X0, X15, (R13)(BX*4)
	MOVQ       56(SP), R13
	VMASKMOVPS X4, X15, (R13)(BX*4)
	MOVQ       64(SP), R13
	VMASKMOVPS X8, X15, (R13)(BX*4)

gemmDotF32_nextrows:
	MOVQ 32(SP), BX
	ADDQ $3, BX
	MOVQ BX, 32(SP)
	CMPQ BX, m+0(FP)
	JLT  gemmDotF32_rows
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// gemmBcastF64: as gemmBcastF32 with four float64 per YMM: six rows by
// eight columns per tile, masked chunks of four.

// func gemmBcastF64(m, n, k int, a *float64, ars, aqs int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)
TEXT ·gemmBcastF64(SB), NOSPLIT, $64-96
	MOVQ ldb+56(FP), GB_LDB
	SHLQ $3, GB_LDB
	MOVQ $0, 48(SP)

gemmBcastF64_rows:
	MOVQ m+0(FP), CX
	SUBQ 48(SP), CX // rows left, ≥ 1
	MOVQ ars+32(FP), R12
	SHLQ $3, R12
	MOVQ 48(SP), AX
	IMULQ R12, AX
	MOVQ a+24(FP), GB_A0
	ADDQ AX, GB_A0  // A0 = &A(i, 0)
	GB_ROWPTR(GB_A0, GB_A1, R12, 1)
	GB_ROWPTR(GB_A1, GB_A2, R12, 2)
	GB_ROWPTR(GB_A2, GB_A3, R12, 3)
	GB_ROWPTR(GB_A3, GB_A4, R12, 4)
	GB_ROWPTR(GB_A4, GB_A5, R12, 5)
	MOVQ ldc+72(FP), R12
	SHLQ $3, R12
	MOVQ 48(SP), AX
	IMULQ R12, AX
	MOVQ c+64(FP), R13
	ADDQ AX, R13    // &C(i, 0)
	MOVQ R13, 0(SP)
	GB_ROWPTR(R13, R13, R12, 1)
	MOVQ R13, 8(SP)
	GB_ROWPTR(R13, R13, R12, 2)
	MOVQ R13, 16(SP)
	GB_ROWPTR(R13, R13, R12, 3)
	MOVQ R13, 24(SP)
	GB_ROWPTR(R13, R13, R12, 4)
	MOVQ R13, 32(SP)
	GB_ROWPTR(R13, R13, R12, 5)
	MOVQ R13, 40(SP)
	MOVQ aqs+40(FP), GB_AQ
	SHLQ $3, GB_AQ
	XORQ GB_J, GB_J

gemmBcastF64_cols:
	MOVQ n+8(FP), CX
	SUBQ GB_J, CX
	CMPQ CX, $8
	JLT  gemmBcastF64_tail

	// A full tile: C(i:i+6, j:j+8).
	MOVQ  flags+88(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcastF64_bias
	TESTQ $2, CX
	JNZ   gemmBcastF64_accum
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	JMP    gemmBcastF64_init

gemmBcastF64_bias:
	MOVQ    bias+80(FP), CX
	VMOVUPD (CX)(GB_J*8), Y0   // every row starts from bias[j:j+8]
	VMOVUPD 32(CX)(GB_J*8), Y1
	VMOVAPD Y0, Y2
	VMOVAPD Y1, Y3
	VMOVAPD Y0, Y4
	VMOVAPD Y1, Y5
	VMOVAPD Y0, Y6
	VMOVAPD Y1, Y7
	VMOVAPD Y0, Y8
	VMOVAPD Y1, Y9
	VMOVAPD Y0, Y10
	VMOVAPD Y1, Y11
	JMP     gemmBcastF64_init

gemmBcastF64_accum:
	MOVQ    0(SP), CX
	VMOVUPD (CX)(GB_J*8), Y0   // C(i, j:j+8)
	VMOVUPD 32(CX)(GB_J*8), Y1
	MOVQ    8(SP), CX
	VMOVUPD (CX)(GB_J*8), Y2
	VMOVUPD 32(CX)(GB_J*8), Y3
	MOVQ    16(SP), CX
	VMOVUPD (CX)(GB_J*8), Y4
	VMOVUPD 32(CX)(GB_J*8), Y5
	MOVQ    24(SP), CX
	VMOVUPD (CX)(GB_J*8), Y6
	VMOVUPD 32(CX)(GB_J*8), Y7
	MOVQ    32(SP), CX
	VMOVUPD (CX)(GB_J*8), Y8
	VMOVUPD 32(CX)(GB_J*8), Y9
	MOVQ    40(SP), CX
	VMOVUPD (CX)(GB_J*8), Y10
	VMOVUPD 32(CX)(GB_J*8), Y11

gemmBcastF64_init:
	MOVQ  b+48(FP), GB_B
	LEAQ  (GB_B)(GB_J*8), GB_B
	XORQ  GB_Q, GB_Q
	MOVQ  k+16(FP), GB_CNT
	TESTQ GB_CNT, GB_CNT
	JZ    gemmBcastF64_store

gemmBcastF64_loop:
	// for r := range 6 { C(i+r, j:j+8) += A(i+r, q) * B(q, j:j+8) }
	VMOVUPD      (GB_B), Y12
	VMOVUPD      32(GB_B), Y13
	VBROADCASTSD (GB_A0)(GB_Q*1), Y14
	VBROADCASTSD (GB_A1)(GB_Q*1), Y15
	VFMADD231PD  Y12, Y14, Y0
	VFMADD231PD  Y13, Y14, Y1
	VFMADD231PD  Y12, Y15, Y2
	VFMADD231PD  Y13, Y15, Y3
	VBROADCASTSD (GB_A2)(GB_Q*1), Y14
	VBROADCASTSD (GB_A3)(GB_Q*1), Y15
	VFMADD231PD  Y12, Y14, Y4
	VFMADD231PD  Y13, Y14, Y5
	VFMADD231PD  Y12, Y15, Y6
	VFMADD231PD  Y13, Y15, Y7
	VBROADCASTSD (GB_A4)(GB_Q*1), Y14
	VBROADCASTSD (GB_A5)(GB_Q*1), Y15
	VFMADD231PD  Y12, Y14, Y8
	VFMADD231PD  Y13, Y14, Y9
	VFMADD231PD  Y12, Y15, Y10
	VFMADD231PD  Y13, Y15, Y11
	ADDQ         GB_AQ, GB_Q
	ADDQ         GB_LDB, GB_B
	DECQ         GB_CNT
	JNZ          gemmBcastF64_loop

gemmBcastF64_store:
	MOVQ  flags+88(FP), CX
	TESTQ $4, CX
	JZ    gemmBcastF64_write
	VXORPD Y12, Y12, Y12
	VMAXPD Y0, Y12, Y0   // max(0, s): s if NaN
	VMAXPD Y1, Y12, Y1
	VMAXPD Y2, Y12, Y2
	VMAXPD Y3, Y12, Y3
	VMAXPD Y4, Y12, Y4
	VMAXPD Y5, Y12, Y5
	VMAXPD Y6, Y12, Y6
	VMAXPD Y7, Y12, Y7
	VMAXPD Y8, Y12, Y8
	VMAXPD Y9, Y12, Y9
	VMAXPD Y10, Y12, Y10
	VMAXPD Y11, Y12, Y11
	VADDPD Y12, Y0, Y0   // −0 + 0 = +0
	VADDPD Y12, Y1, Y1
	VADDPD Y12, Y2, Y2
	VADDPD Y12, Y3, Y3
	VADDPD Y12, Y4, Y4
	VADDPD Y12, Y5, Y5
	VADDPD Y12, Y6, Y6
	VADDPD Y12, Y7, Y7
	VADDPD Y12, Y8, Y8
	VADDPD Y12, Y9, Y9
	VADDPD Y12, Y10, Y10
	VADDPD Y12, Y11, Y11

gemmBcastF64_write:
	MOVQ    0(SP), CX
	VMOVUPD Y0, (CX)(GB_J*8)
	VMOVUPD Y1, 32(CX)(GB_J*8)
	MOVQ    8(SP), CX
	VMOVUPD Y2, (CX)(GB_J*8)
	VMOVUPD Y3, 32(CX)(GB_J*8)
	MOVQ    16(SP), CX
	VMOVUPD Y4, (CX)(GB_J*8)
	VMOVUPD Y5, 32(CX)(GB_J*8)
	MOVQ    24(SP), CX
	VMOVUPD Y6, (CX)(GB_J*8)
	VMOVUPD Y7, 32(CX)(GB_J*8)
	MOVQ    32(SP), CX
	VMOVUPD Y8, (CX)(GB_J*8)
	VMOVUPD Y9, 32(CX)(GB_J*8)
	MOVQ    40(SP), CX
	VMOVUPD Y10, (CX)(GB_J*8)
	VMOVUPD Y11, 32(CX)(GB_J*8)
	ADDQ    $8, GB_J
	JMP     gemmBcastF64_cols

gemmBcastF64_tail:
	// CX = n − j < 8 columns left: a masked chunk of four.
	CMPQ CX, $0
	JLE  gemmBcastF64_nextrows
	VMOVQ        CX, X13
	VPBROADCASTQ X13, Y13
	VPCMPGTQ     lanes64<>(SB), Y13, Y13 // lane l active when l < n−j
	MOVQ  flags+88(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcastF64_tbias
	TESTQ $2, CX
	JNZ   gemmBcastF64_taccum
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	JMP    gemmBcastF64_tinit

gemmBcastF64_tbias:
	MOVQ       bias+80(FP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y0
	VMOVAPD    Y0, Y1
	VMOVAPD    Y0, Y2
	VMOVAPD    Y0, Y3
	VMOVAPD    Y0, Y4
	VMOVAPD    Y0, Y5
	JMP        gemmBcastF64_tinit

gemmBcastF64_taccum:
	MOVQ       0(SP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y0
	MOVQ       8(SP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y1
	MOVQ       16(SP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y2
	MOVQ       24(SP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y3
	MOVQ       32(SP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y4
	MOVQ       40(SP), CX
	VMASKMOVPD (CX)(GB_J*8), Y13, Y5

gemmBcastF64_tinit:
	MOVQ  b+48(FP), GB_B
	LEAQ  (GB_B)(GB_J*8), GB_B
	XORQ  GB_Q, GB_Q
	MOVQ  k+16(FP), GB_CNT
	TESTQ GB_CNT, GB_CNT
	JZ    gemmBcastF64_tstore

gemmBcastF64_tloop:
	VMASKMOVPD   (GB_B), Y13, Y12
	VBROADCASTSD (GB_A0)(GB_Q*1), Y14
	VBROADCASTSD (GB_A1)(GB_Q*1), Y15
	VFMADD231PD  Y12, Y14, Y0
	VFMADD231PD  Y12, Y15, Y1
	VBROADCASTSD (GB_A2)(GB_Q*1), Y14
	VBROADCASTSD (GB_A3)(GB_Q*1), Y15
	VFMADD231PD  Y12, Y14, Y2
	VFMADD231PD  Y12, Y15, Y3
	VBROADCASTSD (GB_A4)(GB_Q*1), Y14
	VBROADCASTSD (GB_A5)(GB_Q*1), Y15
	VFMADD231PD  Y12, Y14, Y4
	VFMADD231PD  Y12, Y15, Y5
	ADDQ         GB_AQ, GB_Q
	ADDQ         GB_LDB, GB_B
	DECQ         GB_CNT
	JNZ          gemmBcastF64_tloop

gemmBcastF64_tstore:
	MOVQ  flags+88(FP), CX
	TESTQ $4, CX
	JZ    gemmBcastF64_twrite
	VXORPD Y12, Y12, Y12
	VMAXPD Y0, Y12, Y0
	VMAXPD Y1, Y12, Y1
	VMAXPD Y2, Y12, Y2
	VMAXPD Y3, Y12, Y3
	VMAXPD Y4, Y12, Y4
	VMAXPD Y5, Y12, Y5
	VADDPD Y12, Y0, Y0   // −0 + 0 = +0
	VADDPD Y12, Y1, Y1
	VADDPD Y12, Y2, Y2
	VADDPD Y12, Y3, Y3
	VADDPD Y12, Y4, Y4
	VADDPD Y12, Y5, Y5

gemmBcastF64_twrite:
	MOVQ       0(SP), CX
	VMASKMOVPD Y0, Y13, (CX)(GB_J*8)
	MOVQ       8(SP), CX
	VMASKMOVPD Y1, Y13, (CX)(GB_J*8)
	MOVQ       16(SP), CX
	VMASKMOVPD Y2, Y13, (CX)(GB_J*8)
	MOVQ       24(SP), CX
	VMASKMOVPD Y3, Y13, (CX)(GB_J*8)
	MOVQ       32(SP), CX
	VMASKMOVPD Y4, Y13, (CX)(GB_J*8)
	MOVQ       40(SP), CX
	VMASKMOVPD Y5, Y13, (CX)(GB_J*8)
	ADDQ       $4, GB_J
	JMP        gemmBcastF64_cols

gemmBcastF64_nextrows:
	MOVQ 48(SP), AX
	ADDQ $6, AX
	MOVQ AX, 48(SP)
	CMPQ AX, m+0(FP)
	JLT  gemmBcastF64_rows
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// gemmBcast1F64: as gemmBcast1F32 with four float64 per YMM: wide tiles of
// 52 columns without gemmAccum and for n ≥ 52; otherwise 32 columns per
// tile, the columns past the last whole tile first, one vector of four at
// a time, the last partial vector masked.

// func gemmBcast1F64(n, k int, a *float64, aqs int, b *float64, ldb int, c *float64, bias *float64, flags int)
TEXT ·gemmBcast1F64(SB), NOSPLIT, $0-72
	MOVQ aqs+24(FP), G1_AQ
	SHLQ $3, G1_AQ
	MOVQ ldb+40(FP), G1_LDB
	SHLQ $3, G1_LDB
	MOVQ c+48(FP), G1_C
	// Without gemmAccum and for n ≥ 52: tiles of 52 columns.
	MOVQ    flags+64(FP), CX
	TESTQ   $2, CX
	JNZ     gemmBcast1F64_narrow
	CMPQ    n+0(FP), $52
	JLT     gemmBcast1F64_narrow
	XORQ    G1_J, G1_J

gemmBcast1F64_wide:
	// j = min(j, n − 52): the last tile ends at n.
	MOVQ    n+0(FP), CX
	SUBQ    $52, CX
	CMPQ    G1_J, CX
	CMOVQGT CX, G1_J
	MOVQ    flags+64(FP), CX
	TESTQ   $1, CX
	JNZ     gemmBcast1F64_wbias
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	JMP    gemmBcast1F64_winit

gemmBcast1F64_wbias:
	MOVQ bias+56(FP), CX
	VMOVUPD (CX)(G1_J*8), Y0
	VMOVUPD 32(CX)(G1_J*8), Y1
	VMOVUPD 64(CX)(G1_J*8), Y2
	VMOVUPD 96(CX)(G1_J*8), Y3
	VMOVUPD 128(CX)(G1_J*8), Y4
	VMOVUPD 160(CX)(G1_J*8), Y5
	VMOVUPD 192(CX)(G1_J*8), Y6
	VMOVUPD 224(CX)(G1_J*8), Y7
	VMOVUPD 256(CX)(G1_J*8), Y8
	VMOVUPD 288(CX)(G1_J*8), Y9
	VMOVUPD 320(CX)(G1_J*8), Y10
	VMOVUPD 352(CX)(G1_J*8), Y11
	VMOVUPD 384(CX)(G1_J*8), Y12

gemmBcast1F64_winit:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*8), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F64_wstore

gemmBcast1F64_wloop:
	VBROADCASTSD (G1_A), Y15
	VFMADD231PD  (G1_B), Y15, Y0 // C(j:j+52) += A(q) * B(q, j:j+52)
	VFMADD231PD  32(G1_B), Y15, Y1
	VFMADD231PD  64(G1_B), Y15, Y2
	VFMADD231PD  96(G1_B), Y15, Y3
	VFMADD231PD  128(G1_B), Y15, Y4
	VFMADD231PD  160(G1_B), Y15, Y5
	VFMADD231PD  192(G1_B), Y15, Y6
	VFMADD231PD  224(G1_B), Y15, Y7
	VFMADD231PD  256(G1_B), Y15, Y8
	VFMADD231PD  288(G1_B), Y15, Y9
	VFMADD231PD  320(G1_B), Y15, Y10
	VFMADD231PD  352(G1_B), Y15, Y11
	VFMADD231PD  384(G1_B), Y15, Y12
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F64_wloop

gemmBcast1F64_wstore:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F64_wwrite
	VXORPD Y15, Y15, Y15
	VMAXPD Y0, Y15, Y0
	VMAXPD Y1, Y15, Y1
	VMAXPD Y2, Y15, Y2
	VMAXPD Y3, Y15, Y3
	VMAXPD Y4, Y15, Y4
	VMAXPD Y5, Y15, Y5
	VMAXPD Y6, Y15, Y6
	VMAXPD Y7, Y15, Y7
	VMAXPD Y8, Y15, Y8
	VMAXPD Y9, Y15, Y9
	VMAXPD Y10, Y15, Y10
	VMAXPD Y11, Y15, Y11
	VMAXPD Y12, Y15, Y12
	VADDPD Y15, Y0, Y0   // −0 + 0 = +0
	VADDPD Y15, Y1, Y1
	VADDPD Y15, Y2, Y2
	VADDPD Y15, Y3, Y3
	VADDPD Y15, Y4, Y4
	VADDPD Y15, Y5, Y5
	VADDPD Y15, Y6, Y6
	VADDPD Y15, Y7, Y7
	VADDPD Y15, Y8, Y8
	VADDPD Y15, Y9, Y9
	VADDPD Y15, Y10, Y10
	VADDPD Y15, Y11, Y11
	VADDPD Y15, Y12, Y12

gemmBcast1F64_wwrite:
	VMOVUPD Y0, (G1_C)(G1_J*8)
	VMOVUPD Y1, 32(G1_C)(G1_J*8)
	VMOVUPD Y2, 64(G1_C)(G1_J*8)
	VMOVUPD Y3, 96(G1_C)(G1_J*8)
	VMOVUPD Y4, 128(G1_C)(G1_J*8)
	VMOVUPD Y5, 160(G1_C)(G1_J*8)
	VMOVUPD Y6, 192(G1_C)(G1_J*8)
	VMOVUPD Y7, 224(G1_C)(G1_J*8)
	VMOVUPD Y8, 256(G1_C)(G1_J*8)
	VMOVUPD Y9, 288(G1_C)(G1_J*8)
	VMOVUPD Y10, 320(G1_C)(G1_J*8)
	VMOVUPD Y11, 352(G1_C)(G1_J*8)
	VMOVUPD Y12, 384(G1_C)(G1_J*8)
	ADDQ    $52, G1_J
	CMPQ    G1_J, n+0(FP)
	JLT     gemmBcast1F64_wide
	JMP     gemmBcast1F64_done

gemmBcast1F64_narrow:
	MOVQ n+0(FP), G1_NT
	ANDQ $-32, G1_NT
	MOVQ G1_NT, G1_J

gemmBcast1F64_vec:
	// CX = n − j columns left past the tiles: a vector of four.
	MOVQ n+0(FP), CX
	SUBQ G1_J, CX
	CMPQ CX, $4
	JLT  gemmBcast1F64_last
	MOVQ  flags+64(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcast1F64_vbias
	TESTQ $2, CX
	JNZ   gemmBcast1F64_vaccum
	VXORPD Y0, Y0, Y0
	JMP    gemmBcast1F64_vinit

gemmBcast1F64_vbias:
	MOVQ bias+56(FP), CX
	JMP  gemmBcast1F64_vload

gemmBcast1F64_vaccum:
	MOVQ G1_C, CX

gemmBcast1F64_vload:
	VMOVUPD (CX)(G1_J*8), Y0

gemmBcast1F64_vinit:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*8), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F64_vstore

gemmBcast1F64_vloop:
	VBROADCASTSD (G1_A), Y15
	VFMADD231PD  (G1_B), Y15, Y0 // C(j:j+4) += A(q) * B(q, j:j+4)
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F64_vloop

gemmBcast1F64_vstore:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F64_vwrite
	VXORPD Y12, Y12, Y12
	VMAXPD Y0, Y12, Y0
	VADDPD Y12, Y0, Y0   // −0 + 0 = +0

gemmBcast1F64_vwrite:
	VMOVUPD Y0, (G1_C)(G1_J*8)
	ADDQ    $4, G1_J
	JMP     gemmBcast1F64_vec

gemmBcast1F64_last:
	// CX < 4 columns left: a masked vector.
	TESTQ CX, CX
	JZ    gemmBcast1F64_tiles
	VMOVQ        CX, X8
	VPBROADCASTQ X8, Y8
	VPCMPGTQ     lanes64<>(SB), Y8, Y8
	MOVQ  flags+64(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcast1F64_lbias
	TESTQ $2, CX
	JNZ   gemmBcast1F64_laccum
	VXORPD Y0, Y0, Y0
	JMP    gemmBcast1F64_linit

gemmBcast1F64_lbias:
	MOVQ bias+56(FP), CX
	JMP  gemmBcast1F64_lload

gemmBcast1F64_laccum:
	MOVQ G1_C, CX

gemmBcast1F64_lload:
	VMASKMOVPD (CX)(G1_J*8), Y8, Y0

gemmBcast1F64_linit:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*8), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F64_lstore

gemmBcast1F64_lloop:
	VBROADCASTSD (G1_A), Y15
	VMASKMOVPD   (G1_B), Y8, Y12
	VFMADD231PD  Y12, Y15, Y0
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F64_lloop

gemmBcast1F64_lstore:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F64_lwrite
	VXORPD Y12, Y12, Y12
	VMAXPD Y0, Y12, Y0
	VADDPD Y12, Y0, Y0   // −0 + 0 = +0

gemmBcast1F64_lwrite:
	VMASKMOVPD Y0, Y8, (G1_C)(G1_J*8)

gemmBcast1F64_tiles:
	XORQ G1_J, G1_J

gemmBcast1F64_cols:
	CMPQ G1_J, G1_NT
	JGE  gemmBcast1F64_done
	MOVQ  flags+64(FP), CX
	TESTQ $1, CX
	JNZ   gemmBcast1F64_bias
	TESTQ $2, CX
	JNZ   gemmBcast1F64_accum
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	JMP    gemmBcast1F64_init

gemmBcast1F64_bias:
	MOVQ bias+56(FP), CX
	JMP  gemmBcast1F64_load

gemmBcast1F64_accum:
	MOVQ G1_C, CX

gemmBcast1F64_load:
	VMOVUPD (CX)(G1_J*8), Y0
	VMOVUPD 32(CX)(G1_J*8), Y1
	VMOVUPD 64(CX)(G1_J*8), Y2
	VMOVUPD 96(CX)(G1_J*8), Y3
	VMOVUPD 128(CX)(G1_J*8), Y4
	VMOVUPD 160(CX)(G1_J*8), Y5
	VMOVUPD 192(CX)(G1_J*8), Y6
	VMOVUPD 224(CX)(G1_J*8), Y7

gemmBcast1F64_init:
	MOVQ  a+16(FP), G1_A
	MOVQ  b+32(FP), G1_B
	LEAQ  (G1_B)(G1_J*8), G1_B
	MOVQ  k+8(FP), G1_CNT
	TESTQ G1_CNT, G1_CNT
	JZ    gemmBcast1F64_store

gemmBcast1F64_loop:
	// C(j:j+32) += A(q) * B(q, j:j+32)
	VBROADCASTSD (G1_A), Y15
	VFMADD231PD  (G1_B), Y15, Y0
	VFMADD231PD  32(G1_B), Y15, Y1
	VFMADD231PD  64(G1_B), Y15, Y2
	VFMADD231PD  96(G1_B), Y15, Y3
	VFMADD231PD  128(G1_B), Y15, Y4
	VFMADD231PD  160(G1_B), Y15, Y5
	VFMADD231PD  192(G1_B), Y15, Y6
	VFMADD231PD  224(G1_B), Y15, Y7
	ADDQ         G1_AQ, G1_A
	ADDQ         G1_LDB, G1_B
	DECQ         G1_CNT
	JNZ          gemmBcast1F64_loop

gemmBcast1F64_store:
	MOVQ  flags+64(FP), CX
	TESTQ $4, CX
	JZ    gemmBcast1F64_write
	VXORPD Y12, Y12, Y12
	VMAXPD Y0, Y12, Y0
	VMAXPD Y1, Y12, Y1
	VMAXPD Y2, Y12, Y2
	VMAXPD Y3, Y12, Y3
	VMAXPD Y4, Y12, Y4
	VMAXPD Y5, Y12, Y5
	VMAXPD Y6, Y12, Y6
	VMAXPD Y7, Y12, Y7
	VADDPD Y12, Y0, Y0   // −0 + 0 = +0
	VADDPD Y12, Y1, Y1
	VADDPD Y12, Y2, Y2
	VADDPD Y12, Y3, Y3
	VADDPD Y12, Y4, Y4
	VADDPD Y12, Y5, Y5
	VADDPD Y12, Y6, Y6
	VADDPD Y12, Y7, Y7

gemmBcast1F64_write:
	VMOVUPD Y0, (G1_C)(G1_J*8)
	VMOVUPD Y1, 32(G1_C)(G1_J*8)
	VMOVUPD Y2, 64(G1_C)(G1_J*8)
	VMOVUPD Y3, 96(G1_C)(G1_J*8)
	VMOVUPD Y4, 128(G1_C)(G1_J*8)
	VMOVUPD Y5, 160(G1_C)(G1_J*8)
	VMOVUPD Y6, 192(G1_C)(G1_J*8)
	VMOVUPD Y7, 224(G1_C)(G1_J*8)
	ADDQ    $32, G1_J
	JMP     gemmBcast1F64_cols

gemmBcast1F64_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// gemmDotF64: as gemmDotF32, four float64 per step along k. Each row's four
// sums reduce with VHADDPD, a cross-lane VPERM2F128 and VBLENDPD to one
// YMM: [a01 b01 | a23 b23] and [c01 d01 | c23 d23] give
// [a01 b01 | c23 d23] + [a23 b23 | c01 d01].

// GD_REDUCE4D leaves in Ya the four sums of Ya, Yb, Yc, Yd.
#define GD_REDUCE4D(ya, yb, yc, yd) \
	VHADDPD yb, ya, ya; \
	VHADDPD yd, yc, yc; \
	VPERM2F128 $0x21, yc, ya, yb; \
	VBLENDPD $0xC, yc, ya, ya; \
	VADDPD yb, ya, ya

// func gemmDotF64(m, n, k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)
TEXT ·gemmDotF64(SB), NOSPLIT, $72-88
	MOVQ         k+16(FP), CX
	ANDQ         $3, CX
	VMOVQ        CX, X15
	VPBROADCASTQ X15, Y15
	VPCMPGTQ     lanes64<>(SB), Y15, Y15
	VMOVUPD      Y15, 0(SP)             // lane l active when l < k mod 4
	MOVQ         k+16(FP), GD_K8
	SUBQ         $4, GD_K8
	MOVQ         $0, 32(SP)

gemmDotF64_rows:
	MOVQ m+0(FP), CX
	SUBQ 32(SP), CX // rows left
	MOVQ lda+32(FP), R13
	SHLQ $3, R13
	MOVQ 32(SP), BX
	IMULQ R13, BX
	MOVQ a+24(FP), GD_A0
	ADDQ BX, GD_A0
	GD_ROWPTR(GD_A0, GD_A1, R13, 1)
	GD_ROWPTR(GD_A1, GD_A2, R13, 2)
	MOVQ ldc+64(FP), R13
	SHLQ $3, R13
	MOVQ 32(SP), BX
	IMULQ R13, BX
	MOVQ c+56(FP), GD_B0
	ADDQ BX, GD_B0
	MOVQ GD_B0, 48(SP)
	GD_ROWPTR(GD_B0, GD_B0, R13, 1)
	MOVQ GD_B0, 56(SP)
	GD_ROWPTR(GD_B0, GD_B0, R13, 2)
	MOVQ GD_B0, 64(SP)
	MOVQ $0, 40(SP)

gemmDotF64_cols:
	MOVQ n+8(FP), CX
	SUBQ 40(SP), CX // columns left
	CMPQ CX, $0
	JLE  gemmDotF64_nextrows
	MOVQ ldb+48(FP), R13
	SHLQ $3, R13
	MOVQ 40(SP), BX
	IMULQ R13, BX
	MOVQ b+40(FP), GD_B0
	ADDQ BX, GD_B0
	GD_ROWPTR(GD_B0, GD_B1, R13, 1)
	GD_ROWPTR(GD_B1, GD_B2, R13, 2)
	GD_ROWPTR(GD_B2, GD_B3, R13, 3)
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	XORQ   GD_J, GD_J
	CMPQ   GD_J, GD_K8
	JGT    gemmDotF64_ktail

gemmDotF64_loop:
	// for r, t: C(i+r, p+t) += A(i+r, j:j+8) · B(p+t, j:j+8), lane-wise
	VMOVUPD     (GD_A0)(GD_J*8), Y12
	VMOVUPD     (GD_A1)(GD_J*8), Y13
	VMOVUPD     (GD_A2)(GD_J*8), Y14
	VMOVUPD     (GD_B0)(GD_J*8), Y15
	VFMADD231PD Y15, Y12, Y0
	VFMADD231PD Y15, Y13, Y4
	VFMADD231PD Y15, Y14, Y8
	VMOVUPD     (GD_B1)(GD_J*8), Y15
	VFMADD231PD Y15, Y12, Y1
	VFMADD231PD Y15, Y13, Y5
	VFMADD231PD Y15, Y14, Y9
	VMOVUPD     (GD_B2)(GD_J*8), Y15
	VFMADD231PD Y15, Y12, Y2
	VFMADD231PD Y15, Y13, Y6
	VFMADD231PD Y15, Y14, Y10
	VMOVUPD     (GD_B3)(GD_J*8), Y15
	VFMADD231PD Y15, Y12, Y3
	VFMADD231PD Y15, Y13, Y7
	VFMADD231PD Y15, Y14, Y11
	ADDQ        $4, GD_J
	CMPQ        GD_J, GD_K8
	JLE         gemmDotF64_loop

gemmDotF64_ktail:
	MOVQ k+16(FP), CX
	CMPQ GD_J, CX
	JGE  gemmDotF64_reduce
	VMOVUPD     0(SP), Y15
	VMASKMOVPD  (GD_A0)(GD_J*8), Y15, Y12
	VMASKMOVPD  (GD_A1)(GD_J*8), Y15, Y13
	VMASKMOVPD  (GD_A2)(GD_J*8), Y15, Y14
	VMASKMOVPD  (GD_B0)(GD_J*8), Y15, Y15
	VFMADD231PD Y15, Y12, Y0
	VFMADD231PD Y15, Y13, Y4
	VFMADD231PD Y15, Y14, Y8
	VMOVUPD     0(SP), Y15
	VMASKMOVPD  (GD_B1)(GD_J*8), Y15, Y15
	VFMADD231PD Y15, Y12, Y1
	VFMADD231PD Y15, Y13, Y5
	VFMADD231PD Y15, Y14, Y9
	VMOVUPD     0(SP), Y15
	VMASKMOVPD  (GD_B2)(GD_J*8), Y15, Y15
	VFMADD231PD Y15, Y12, Y2
	VFMADD231PD Y15, Y13, Y6
	VFMADD231PD Y15, Y14, Y10
	VMOVUPD     0(SP), Y15
	VMASKMOVPD  (GD_B3)(GD_J*8), Y15, Y15
	VFMADD231PD Y15, Y12, Y3
	VFMADD231PD Y15, Y13, Y7
	VFMADD231PD Y15, Y14, Y11

gemmDotF64_reduce:
	GD_REDUCE4D(Y0, Y1, Y2, Y3)
	GD_REDUCE4D(Y4, Y5, Y6, Y7)
	GD_REDUCE4D(Y8, Y9, Y10, Y11)
	// Y15 = mask of the columns p:p+4 that exist
	MOVQ         n+8(FP), CX
	SUBQ         40(SP), CX
	VMOVQ        CX, X15
	VPBROADCASTQ X15, Y15
	VPCMPGTQ     lanes64<>(SB), Y15, Y15
	MOVQ         40(SP), BX
	MOVQ         flags+80(FP), R13
	TESTQ        $1, R13
	JZ           gemmDotF64_nobias
	MOVQ         bias+72(FP), R13
	VMASKMOVPD   (R13)(BX*8), Y15, Y12
	VADDPD       Y0, Y12, Y0            // bias[p] + s
	VADDPD       Y4, Y12, Y4
	VADDPD       Y8, Y12, Y8
	MOVQ         flags+80(FP), R13

gemmDotF64_nobias:
	TESTQ  $4, R13
	JZ     gemmDotF64_write
	VXORPD Y12, Y12, Y12
	VMAXPD Y0, Y12, Y0
	VMAXPD Y4, Y12, Y4
	VMAXPD Y8, Y12, Y8
	VADDPD Y12, Y0, Y0
	VADDPD Y12, Y4, Y4
	VADDPD Y12, Y8, Y8

gemmDotF64_write:
	CMPQ       CX, $4
	JLT        gemmDotF64_partial
	MOVQ       48(SP), R13
	VMOVUPD    Y0, (R13)(BX*8)
	MOVQ       56(SP), R13
	VMOVUPD    Y4, (R13)(BX*8)
	MOVQ       64(SP), R13
	VMOVUPD    Y8, (R13)(BX*8)
	ADDQ       $4, BX
	MOVQ       BX, 40(SP)
	JMP        gemmDotF64_cols

gemmDotF64_partial:
	MOVQ       48(SP), R13
	VMASKMOVPD Y0, Y15, (R13)(BX*8)
	MOVQ       56(SP), R13
	VMASKMOVPD Y4, Y15, (R13)(BX*8)
	MOVQ       64(SP), R13
	VMASKMOVPD Y8, Y15, (R13)(BX*8)

gemmDotF64_nextrows:
	MOVQ 32(SP), BX
	ADDQ $3, BX
	MOVQ BX, 32(SP)
	CMPQ BX, m+0(FP)
	JLT  gemmDotF64_rows
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// outputForwardF32: the output layer, one dot product of length k per row
// and head, along the contiguous k: 32 elements per step in Y0–Y3, then
// steps of 8 into Y0, and the last k mod 8 elements as a masked step into
// Y1 (the mask, made once, waits in Y15). Rows go one at a time, the heads
// of a row one after another; their dot products are independent, so the
// out-of-order core overlaps them.

#define OF_J AX    // element j of the dot product
#define OF_Y BX    // &y[h*m+i]
#define OF_MB CX   // m·size: the distance between two heads' outputs
#define OF_KV DX   // k rounded down to a whole vector
#define OF_ROW SI  // &x[i*ldx]
#define OF_X DI    // &x[i*ldx+h*k]
#define OF_W R8    // &w[h*k]
#define OF_B R9    // &b[h]
#define OF_YI R10  // &y[i]
#define OF_KWIDE R11 // OF_KV − 32 (float64: − 16): the last j of a wide step
#define OF_ROWS R12 // rows left
#define OF_HEADS R13 // heads left in this row
#define OF_KB R14  // k·size: the distance between two heads' inputs and weights

// func outputForwardF32(m, heads, k int, x *float32, ldx int, w, b, y *float32)
TEXT ·outputForwardF32(SB), NOSPLIT, $0-64
	MOVQ         k+16(FP), OF_KV
	MOVQ         OF_KV, OF_KB
	SHLQ         $2, OF_KB
	MOVQ         OF_KV, CX
	ANDQ         $7, CX
	SUBQ         CX, OF_KV
	VMOVQ        CX, X15
	VPBROADCASTD X15, Y15
	VPCMPGTD     lanes32<>(SB), Y15, Y15 // the mask of the last k mod 8
	LEAQ         -32(OF_KV), OF_KWIDE
	MOVQ         m+0(FP), OF_ROWS
	MOVQ         OF_ROWS, OF_MB
	SHLQ         $2, OF_MB
	MOVQ         x+24(FP), OF_ROW
	MOVQ         y+56(FP), OF_YI

outputForwardF32_row:
	MOVQ OF_ROW, OF_X
	MOVQ w+40(FP), OF_W
	MOVQ b+48(FP), OF_B
	MOVQ OF_YI, OF_Y
	MOVQ heads+8(FP), OF_HEADS

outputForwardF32_head:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ   OF_J, OF_J

outputForwardF32_dot32:
	CMPQ        OF_J, OF_KWIDE
	JGT         outputForwardF32_dot8
	VMOVUPS     (OF_X)(OF_J*4), Y4
	VMOVUPS     32(OF_X)(OF_J*4), Y5
	VMOVUPS     64(OF_X)(OF_J*4), Y6
	VMOVUPS     96(OF_X)(OF_J*4), Y7
	VFMADD231PS (OF_W)(OF_J*4), Y4, Y0 // s += x[j:j+32] · w[j:j+32]
	VFMADD231PS 32(OF_W)(OF_J*4), Y5, Y1
	VFMADD231PS 64(OF_W)(OF_J*4), Y6, Y2
	VFMADD231PS 96(OF_W)(OF_J*4), Y7, Y3
	ADDQ        $32, OF_J
	JMP         outputForwardF32_dot32

outputForwardF32_dot8:
	CMPQ        OF_J, OF_KV
	JGE         outputForwardF32_tail
	VMOVUPS     (OF_X)(OF_J*4), Y4
	VFMADD231PS (OF_W)(OF_J*4), Y4, Y0 // s += x[j:j+8] · w[j:j+8]
	ADDQ        $8, OF_J
	JMP         outputForwardF32_dot8

outputForwardF32_tail:
	CMPQ        OF_KV, k+16(FP)
	JEQ         outputForwardF32_sum
	VMASKMOVPS  (OF_X)(OF_J*4), Y15, Y4
	VMASKMOVPS  (OF_W)(OF_J*4), Y15, Y5
	VFMADD231PS Y5, Y4, Y1 // s += x[j:k] · w[j:k]

outputForwardF32_sum:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VADDSS       (OF_B), X0, X0 // y[h*m+i] = b[h] + s
	VMOVSS       X0, (OF_Y)
	ADDQ         OF_KB, OF_X
	ADDQ         OF_KB, OF_W
	ADDQ         $4, OF_B
	ADDQ         OF_MB, OF_Y
	DECQ         OF_HEADS
	JNZ          outputForwardF32_head
	MOVQ         ldx+32(FP), OF_J
	LEAQ         (OF_ROW)(OF_J*4), OF_ROW
	ADDQ         $4, OF_YI
	DECQ         OF_ROWS
	JNZ          outputForwardF32_row
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// outputForwardF64: as outputForwardF32 with four float64 per YMM: 16
// elements per step in Y0–Y3, steps of 4 into Y0, the last k mod 4 masked
// into Y1.

// func outputForwardF64(m, heads, k int, x *float64, ldx int, w, b, y *float64)
TEXT ·outputForwardF64(SB), NOSPLIT, $0-64
	MOVQ         k+16(FP), OF_KV
	MOVQ         OF_KV, OF_KB
	SHLQ         $3, OF_KB
	MOVQ         OF_KV, CX
	ANDQ         $3, CX
	SUBQ         CX, OF_KV
	VMOVQ        CX, X15
	VPBROADCASTQ X15, Y15
	VPCMPGTQ     lanes64<>(SB), Y15, Y15 // the mask of the last k mod 4
	LEAQ         -16(OF_KV), OF_KWIDE
	MOVQ         m+0(FP), OF_ROWS
	MOVQ         OF_ROWS, OF_MB
	SHLQ         $3, OF_MB
	MOVQ         x+24(FP), OF_ROW
	MOVQ         y+56(FP), OF_YI

outputForwardF64_row:
	MOVQ OF_ROW, OF_X
	MOVQ w+40(FP), OF_W
	MOVQ b+48(FP), OF_B
	MOVQ OF_YI, OF_Y
	MOVQ heads+8(FP), OF_HEADS

outputForwardF64_head:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   OF_J, OF_J

outputForwardF64_dot16:
	CMPQ        OF_J, OF_KWIDE
	JGT         outputForwardF64_dot4
	VMOVUPD     (OF_X)(OF_J*8), Y4
	VMOVUPD     32(OF_X)(OF_J*8), Y5
	VMOVUPD     64(OF_X)(OF_J*8), Y6
	VMOVUPD     96(OF_X)(OF_J*8), Y7
	VFMADD231PD (OF_W)(OF_J*8), Y4, Y0 // s += x[j:j+16] · w[j:j+16]
	VFMADD231PD 32(OF_W)(OF_J*8), Y5, Y1
	VFMADD231PD 64(OF_W)(OF_J*8), Y6, Y2
	VFMADD231PD 96(OF_W)(OF_J*8), Y7, Y3
	ADDQ        $16, OF_J
	JMP         outputForwardF64_dot16

outputForwardF64_dot4:
	CMPQ        OF_J, OF_KV
	JGE         outputForwardF64_tail
	VMOVUPD     (OF_X)(OF_J*8), Y4
	VFMADD231PD (OF_W)(OF_J*8), Y4, Y0 // s += x[j:j+4] · w[j:j+4]
	ADDQ        $4, OF_J
	JMP         outputForwardF64_dot4

outputForwardF64_tail:
	CMPQ        OF_KV, k+16(FP)
	JEQ         outputForwardF64_sum
	VMASKMOVPD  (OF_X)(OF_J*8), Y15, Y4
	VMASKMOVPD  (OF_W)(OF_J*8), Y15, Y5
	VFMADD231PD Y5, Y4, Y1 // s += x[j:k] · w[j:k]

outputForwardF64_sum:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VHADDPD      X0, X0, X0
	VADDSD       (OF_B), X0, X0 // y[h*m+i] = b[h] + s
	VMOVSD       X0, (OF_Y)
	ADDQ         OF_KB, OF_X
	ADDQ         OF_KB, OF_W
	ADDQ         $8, OF_B
	ADDQ         OF_MB, OF_Y
	DECQ         OF_HEADS
	JNZ          outputForwardF64_head
	MOVQ         ldx+32(FP), OF_J
	LEAQ         (OF_ROW)(OF_J*8), OF_ROW
	ADDQ         $8, OF_YI
	DECQ         OF_ROWS
	JNZ          outputForwardF64_row
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// Element-wise kernels, reductions and optimizer steps. Each takes n, a
// multiple of the vector width (the Go wrapper finishes the tail with the
// generic kernel), works in bytes with one offset register EW_I for all
// operands, four vectors per iteration (two for the optimizer steps, whose
// constants take six registers) while a block is left, then one at a time. They round every product and sum on its own, in the order of
// the generic loop, with no fused multiply-add, so the results are the
// generic ones bit for bit; VSQRTPS/VSQRTPD are correctly rounded, like
// Go's math.Sqrt (a float32 rounded from the float64 root is the
// correctly rounded float32 root).


#define EW_N CX   // bytes to do
#define EW_I AX   // byte offset into every operand
#define EW_END DX // EW_I + one block

DATA one32<>+0(SB)/4, $1.0
GLOBL one32<>(SB), RODATA|NOPTR, $4
DATA one64<>+0(SB)/8, $1.0
GLOBL one64<>(SB), RODATA|NOPTR, $8

#define EW_MUL_X SI
#define EW_MUL_Y DI

// func mulF32(n int, x, y *float32)
TEXT ·mulF32(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ x+8(FP), EW_MUL_X
	MOVQ y+16(FP), EW_MUL_Y
	XORQ EW_I, EW_I

mulF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  mulF32_one
	VMOVUPS 0(EW_MUL_X)(EW_I*1), Y0
	VMULPS  0(EW_MUL_Y)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_MUL_X)(EW_I*1)
	VMOVUPS 32(EW_MUL_X)(EW_I*1), Y1
	VMULPS  32(EW_MUL_Y)(EW_I*1), Y1, Y1
	VMOVUPS Y1, 32(EW_MUL_X)(EW_I*1)
	VMOVUPS 64(EW_MUL_X)(EW_I*1), Y2
	VMULPS  64(EW_MUL_Y)(EW_I*1), Y2, Y2
	VMOVUPS Y2, 64(EW_MUL_X)(EW_I*1)
	VMOVUPS 96(EW_MUL_X)(EW_I*1), Y3
	VMULPS  96(EW_MUL_Y)(EW_I*1), Y3, Y3
	VMOVUPS Y3, 96(EW_MUL_X)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  mulF32_block

mulF32_one:
	CMPQ EW_I, EW_N
	JGE  mulF32_done
	VMOVUPS 0(EW_MUL_X)(EW_I*1), Y0
	VMULPS  0(EW_MUL_Y)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_MUL_X)(EW_I*1)
	ADDQ $32, EW_I
	JMP  mulF32_one

mulF32_done:
	VZEROUPPER
	RET

// func mulF64(n int, x, y *float64)
TEXT ·mulF64(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ x+8(FP), EW_MUL_X
	MOVQ y+16(FP), EW_MUL_Y
	XORQ EW_I, EW_I

mulF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  mulF64_one
	VMOVUPD 0(EW_MUL_X)(EW_I*1), Y0
	VMULPD  0(EW_MUL_Y)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_MUL_X)(EW_I*1)
	VMOVUPD 32(EW_MUL_X)(EW_I*1), Y1
	VMULPD  32(EW_MUL_Y)(EW_I*1), Y1, Y1
	VMOVUPD Y1, 32(EW_MUL_X)(EW_I*1)
	VMOVUPD 64(EW_MUL_X)(EW_I*1), Y2
	VMULPD  64(EW_MUL_Y)(EW_I*1), Y2, Y2
	VMOVUPD Y2, 64(EW_MUL_X)(EW_I*1)
	VMOVUPD 96(EW_MUL_X)(EW_I*1), Y3
	VMULPD  96(EW_MUL_Y)(EW_I*1), Y3, Y3
	VMOVUPD Y3, 96(EW_MUL_X)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  mulF64_block

mulF64_one:
	CMPQ EW_I, EW_N
	JGE  mulF64_done
	VMOVUPD 0(EW_MUL_X)(EW_I*1), Y0
	VMULPD  0(EW_MUL_Y)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_MUL_X)(EW_I*1)
	ADDQ $32, EW_I
	JMP  mulF64_one

mulF64_done:
	VZEROUPPER
	RET

#define EW_MULTO_DST SI
#define EW_MULTO_X DI
#define EW_MULTO_Y R8

// func mulToF32(n int, dst, x, y *float32)
TEXT ·mulToF32(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ dst+8(FP), EW_MULTO_DST
	MOVQ x+16(FP), EW_MULTO_X
	MOVQ y+24(FP), EW_MULTO_Y
	XORQ EW_I, EW_I

mulToF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  mulToF32_one
	VMOVUPS 0(EW_MULTO_X)(EW_I*1), Y0
	VMULPS  0(EW_MULTO_Y)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_MULTO_DST)(EW_I*1)
	VMOVUPS 32(EW_MULTO_X)(EW_I*1), Y1
	VMULPS  32(EW_MULTO_Y)(EW_I*1), Y1, Y1
	VMOVUPS Y1, 32(EW_MULTO_DST)(EW_I*1)
	VMOVUPS 64(EW_MULTO_X)(EW_I*1), Y2
	VMULPS  64(EW_MULTO_Y)(EW_I*1), Y2, Y2
	VMOVUPS Y2, 64(EW_MULTO_DST)(EW_I*1)
	VMOVUPS 96(EW_MULTO_X)(EW_I*1), Y3
	VMULPS  96(EW_MULTO_Y)(EW_I*1), Y3, Y3
	VMOVUPS Y3, 96(EW_MULTO_DST)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  mulToF32_block

mulToF32_one:
	CMPQ EW_I, EW_N
	JGE  mulToF32_done
	VMOVUPS 0(EW_MULTO_X)(EW_I*1), Y0
	VMULPS  0(EW_MULTO_Y)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_MULTO_DST)(EW_I*1)
	ADDQ $32, EW_I
	JMP  mulToF32_one

mulToF32_done:
	VZEROUPPER
	RET

// func mulToF64(n int, dst, x, y *float64)
TEXT ·mulToF64(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ dst+8(FP), EW_MULTO_DST
	MOVQ x+16(FP), EW_MULTO_X
	MOVQ y+24(FP), EW_MULTO_Y
	XORQ EW_I, EW_I

mulToF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  mulToF64_one
	VMOVUPD 0(EW_MULTO_X)(EW_I*1), Y0
	VMULPD  0(EW_MULTO_Y)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_MULTO_DST)(EW_I*1)
	VMOVUPD 32(EW_MULTO_X)(EW_I*1), Y1
	VMULPD  32(EW_MULTO_Y)(EW_I*1), Y1, Y1
	VMOVUPD Y1, 32(EW_MULTO_DST)(EW_I*1)
	VMOVUPD 64(EW_MULTO_X)(EW_I*1), Y2
	VMULPD  64(EW_MULTO_Y)(EW_I*1), Y2, Y2
	VMOVUPD Y2, 64(EW_MULTO_DST)(EW_I*1)
	VMOVUPD 96(EW_MULTO_X)(EW_I*1), Y3
	VMULPD  96(EW_MULTO_Y)(EW_I*1), Y3, Y3
	VMOVUPD Y3, 96(EW_MULTO_DST)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  mulToF64_block

mulToF64_one:
	CMPQ EW_I, EW_N
	JGE  mulToF64_done
	VMOVUPD 0(EW_MULTO_X)(EW_I*1), Y0
	VMULPD  0(EW_MULTO_Y)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_MULTO_DST)(EW_I*1)
	ADDQ $32, EW_I
	JMP  mulToF64_one

mulToF64_done:
	VZEROUPPER
	RET

#define EW_RELUBACKWARD_D SI
#define EW_RELUBACKWARD_Y DI

// func reluBackwardF32(n int, d, y *float32)
TEXT ·reluBackwardF32(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ d+8(FP), EW_RELUBACKWARD_D
	MOVQ y+16(FP), EW_RELUBACKWARD_Y
	VXORPS Y15, Y15, Y15
	XORQ EW_I, EW_I

reluBackwardF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  reluBackwardF32_one
	VCMPPS  $0x11, 0(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y0 // 0 < y (false for NaN)
	VANDPS  0(EW_RELUBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_RELUBACKWARD_D)(EW_I*1)
	VCMPPS  $0x11, 32(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y1 // 0 < y (false for NaN)
	VANDPS  32(EW_RELUBACKWARD_D)(EW_I*1), Y1, Y1
	VMOVUPS Y1, 32(EW_RELUBACKWARD_D)(EW_I*1)
	VCMPPS  $0x11, 64(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y2 // 0 < y (false for NaN)
	VANDPS  64(EW_RELUBACKWARD_D)(EW_I*1), Y2, Y2
	VMOVUPS Y2, 64(EW_RELUBACKWARD_D)(EW_I*1)
	VCMPPS  $0x11, 96(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y3 // 0 < y (false for NaN)
	VANDPS  96(EW_RELUBACKWARD_D)(EW_I*1), Y3, Y3
	VMOVUPS Y3, 96(EW_RELUBACKWARD_D)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  reluBackwardF32_block

reluBackwardF32_one:
	CMPQ EW_I, EW_N
	JGE  reluBackwardF32_done
	VCMPPS  $0x11, 0(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y0 // 0 < y (false for NaN)
	VANDPS  0(EW_RELUBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_RELUBACKWARD_D)(EW_I*1)
	ADDQ $32, EW_I
	JMP  reluBackwardF32_one

reluBackwardF32_done:
	VZEROUPPER
	RET

// func reluBackwardF64(n int, d, y *float64)
TEXT ·reluBackwardF64(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ d+8(FP), EW_RELUBACKWARD_D
	MOVQ y+16(FP), EW_RELUBACKWARD_Y
	VXORPD Y15, Y15, Y15
	XORQ EW_I, EW_I

reluBackwardF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  reluBackwardF64_one
	VCMPPD  $0x11, 0(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y0 // 0 < y (false for NaN)
	VANDPD  0(EW_RELUBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_RELUBACKWARD_D)(EW_I*1)
	VCMPPD  $0x11, 32(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y1 // 0 < y (false for NaN)
	VANDPD  32(EW_RELUBACKWARD_D)(EW_I*1), Y1, Y1
	VMOVUPD Y1, 32(EW_RELUBACKWARD_D)(EW_I*1)
	VCMPPD  $0x11, 64(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y2 // 0 < y (false for NaN)
	VANDPD  64(EW_RELUBACKWARD_D)(EW_I*1), Y2, Y2
	VMOVUPD Y2, 64(EW_RELUBACKWARD_D)(EW_I*1)
	VCMPPD  $0x11, 96(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y3 // 0 < y (false for NaN)
	VANDPD  96(EW_RELUBACKWARD_D)(EW_I*1), Y3, Y3
	VMOVUPD Y3, 96(EW_RELUBACKWARD_D)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  reluBackwardF64_block

reluBackwardF64_one:
	CMPQ EW_I, EW_N
	JGE  reluBackwardF64_done
	VCMPPD  $0x11, 0(EW_RELUBACKWARD_Y)(EW_I*1), Y15, Y0 // 0 < y (false for NaN)
	VANDPD  0(EW_RELUBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_RELUBACKWARD_D)(EW_I*1)
	ADDQ $32, EW_I
	JMP  reluBackwardF64_one

reluBackwardF64_done:
	VZEROUPPER
	RET

#define EW_TANHBACKWARD_D SI
#define EW_TANHBACKWARD_Y DI

// func tanhBackwardF32(n int, d, y *float32)
TEXT ·tanhBackwardF32(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ d+8(FP), EW_TANHBACKWARD_D
	MOVQ y+16(FP), EW_TANHBACKWARD_Y
	VBROADCASTSS one32<>(SB), Y15
	XORQ EW_I, EW_I

tanhBackwardF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  tanhBackwardF32_one
	VMOVUPS 0(EW_TANHBACKWARD_Y)(EW_I*1), Y0
	VMULPS  Y0, Y0, Y0          // y·y
	VSUBPS  Y0, Y15, Y0           // 1 − y·y
	VMULPS  0(EW_TANHBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_TANHBACKWARD_D)(EW_I*1)
	VMOVUPS 32(EW_TANHBACKWARD_Y)(EW_I*1), Y1
	VMULPS  Y1, Y1, Y1          // y·y
	VSUBPS  Y1, Y15, Y1           // 1 − y·y
	VMULPS  32(EW_TANHBACKWARD_D)(EW_I*1), Y1, Y1
	VMOVUPS Y1, 32(EW_TANHBACKWARD_D)(EW_I*1)
	VMOVUPS 64(EW_TANHBACKWARD_Y)(EW_I*1), Y2
	VMULPS  Y2, Y2, Y2          // y·y
	VSUBPS  Y2, Y15, Y2           // 1 − y·y
	VMULPS  64(EW_TANHBACKWARD_D)(EW_I*1), Y2, Y2
	VMOVUPS Y2, 64(EW_TANHBACKWARD_D)(EW_I*1)
	VMOVUPS 96(EW_TANHBACKWARD_Y)(EW_I*1), Y3
	VMULPS  Y3, Y3, Y3          // y·y
	VSUBPS  Y3, Y15, Y3           // 1 − y·y
	VMULPS  96(EW_TANHBACKWARD_D)(EW_I*1), Y3, Y3
	VMOVUPS Y3, 96(EW_TANHBACKWARD_D)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  tanhBackwardF32_block

tanhBackwardF32_one:
	CMPQ EW_I, EW_N
	JGE  tanhBackwardF32_done
	VMOVUPS 0(EW_TANHBACKWARD_Y)(EW_I*1), Y0
	VMULPS  Y0, Y0, Y0          // y·y
	VSUBPS  Y0, Y15, Y0           // 1 − y·y
	VMULPS  0(EW_TANHBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_TANHBACKWARD_D)(EW_I*1)
	ADDQ $32, EW_I
	JMP  tanhBackwardF32_one

tanhBackwardF32_done:
	VZEROUPPER
	RET

// func tanhBackwardF64(n int, d, y *float64)
TEXT ·tanhBackwardF64(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ d+8(FP), EW_TANHBACKWARD_D
	MOVQ y+16(FP), EW_TANHBACKWARD_Y
	VBROADCASTSD one64<>(SB), Y15
	XORQ EW_I, EW_I

tanhBackwardF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  tanhBackwardF64_one
	VMOVUPD 0(EW_TANHBACKWARD_Y)(EW_I*1), Y0
	VMULPD  Y0, Y0, Y0          // y·y
	VSUBPD  Y0, Y15, Y0           // 1 − y·y
	VMULPD  0(EW_TANHBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_TANHBACKWARD_D)(EW_I*1)
	VMOVUPD 32(EW_TANHBACKWARD_Y)(EW_I*1), Y1
	VMULPD  Y1, Y1, Y1          // y·y
	VSUBPD  Y1, Y15, Y1           // 1 − y·y
	VMULPD  32(EW_TANHBACKWARD_D)(EW_I*1), Y1, Y1
	VMOVUPD Y1, 32(EW_TANHBACKWARD_D)(EW_I*1)
	VMOVUPD 64(EW_TANHBACKWARD_Y)(EW_I*1), Y2
	VMULPD  Y2, Y2, Y2          // y·y
	VSUBPD  Y2, Y15, Y2           // 1 − y·y
	VMULPD  64(EW_TANHBACKWARD_D)(EW_I*1), Y2, Y2
	VMOVUPD Y2, 64(EW_TANHBACKWARD_D)(EW_I*1)
	VMOVUPD 96(EW_TANHBACKWARD_Y)(EW_I*1), Y3
	VMULPD  Y3, Y3, Y3          // y·y
	VSUBPD  Y3, Y15, Y3           // 1 − y·y
	VMULPD  96(EW_TANHBACKWARD_D)(EW_I*1), Y3, Y3
	VMOVUPD Y3, 96(EW_TANHBACKWARD_D)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  tanhBackwardF64_block

tanhBackwardF64_one:
	CMPQ EW_I, EW_N
	JGE  tanhBackwardF64_done
	VMOVUPD 0(EW_TANHBACKWARD_Y)(EW_I*1), Y0
	VMULPD  Y0, Y0, Y0          // y·y
	VSUBPD  Y0, Y15, Y0           // 1 − y·y
	VMULPD  0(EW_TANHBACKWARD_D)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_TANHBACKWARD_D)(EW_I*1)
	ADDQ $32, EW_I
	JMP  tanhBackwardF64_one

tanhBackwardF64_done:
	VZEROUPPER
	RET

#define EW_AXPY_X SI
#define EW_AXPY_Y DI

// func axpyF32(n int, x, y *float32, a float32)
TEXT ·axpyF32(SB), NOSPLIT, $0-28
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ x+8(FP), EW_AXPY_X
	MOVQ y+16(FP), EW_AXPY_Y
	VBROADCASTSS a+24(FP), Y15
	XORQ EW_I, EW_I

axpyF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  axpyF32_one
	VMULPS  0(EW_AXPY_X)(EW_I*1), Y15, Y0  // a·x
	VADDPS  0(EW_AXPY_Y)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_AXPY_Y)(EW_I*1)
	VMULPS  32(EW_AXPY_X)(EW_I*1), Y15, Y1  // a·x
	VADDPS  32(EW_AXPY_Y)(EW_I*1), Y1, Y1
	VMOVUPS Y1, 32(EW_AXPY_Y)(EW_I*1)
	VMULPS  64(EW_AXPY_X)(EW_I*1), Y15, Y2  // a·x
	VADDPS  64(EW_AXPY_Y)(EW_I*1), Y2, Y2
	VMOVUPS Y2, 64(EW_AXPY_Y)(EW_I*1)
	VMULPS  96(EW_AXPY_X)(EW_I*1), Y15, Y3  // a·x
	VADDPS  96(EW_AXPY_Y)(EW_I*1), Y3, Y3
	VMOVUPS Y3, 96(EW_AXPY_Y)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  axpyF32_block

axpyF32_one:
	CMPQ EW_I, EW_N
	JGE  axpyF32_done
	VMULPS  0(EW_AXPY_X)(EW_I*1), Y15, Y0  // a·x
	VADDPS  0(EW_AXPY_Y)(EW_I*1), Y0, Y0
	VMOVUPS Y0, 0(EW_AXPY_Y)(EW_I*1)
	ADDQ $32, EW_I
	JMP  axpyF32_one

axpyF32_done:
	VZEROUPPER
	RET

// func axpyF64(n int, x, y *float64, a float64)
TEXT ·axpyF64(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ x+8(FP), EW_AXPY_X
	MOVQ y+16(FP), EW_AXPY_Y
	VBROADCASTSD a+24(FP), Y15
	XORQ EW_I, EW_I

axpyF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  axpyF64_one
	VMULPD  0(EW_AXPY_X)(EW_I*1), Y15, Y0  // a·x
	VADDPD  0(EW_AXPY_Y)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_AXPY_Y)(EW_I*1)
	VMULPD  32(EW_AXPY_X)(EW_I*1), Y15, Y1  // a·x
	VADDPD  32(EW_AXPY_Y)(EW_I*1), Y1, Y1
	VMOVUPD Y1, 32(EW_AXPY_Y)(EW_I*1)
	VMULPD  64(EW_AXPY_X)(EW_I*1), Y15, Y2  // a·x
	VADDPD  64(EW_AXPY_Y)(EW_I*1), Y2, Y2
	VMOVUPD Y2, 64(EW_AXPY_Y)(EW_I*1)
	VMULPD  96(EW_AXPY_X)(EW_I*1), Y15, Y3  // a·x
	VADDPD  96(EW_AXPY_Y)(EW_I*1), Y3, Y3
	VMOVUPD Y3, 96(EW_AXPY_Y)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  axpyF64_block

axpyF64_one:
	CMPQ EW_I, EW_N
	JGE  axpyF64_done
	VMULPD  0(EW_AXPY_X)(EW_I*1), Y15, Y0  // a·x
	VADDPD  0(EW_AXPY_Y)(EW_I*1), Y0, Y0
	VMOVUPD Y0, 0(EW_AXPY_Y)(EW_I*1)
	ADDQ $32, EW_I
	JMP  axpyF64_one

axpyF64_done:
	VZEROUPPER
	RET

#define EW_SCALE_X SI

// func scaleF32(n int, x *float32, a float32)
TEXT ·scaleF32(SB), NOSPLIT, $0-20
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ x+8(FP), EW_SCALE_X
	VBROADCASTSS a+16(FP), Y15
	XORQ EW_I, EW_I

scaleF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  scaleF32_one
	VMULPS  0(EW_SCALE_X)(EW_I*1), Y15, Y0
	VMOVUPS Y0, 0(EW_SCALE_X)(EW_I*1)
	VMULPS  32(EW_SCALE_X)(EW_I*1), Y15, Y1
	VMOVUPS Y1, 32(EW_SCALE_X)(EW_I*1)
	VMULPS  64(EW_SCALE_X)(EW_I*1), Y15, Y2
	VMOVUPS Y2, 64(EW_SCALE_X)(EW_I*1)
	VMULPS  96(EW_SCALE_X)(EW_I*1), Y15, Y3
	VMOVUPS Y3, 96(EW_SCALE_X)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  scaleF32_block

scaleF32_one:
	CMPQ EW_I, EW_N
	JGE  scaleF32_done
	VMULPS  0(EW_SCALE_X)(EW_I*1), Y15, Y0
	VMOVUPS Y0, 0(EW_SCALE_X)(EW_I*1)
	ADDQ $32, EW_I
	JMP  scaleF32_one

scaleF32_done:
	VZEROUPPER
	RET

// func scaleF64(n int, x *float64, a float64)
TEXT ·scaleF64(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ x+8(FP), EW_SCALE_X
	VBROADCASTSD a+16(FP), Y15
	XORQ EW_I, EW_I

scaleF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  scaleF64_one
	VMULPD  0(EW_SCALE_X)(EW_I*1), Y15, Y0
	VMOVUPD Y0, 0(EW_SCALE_X)(EW_I*1)
	VMULPD  32(EW_SCALE_X)(EW_I*1), Y15, Y1
	VMOVUPD Y1, 32(EW_SCALE_X)(EW_I*1)
	VMULPD  64(EW_SCALE_X)(EW_I*1), Y15, Y2
	VMOVUPD Y2, 64(EW_SCALE_X)(EW_I*1)
	VMULPD  96(EW_SCALE_X)(EW_I*1), Y15, Y3
	VMOVUPD Y3, 96(EW_SCALE_X)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  scaleF64_block

scaleF64_one:
	CMPQ EW_I, EW_N
	JGE  scaleF64_done
	VMULPD  0(EW_SCALE_X)(EW_I*1), Y15, Y0
	VMOVUPD Y0, 0(EW_SCALE_X)(EW_I*1)
	ADDQ $32, EW_I
	JMP  scaleF64_one

scaleF64_done:
	VZEROUPPER
	RET

#define EW_SGD_P2 SI
#define EW_SGD_P DI
#define EW_SGD_GR R8

// func sgdF32(n int, p2, p, gr *float32, lr float32)
TEXT ·sgdF32(SB), NOSPLIT, $0-36
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ p2+8(FP), EW_SGD_P2
	MOVQ p+16(FP), EW_SGD_P
	MOVQ gr+24(FP), EW_SGD_GR
	VBROADCASTSS lr+32(FP), Y15
	XORQ EW_I, EW_I

sgdF32_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  sgdF32_one
	VMULPS  0(EW_SGD_GR)(EW_I*1), Y15, Y0  // lr·g
	VMOVUPS 0(EW_SGD_P)(EW_I*1), Y4
	VSUBPS  Y0, Y4, Y4          // p − lr·g
	VMOVUPS Y4, 0(EW_SGD_P2)(EW_I*1)
	VMULPS  32(EW_SGD_GR)(EW_I*1), Y15, Y1  // lr·g
	VMOVUPS 32(EW_SGD_P)(EW_I*1), Y5
	VSUBPS  Y1, Y5, Y5          // p − lr·g
	VMOVUPS Y5, 32(EW_SGD_P2)(EW_I*1)
	VMULPS  64(EW_SGD_GR)(EW_I*1), Y15, Y2  // lr·g
	VMOVUPS 64(EW_SGD_P)(EW_I*1), Y6
	VSUBPS  Y2, Y6, Y6          // p − lr·g
	VMOVUPS Y6, 64(EW_SGD_P2)(EW_I*1)
	VMULPS  96(EW_SGD_GR)(EW_I*1), Y15, Y3  // lr·g
	VMOVUPS 96(EW_SGD_P)(EW_I*1), Y7
	VSUBPS  Y3, Y7, Y7          // p − lr·g
	VMOVUPS Y7, 96(EW_SGD_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  sgdF32_block

sgdF32_one:
	CMPQ EW_I, EW_N
	JGE  sgdF32_done
	VMULPS  0(EW_SGD_GR)(EW_I*1), Y15, Y0  // lr·g
	VMOVUPS 0(EW_SGD_P)(EW_I*1), Y4
	VSUBPS  Y0, Y4, Y4          // p − lr·g
	VMOVUPS Y4, 0(EW_SGD_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  sgdF32_one

sgdF32_done:
	VZEROUPPER
	RET

// func sgdF64(n int, p2, p, gr *float64, lr float64)
TEXT ·sgdF64(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ p2+8(FP), EW_SGD_P2
	MOVQ p+16(FP), EW_SGD_P
	MOVQ gr+24(FP), EW_SGD_GR
	VBROADCASTSD lr+32(FP), Y15
	XORQ EW_I, EW_I

sgdF64_block:
	LEAQ 128(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  sgdF64_one
	VMULPD  0(EW_SGD_GR)(EW_I*1), Y15, Y0  // lr·g
	VMOVUPD 0(EW_SGD_P)(EW_I*1), Y4
	VSUBPD  Y0, Y4, Y4          // p − lr·g
	VMOVUPD Y4, 0(EW_SGD_P2)(EW_I*1)
	VMULPD  32(EW_SGD_GR)(EW_I*1), Y15, Y1  // lr·g
	VMOVUPD 32(EW_SGD_P)(EW_I*1), Y5
	VSUBPD  Y1, Y5, Y5          // p − lr·g
	VMOVUPD Y5, 32(EW_SGD_P2)(EW_I*1)
	VMULPD  64(EW_SGD_GR)(EW_I*1), Y15, Y2  // lr·g
	VMOVUPD 64(EW_SGD_P)(EW_I*1), Y6
	VSUBPD  Y2, Y6, Y6          // p − lr·g
	VMOVUPD Y6, 64(EW_SGD_P2)(EW_I*1)
	VMULPD  96(EW_SGD_GR)(EW_I*1), Y15, Y3  // lr·g
	VMOVUPD 96(EW_SGD_P)(EW_I*1), Y7
	VSUBPD  Y3, Y7, Y7          // p − lr·g
	VMOVUPD Y7, 96(EW_SGD_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  sgdF64_block

sgdF64_one:
	CMPQ EW_I, EW_N
	JGE  sgdF64_done
	VMULPD  0(EW_SGD_GR)(EW_I*1), Y15, Y0  // lr·g
	VMOVUPD 0(EW_SGD_P)(EW_I*1), Y4
	VSUBPD  Y0, Y4, Y4          // p − lr·g
	VMOVUPD Y4, 0(EW_SGD_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  sgdF64_one

sgdF64_done:
	VZEROUPPER
	RET

#define EW_NESTEROV_P2 SI
#define EW_NESTEROV_V2 DI
#define EW_NESTEROV_P R8
#define EW_NESTEROV_V R9
#define EW_NESTEROV_GR R10

// func nesterovF32(n int, p2, v2, p, v, gr *float32, lr, mu float32)
TEXT ·nesterovF32(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ p2+8(FP), EW_NESTEROV_P2
	MOVQ v2+16(FP), EW_NESTEROV_V2
	MOVQ p+24(FP), EW_NESTEROV_P
	MOVQ v+32(FP), EW_NESTEROV_V
	MOVQ gr+40(FP), EW_NESTEROV_GR
	VBROADCASTSS lr+48(FP), Y14
	VBROADCASTSS mu+52(FP), Y15
	XORQ EW_I, EW_I

nesterovF32_block:
	LEAQ 64(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  nesterovF32_one
	VMULPS  0(EW_NESTEROV_GR)(EW_I*1), Y14, Y0 // lr·g
	VMULPS  0(EW_NESTEROV_V)(EW_I*1), Y15, Y1  // mu·v
	VSUBPS  Y0, Y1, Y1          // v2 = mu·v − lr·g
	VMOVUPS Y1, 0(EW_NESTEROV_V2)(EW_I*1)
	VMULPS  Y1, Y15, Y2           // mu·v2
	VMOVUPS 0(EW_NESTEROV_P)(EW_I*1), Y3
	VADDPS  Y2, Y3, Y3          // p + mu·v2
	VSUBPS  Y0, Y3, Y3          // − lr·g
	VMOVUPS Y3, 0(EW_NESTEROV_P2)(EW_I*1)
	VMULPS  32(EW_NESTEROV_GR)(EW_I*1), Y14, Y4 // lr·g
	VMULPS  32(EW_NESTEROV_V)(EW_I*1), Y15, Y5  // mu·v
	VSUBPS  Y4, Y5, Y5          // v2 = mu·v − lr·g
	VMOVUPS Y5, 32(EW_NESTEROV_V2)(EW_I*1)
	VMULPS  Y5, Y15, Y6           // mu·v2
	VMOVUPS 32(EW_NESTEROV_P)(EW_I*1), Y7
	VADDPS  Y6, Y7, Y7          // p + mu·v2
	VSUBPS  Y4, Y7, Y7          // − lr·g
	VMOVUPS Y7, 32(EW_NESTEROV_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  nesterovF32_block

nesterovF32_one:
	CMPQ EW_I, EW_N
	JGE  nesterovF32_done
	VMULPS  0(EW_NESTEROV_GR)(EW_I*1), Y14, Y0 // lr·g
	VMULPS  0(EW_NESTEROV_V)(EW_I*1), Y15, Y1  // mu·v
	VSUBPS  Y0, Y1, Y1          // v2 = mu·v − lr·g
	VMOVUPS Y1, 0(EW_NESTEROV_V2)(EW_I*1)
	VMULPS  Y1, Y15, Y2           // mu·v2
	VMOVUPS 0(EW_NESTEROV_P)(EW_I*1), Y3
	VADDPS  Y2, Y3, Y3          // p + mu·v2
	VSUBPS  Y0, Y3, Y3          // − lr·g
	VMOVUPS Y3, 0(EW_NESTEROV_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  nesterovF32_one

nesterovF32_done:
	VZEROUPPER
	RET

// func nesterovF64(n int, p2, v2, p, v, gr *float64, lr, mu float64)
TEXT ·nesterovF64(SB), NOSPLIT, $0-64
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ p2+8(FP), EW_NESTEROV_P2
	MOVQ v2+16(FP), EW_NESTEROV_V2
	MOVQ p+24(FP), EW_NESTEROV_P
	MOVQ v+32(FP), EW_NESTEROV_V
	MOVQ gr+40(FP), EW_NESTEROV_GR
	VBROADCASTSD lr+48(FP), Y14
	VBROADCASTSD mu+56(FP), Y15
	XORQ EW_I, EW_I

nesterovF64_block:
	LEAQ 64(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  nesterovF64_one
	VMULPD  0(EW_NESTEROV_GR)(EW_I*1), Y14, Y0 // lr·g
	VMULPD  0(EW_NESTEROV_V)(EW_I*1), Y15, Y1  // mu·v
	VSUBPD  Y0, Y1, Y1          // v2 = mu·v − lr·g
	VMOVUPD Y1, 0(EW_NESTEROV_V2)(EW_I*1)
	VMULPD  Y1, Y15, Y2           // mu·v2
	VMOVUPD 0(EW_NESTEROV_P)(EW_I*1), Y3
	VADDPD  Y2, Y3, Y3          // p + mu·v2
	VSUBPD  Y0, Y3, Y3          // − lr·g
	VMOVUPD Y3, 0(EW_NESTEROV_P2)(EW_I*1)
	VMULPD  32(EW_NESTEROV_GR)(EW_I*1), Y14, Y4 // lr·g
	VMULPD  32(EW_NESTEROV_V)(EW_I*1), Y15, Y5  // mu·v
	VSUBPD  Y4, Y5, Y5          // v2 = mu·v − lr·g
	VMOVUPD Y5, 32(EW_NESTEROV_V2)(EW_I*1)
	VMULPD  Y5, Y15, Y6           // mu·v2
	VMOVUPD 32(EW_NESTEROV_P)(EW_I*1), Y7
	VADDPD  Y6, Y7, Y7          // p + mu·v2
	VSUBPD  Y4, Y7, Y7          // − lr·g
	VMOVUPD Y7, 32(EW_NESTEROV_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  nesterovF64_block

nesterovF64_one:
	CMPQ EW_I, EW_N
	JGE  nesterovF64_done
	VMULPD  0(EW_NESTEROV_GR)(EW_I*1), Y14, Y0 // lr·g
	VMULPD  0(EW_NESTEROV_V)(EW_I*1), Y15, Y1  // mu·v
	VSUBPD  Y0, Y1, Y1          // v2 = mu·v − lr·g
	VMOVUPD Y1, 0(EW_NESTEROV_V2)(EW_I*1)
	VMULPD  Y1, Y15, Y2           // mu·v2
	VMOVUPD 0(EW_NESTEROV_P)(EW_I*1), Y3
	VADDPD  Y2, Y3, Y3          // p + mu·v2
	VSUBPD  Y0, Y3, Y3          // − lr·g
	VMOVUPD Y3, 0(EW_NESTEROV_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  nesterovF64_one

nesterovF64_done:
	VZEROUPPER
	RET

#define EW_RMSPROP_P2 SI
#define EW_RMSPROP_A2 DI
#define EW_RMSPROP_P R8
#define EW_RMSPROP_A R9
#define EW_RMSPROP_GR R10

// func rmspropF32(n int, p2, a2, p, a, gr *float32, lr, rho, c, eps float32)
TEXT ·rmspropF32(SB), NOSPLIT, $0-64
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ p2+8(FP), EW_RMSPROP_P2
	MOVQ a2+16(FP), EW_RMSPROP_A2
	MOVQ p+24(FP), EW_RMSPROP_P
	MOVQ a+32(FP), EW_RMSPROP_A
	MOVQ gr+40(FP), EW_RMSPROP_GR
	VBROADCASTSS lr+48(FP), Y12
	VBROADCASTSS rho+52(FP), Y13
	VBROADCASTSS c+56(FP), Y14
	VBROADCASTSS eps+60(FP), Y15
	XORQ EW_I, EW_I

rmspropF32_block:
	LEAQ 64(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  rmspropF32_one
	VMOVUPS 0(EW_RMSPROP_GR)(EW_I*1), Y0      // g
	VMULPS  0(EW_RMSPROP_A)(EW_I*1), Y13, Y1  // rho·a
	VMULPS  Y0, Y14, Y2           // c·g
	VMULPS  Y0, Y2, Y2          // c·g·g
	VADDPS  Y2, Y1, Y1          // a2
	VMOVUPS Y1, 0(EW_RMSPROP_A2)(EW_I*1)
	VSQRTPS Y1, Y2
	VADDPS  Y15, Y2, Y2           // sqrt(a2) + eps
	VMULPS  Y0, Y12, Y0           // lr·g
	VDIVPS  Y2, Y0, Y0
	VMOVUPS 0(EW_RMSPROP_P)(EW_I*1), Y3
	VSUBPS  Y0, Y3, Y3
	VMOVUPS Y3, 0(EW_RMSPROP_P2)(EW_I*1)
	VMOVUPS 32(EW_RMSPROP_GR)(EW_I*1), Y4      // g
	VMULPS  32(EW_RMSPROP_A)(EW_I*1), Y13, Y5  // rho·a
	VMULPS  Y4, Y14, Y6           // c·g
	VMULPS  Y4, Y6, Y6          // c·g·g
	VADDPS  Y6, Y5, Y5          // a2
	VMOVUPS Y5, 32(EW_RMSPROP_A2)(EW_I*1)
	VSQRTPS Y5, Y6
	VADDPS  Y15, Y6, Y6           // sqrt(a2) + eps
	VMULPS  Y4, Y12, Y4           // lr·g
	VDIVPS  Y6, Y4, Y4
	VMOVUPS 32(EW_RMSPROP_P)(EW_I*1), Y7
	VSUBPS  Y4, Y7, Y7
	VMOVUPS Y7, 32(EW_RMSPROP_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  rmspropF32_block

rmspropF32_one:
	CMPQ EW_I, EW_N
	JGE  rmspropF32_done
	VMOVUPS 0(EW_RMSPROP_GR)(EW_I*1), Y0      // g
	VMULPS  0(EW_RMSPROP_A)(EW_I*1), Y13, Y1  // rho·a
	VMULPS  Y0, Y14, Y2           // c·g
	VMULPS  Y0, Y2, Y2          // c·g·g
	VADDPS  Y2, Y1, Y1          // a2
	VMOVUPS Y1, 0(EW_RMSPROP_A2)(EW_I*1)
	VSQRTPS Y1, Y2
	VADDPS  Y15, Y2, Y2           // sqrt(a2) + eps
	VMULPS  Y0, Y12, Y0           // lr·g
	VDIVPS  Y2, Y0, Y0
	VMOVUPS 0(EW_RMSPROP_P)(EW_I*1), Y3
	VSUBPS  Y0, Y3, Y3
	VMOVUPS Y3, 0(EW_RMSPROP_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  rmspropF32_one

rmspropF32_done:
	VZEROUPPER
	RET

// func rmspropF64(n int, p2, a2, p, a, gr *float64, lr, rho, c, eps float64)
TEXT ·rmspropF64(SB), NOSPLIT, $0-80
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ p2+8(FP), EW_RMSPROP_P2
	MOVQ a2+16(FP), EW_RMSPROP_A2
	MOVQ p+24(FP), EW_RMSPROP_P
	MOVQ a+32(FP), EW_RMSPROP_A
	MOVQ gr+40(FP), EW_RMSPROP_GR
	VBROADCASTSD lr+48(FP), Y12
	VBROADCASTSD rho+56(FP), Y13
	VBROADCASTSD c+64(FP), Y14
	VBROADCASTSD eps+72(FP), Y15
	XORQ EW_I, EW_I

rmspropF64_block:
	LEAQ 64(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  rmspropF64_one
	VMOVUPD 0(EW_RMSPROP_GR)(EW_I*1), Y0      // g
	VMULPD  0(EW_RMSPROP_A)(EW_I*1), Y13, Y1  // rho·a
	VMULPD  Y0, Y14, Y2           // c·g
	VMULPD  Y0, Y2, Y2          // c·g·g
	VADDPD  Y2, Y1, Y1          // a2
	VMOVUPD Y1, 0(EW_RMSPROP_A2)(EW_I*1)
	VSQRTPD Y1, Y2
	VADDPD  Y15, Y2, Y2           // sqrt(a2) + eps
	VMULPD  Y0, Y12, Y0           // lr·g
	VDIVPD  Y2, Y0, Y0
	VMOVUPD 0(EW_RMSPROP_P)(EW_I*1), Y3
	VSUBPD  Y0, Y3, Y3
	VMOVUPD Y3, 0(EW_RMSPROP_P2)(EW_I*1)
	VMOVUPD 32(EW_RMSPROP_GR)(EW_I*1), Y4      // g
	VMULPD  32(EW_RMSPROP_A)(EW_I*1), Y13, Y5  // rho·a
	VMULPD  Y4, Y14, Y6           // c·g
	VMULPD  Y4, Y6, Y6          // c·g·g
	VADDPD  Y6, Y5, Y5          // a2
	VMOVUPD Y5, 32(EW_RMSPROP_A2)(EW_I*1)
	VSQRTPD Y5, Y6
	VADDPD  Y15, Y6, Y6           // sqrt(a2) + eps
	VMULPD  Y4, Y12, Y4           // lr·g
	VDIVPD  Y6, Y4, Y4
	VMOVUPD 32(EW_RMSPROP_P)(EW_I*1), Y7
	VSUBPD  Y4, Y7, Y7
	VMOVUPD Y7, 32(EW_RMSPROP_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  rmspropF64_block

rmspropF64_one:
	CMPQ EW_I, EW_N
	JGE  rmspropF64_done
	VMOVUPD 0(EW_RMSPROP_GR)(EW_I*1), Y0      // g
	VMULPD  0(EW_RMSPROP_A)(EW_I*1), Y13, Y1  // rho·a
	VMULPD  Y0, Y14, Y2           // c·g
	VMULPD  Y0, Y2, Y2          // c·g·g
	VADDPD  Y2, Y1, Y1          // a2
	VMOVUPD Y1, 0(EW_RMSPROP_A2)(EW_I*1)
	VSQRTPD Y1, Y2
	VADDPD  Y15, Y2, Y2           // sqrt(a2) + eps
	VMULPD  Y0, Y12, Y0           // lr·g
	VDIVPD  Y2, Y0, Y0
	VMOVUPD 0(EW_RMSPROP_P)(EW_I*1), Y3
	VSUBPD  Y0, Y3, Y3
	VMOVUPD Y3, 0(EW_RMSPROP_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  rmspropF64_one

rmspropF64_done:
	VZEROUPPER
	RET

#define EW_ADAM_P2 SI
#define EW_ADAM_M2 DI
#define EW_ADAM_V2 R8
#define EW_ADAM_P R9
#define EW_ADAM_M R10
#define EW_ADAM_V R11
#define EW_ADAM_GR R12

// func adamF32(n int, p2, m2, v2, p, m, v, gr *float32, lr, b1, c1, b2, c2, eps float32)
TEXT ·adamF32(SB), NOSPLIT, $0-88
	MOVQ n+0(FP), EW_N
	SHLQ $2, EW_N // bytes
	MOVQ p2+8(FP), EW_ADAM_P2
	MOVQ m2+16(FP), EW_ADAM_M2
	MOVQ v2+24(FP), EW_ADAM_V2
	MOVQ p+32(FP), EW_ADAM_P
	MOVQ m+40(FP), EW_ADAM_M
	MOVQ v+48(FP), EW_ADAM_V
	MOVQ gr+56(FP), EW_ADAM_GR
	VBROADCASTSS lr+64(FP), Y10
	VBROADCASTSS b1+68(FP), Y11
	VBROADCASTSS c1+72(FP), Y12
	VBROADCASTSS b2+76(FP), Y13
	VBROADCASTSS c2+80(FP), Y14
	VBROADCASTSS eps+84(FP), Y15
	XORQ EW_I, EW_I

adamF32_block:
	LEAQ 64(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  adamF32_one
	VMOVUPS 0(EW_ADAM_GR)(EW_I*1), Y0      // g
	VMULPS  0(EW_ADAM_M)(EW_I*1), Y11, Y1 // b1·m
	VMULPS  Y0, Y12, Y2           // c1·g
	VADDPS  Y2, Y1, Y1          // m2
	VMOVUPS Y1, 0(EW_ADAM_M2)(EW_I*1)
	VMULPS  Y0, Y14, Y2           // c2·g
	VMULPS  Y0, Y2, Y2          // c2·g·g
	VMULPS  0(EW_ADAM_V)(EW_I*1), Y13, Y3 // b2·v
	VADDPS  Y2, Y3, Y3          // v2
	VMOVUPS Y3, 0(EW_ADAM_V2)(EW_I*1)
	VSQRTPS Y3, Y3
	VADDPS  Y15, Y3, Y3           // sqrt(v2) + eps
	VMULPS  Y1, Y10, Y1           // lr·m2
	VDIVPS  Y3, Y1, Y1
	VMOVUPS 0(EW_ADAM_P)(EW_I*1), Y0       // p
	VSUBPS  Y1, Y0, Y0
	VMOVUPS Y0, 0(EW_ADAM_P2)(EW_I*1)
	VMOVUPS 32(EW_ADAM_GR)(EW_I*1), Y4      // g
	VMULPS  32(EW_ADAM_M)(EW_I*1), Y11, Y5 // b1·m
	VMULPS  Y4, Y12, Y6           // c1·g
	VADDPS  Y6, Y5, Y5          // m2
	VMOVUPS Y5, 32(EW_ADAM_M2)(EW_I*1)
	VMULPS  Y4, Y14, Y6           // c2·g
	VMULPS  Y4, Y6, Y6          // c2·g·g
	VMULPS  32(EW_ADAM_V)(EW_I*1), Y13, Y7 // b2·v
	VADDPS  Y6, Y7, Y7          // v2
	VMOVUPS Y7, 32(EW_ADAM_V2)(EW_I*1)
	VSQRTPS Y7, Y7
	VADDPS  Y15, Y7, Y7           // sqrt(v2) + eps
	VMULPS  Y5, Y10, Y5           // lr·m2
	VDIVPS  Y7, Y5, Y5
	VMOVUPS 32(EW_ADAM_P)(EW_I*1), Y4       // p
	VSUBPS  Y5, Y4, Y4
	VMOVUPS Y4, 32(EW_ADAM_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  adamF32_block

adamF32_one:
	CMPQ EW_I, EW_N
	JGE  adamF32_done
	VMOVUPS 0(EW_ADAM_GR)(EW_I*1), Y0      // g
	VMULPS  0(EW_ADAM_M)(EW_I*1), Y11, Y1 // b1·m
	VMULPS  Y0, Y12, Y2           // c1·g
	VADDPS  Y2, Y1, Y1          // m2
	VMOVUPS Y1, 0(EW_ADAM_M2)(EW_I*1)
	VMULPS  Y0, Y14, Y2           // c2·g
	VMULPS  Y0, Y2, Y2          // c2·g·g
	VMULPS  0(EW_ADAM_V)(EW_I*1), Y13, Y3 // b2·v
	VADDPS  Y2, Y3, Y3          // v2
	VMOVUPS Y3, 0(EW_ADAM_V2)(EW_I*1)
	VSQRTPS Y3, Y3
	VADDPS  Y15, Y3, Y3           // sqrt(v2) + eps
	VMULPS  Y1, Y10, Y1           // lr·m2
	VDIVPS  Y3, Y1, Y1
	VMOVUPS 0(EW_ADAM_P)(EW_I*1), Y0       // p
	VSUBPS  Y1, Y0, Y0
	VMOVUPS Y0, 0(EW_ADAM_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  adamF32_one

adamF32_done:
	VZEROUPPER
	RET

// func adamF64(n int, p2, m2, v2, p, m, v, gr *float64, lr, b1, c1, b2, c2, eps float64)
TEXT ·adamF64(SB), NOSPLIT, $0-112
	MOVQ n+0(FP), EW_N
	SHLQ $3, EW_N // bytes
	MOVQ p2+8(FP), EW_ADAM_P2
	MOVQ m2+16(FP), EW_ADAM_M2
	MOVQ v2+24(FP), EW_ADAM_V2
	MOVQ p+32(FP), EW_ADAM_P
	MOVQ m+40(FP), EW_ADAM_M
	MOVQ v+48(FP), EW_ADAM_V
	MOVQ gr+56(FP), EW_ADAM_GR
	VBROADCASTSD lr+64(FP), Y10
	VBROADCASTSD b1+72(FP), Y11
	VBROADCASTSD c1+80(FP), Y12
	VBROADCASTSD b2+88(FP), Y13
	VBROADCASTSD c2+96(FP), Y14
	VBROADCASTSD eps+104(FP), Y15
	XORQ EW_I, EW_I

adamF64_block:
	LEAQ 64(EW_I), EW_END
	CMPQ EW_END, EW_N
	JGT  adamF64_one
	VMOVUPD 0(EW_ADAM_GR)(EW_I*1), Y0      // g
	VMULPD  0(EW_ADAM_M)(EW_I*1), Y11, Y1 // b1·m
	VMULPD  Y0, Y12, Y2           // c1·g
	VADDPD  Y2, Y1, Y1          // m2
	VMOVUPD Y1, 0(EW_ADAM_M2)(EW_I*1)
	VMULPD  Y0, Y14, Y2           // c2·g
	VMULPD  Y0, Y2, Y2          // c2·g·g
	VMULPD  0(EW_ADAM_V)(EW_I*1), Y13, Y3 // b2·v
	VADDPD  Y2, Y3, Y3          // v2
	VMOVUPD Y3, 0(EW_ADAM_V2)(EW_I*1)
	VSQRTPD Y3, Y3
	VADDPD  Y15, Y3, Y3           // sqrt(v2) + eps
	VMULPD  Y1, Y10, Y1           // lr·m2
	VDIVPD  Y3, Y1, Y1
	VMOVUPD 0(EW_ADAM_P)(EW_I*1), Y0       // p
	VSUBPD  Y1, Y0, Y0
	VMOVUPD Y0, 0(EW_ADAM_P2)(EW_I*1)
	VMOVUPD 32(EW_ADAM_GR)(EW_I*1), Y4      // g
	VMULPD  32(EW_ADAM_M)(EW_I*1), Y11, Y5 // b1·m
	VMULPD  Y4, Y12, Y6           // c1·g
	VADDPD  Y6, Y5, Y5          // m2
	VMOVUPD Y5, 32(EW_ADAM_M2)(EW_I*1)
	VMULPD  Y4, Y14, Y6           // c2·g
	VMULPD  Y4, Y6, Y6          // c2·g·g
	VMULPD  32(EW_ADAM_V)(EW_I*1), Y13, Y7 // b2·v
	VADDPD  Y6, Y7, Y7          // v2
	VMOVUPD Y7, 32(EW_ADAM_V2)(EW_I*1)
	VSQRTPD Y7, Y7
	VADDPD  Y15, Y7, Y7           // sqrt(v2) + eps
	VMULPD  Y5, Y10, Y5           // lr·m2
	VDIVPD  Y7, Y5, Y5
	VMOVUPD 32(EW_ADAM_P)(EW_I*1), Y4       // p
	VSUBPD  Y5, Y4, Y4
	VMOVUPD Y4, 32(EW_ADAM_P2)(EW_I*1)
	MOVQ EW_END, EW_I
	JMP  adamF64_block

adamF64_one:
	CMPQ EW_I, EW_N
	JGE  adamF64_done
	VMOVUPD 0(EW_ADAM_GR)(EW_I*1), Y0      // g
	VMULPD  0(EW_ADAM_M)(EW_I*1), Y11, Y1 // b1·m
	VMULPD  Y0, Y12, Y2           // c1·g
	VADDPD  Y2, Y1, Y1          // m2
	VMOVUPD Y1, 0(EW_ADAM_M2)(EW_I*1)
	VMULPD  Y0, Y14, Y2           // c2·g
	VMULPD  Y0, Y2, Y2          // c2·g·g
	VMULPD  0(EW_ADAM_V)(EW_I*1), Y13, Y3 // b2·v
	VADDPD  Y2, Y3, Y3          // v2
	VMOVUPD Y3, 0(EW_ADAM_V2)(EW_I*1)
	VSQRTPD Y3, Y3
	VADDPD  Y15, Y3, Y3           // sqrt(v2) + eps
	VMULPD  Y1, Y10, Y1           // lr·m2
	VDIVPD  Y3, Y1, Y1
	VMOVUPD 0(EW_ADAM_P)(EW_I*1), Y0       // p
	VSUBPD  Y1, Y0, Y0
	VMOVUPD Y0, 0(EW_ADAM_P2)(EW_I*1)
	ADDQ $32, EW_I
	JMP  adamF64_one

adamF64_done:
	VZEROUPPER
	RET


#define EW_RED_X SI // x of sumSquares and allFinite

// func sumSquaresF32(n int, x *float32) float64
TEXT ·sumSquaresF32(SB), NOSPLIT, $0-24
	MOVQ   n+0(FP), EW_N
	SHLQ   $2, EW_N // bytes
	MOVQ   x+8(FP), EW_RED_X
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   EW_I, EW_I

sumSquaresF32_block:
	// float64(x)² is exact, so the fused multiply-add rounds once, as the
	// generic s += float64(v)*float64(v) does.
	LEAQ        128(EW_I), EW_END
	CMPQ        EW_END, EW_N
	JGT         sumSquaresF32_one
	VCVTPS2PD   0(EW_RED_X)(EW_I*1), Y4
	VCVTPS2PD   16(EW_RED_X)(EW_I*1), Y5
	VCVTPS2PD   32(EW_RED_X)(EW_I*1), Y6
	VCVTPS2PD   48(EW_RED_X)(EW_I*1), Y7
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	VCVTPS2PD   64(EW_RED_X)(EW_I*1), Y4
	VCVTPS2PD   80(EW_RED_X)(EW_I*1), Y5
	VCVTPS2PD   96(EW_RED_X)(EW_I*1), Y6
	VCVTPS2PD   112(EW_RED_X)(EW_I*1), Y7
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	MOVQ        EW_END, EW_I
	JMP         sumSquaresF32_block

sumSquaresF32_one:
	CMPQ        EW_I, EW_N
	JGE         sumSquaresF32_done
	VCVTPS2PD   0(EW_RED_X)(EW_I*1), Y4
	VCVTPS2PD   16(EW_RED_X)(EW_I*1), Y5
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	ADDQ        $32, EW_I
	JMP         sumSquaresF32_one

sumSquaresF32_done:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VHADDPD      X0, X0, X0
	VMOVSD       X0, ret+16(FP)
	VZEROUPPER
	RET

// func sumSquaresF64(n int, x *float64) float64
TEXT ·sumSquaresF64(SB), NOSPLIT, $0-24
	MOVQ   n+0(FP), EW_N
	SHLQ   $3, EW_N // bytes
	MOVQ   x+8(FP), EW_RED_X
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   EW_I, EW_I

sumSquaresF64_block:
	LEAQ        128(EW_I), EW_END
	CMPQ        EW_END, EW_N
	JGT         sumSquaresF64_one
	VMOVUPD     0(EW_RED_X)(EW_I*1), Y4
	VMOVUPD     32(EW_RED_X)(EW_I*1), Y5
	VMOVUPD     64(EW_RED_X)(EW_I*1), Y6
	VMOVUPD     96(EW_RED_X)(EW_I*1), Y7
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	MOVQ        EW_END, EW_I
	JMP         sumSquaresF64_block

sumSquaresF64_one:
	CMPQ        EW_I, EW_N
	JGE         sumSquaresF64_done
	VMOVUPD     0(EW_RED_X)(EW_I*1), Y4
	VFMADD231PD Y4, Y4, Y0
	ADDQ        $32, EW_I
	JMP         sumSquaresF64_one

sumSquaresF64_done:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VHADDPD      X0, X0, X0
	VMOVSD       X0, ret+16(FP)
	VZEROUPPER
	RET

// func allFiniteF32(n int, x *float32) bool
TEXT ·allFiniteF32(SB), NOSPLIT, $0-17
	MOVQ   n+0(FP), EW_N
	SHLQ   $2, EW_N // bytes
	MOVQ   x+8(FP), EW_RED_X
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ   EW_I, EW_I

allFiniteF32_block:
	// s += x − x: 0 for a finite x, NaN for NaN or ±Inf, and a NaN stays.
	LEAQ    128(EW_I), EW_END
	CMPQ    EW_END, EW_N
	JGT     allFiniteF32_one
	VMOVUPS 0(EW_RED_X)(EW_I*1), Y4
	VMOVUPS 32(EW_RED_X)(EW_I*1), Y5
	VMOVUPS 64(EW_RED_X)(EW_I*1), Y6
	VMOVUPS 96(EW_RED_X)(EW_I*1), Y7
	VSUBPS  Y4, Y4, Y4
	VSUBPS  Y5, Y5, Y5
	VSUBPS  Y6, Y6, Y6
	VSUBPS  Y7, Y7, Y7
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  Y6, Y2, Y2
	VADDPS  Y7, Y3, Y3
	MOVQ    EW_END, EW_I
	JMP     allFiniteF32_block

allFiniteF32_one:
	CMPQ    EW_I, EW_N
	JGE     allFiniteF32_done
	VMOVUPS 0(EW_RED_X)(EW_I*1), Y4
	VSUBPS  Y4, Y4, Y4
	VADDPS  Y4, Y0, Y0
	ADDQ    $32, EW_I
	JMP     allFiniteF32_one

allFiniteF32_done:
	VADDPS    Y1, Y0, Y0
	VADDPS    Y3, Y2, Y2
	VADDPS    Y2, Y0, Y0
	VXORPS    Y1, Y1, Y1
	VCMPPS    $0, Y1, Y0, Y0 // s == 0, lane by lane (false for NaN)
	VMOVMSKPS Y0, AX
	CMPL      AX, $0xff
	SETEQ     ret+16(FP)
	VZEROUPPER
	RET

// func allFiniteF64(n int, x *float64) bool
TEXT ·allFiniteF64(SB), NOSPLIT, $0-17
	MOVQ   n+0(FP), EW_N
	SHLQ   $3, EW_N // bytes
	MOVQ   x+8(FP), EW_RED_X
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   EW_I, EW_I

allFiniteF64_block:
	LEAQ    128(EW_I), EW_END
	CMPQ    EW_END, EW_N
	JGT     allFiniteF64_one
	VMOVUPD 0(EW_RED_X)(EW_I*1), Y4
	VMOVUPD 32(EW_RED_X)(EW_I*1), Y5
	VMOVUPD 64(EW_RED_X)(EW_I*1), Y6
	VMOVUPD 96(EW_RED_X)(EW_I*1), Y7
	VSUBPD  Y4, Y4, Y4
	VSUBPD  Y5, Y5, Y5
	VSUBPD  Y6, Y6, Y6
	VSUBPD  Y7, Y7, Y7
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	MOVQ    EW_END, EW_I
	JMP     allFiniteF64_block

allFiniteF64_one:
	CMPQ    EW_I, EW_N
	JGE     allFiniteF64_done
	VMOVUPD 0(EW_RED_X)(EW_I*1), Y4
	VSUBPD  Y4, Y4, Y4
	VADDPD  Y4, Y0, Y0
	ADDQ    $32, EW_I
	JMP     allFiniteF64_one

allFiniteF64_done:
	VADDPD    Y1, Y0, Y0
	VADDPD    Y3, Y2, Y2
	VADDPD    Y2, Y0, Y0
	VXORPD    Y1, Y1, Y1
	VCMPPD    $0, Y1, Y0, Y0
	VMOVMSKPD Y0, AX
	CMPL      AX, $0xf
	SETEQ     ret+16(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// gcpLossF64: the Student-t gradient loop of the GCP loss (gcpLossGeneric,
// gcpPoint, NormalGamma.Grad and LogPredictive), four samples at a time in
// float64 (the float32 wrapper converts in chunks). Every special function
// is vectorized: exp and ln as fdlibm's (GL_EXPNEG, GL_LOG, GL_LOG1P),
// ψ(α+½)−ψ(α) and lnΓ(α+½)−lnΓ(α) by the upward recurrence, masked per
// lane, then the asymptotic series of special.go. The branches of the
// scalar code (softplus and sigmoid by the sign of z, the residual for
// u ≤ 1 or u > 1 and u = +Inf, ln σ for ν ≥ 1 or ν < 1, α ≥ 10) are
// evaluated on both sides and blended, and an invalid prior (ν, α or β not
// > 0) gives NaN everywhere, as in the scalar code.

// Constants of gcpLossF64, four copies each, for YMM memory operands.
DATA gcOne<>+0(SB)/8, $0x3ff0000000000000
DATA gcOne<>+8(SB)/8, $0x3ff0000000000000
DATA gcOne<>+16(SB)/8, $0x3ff0000000000000
DATA gcOne<>+24(SB)/8, $0x3ff0000000000000
GLOBL gcOne<>(SB), RODATA|NOPTR, $32
DATA gcTwo<>+0(SB)/8, $0x4000000000000000
DATA gcTwo<>+8(SB)/8, $0x4000000000000000
DATA gcTwo<>+16(SB)/8, $0x4000000000000000
DATA gcTwo<>+24(SB)/8, $0x4000000000000000
GLOBL gcTwo<>(SB), RODATA|NOPTR, $32
DATA gcHalf<>+0(SB)/8, $0x3fe0000000000000
DATA gcHalf<>+8(SB)/8, $0x3fe0000000000000
DATA gcHalf<>+16(SB)/8, $0x3fe0000000000000
DATA gcHalf<>+24(SB)/8, $0x3fe0000000000000
GLOBL gcHalf<>(SB), RODATA|NOPTR, $32
DATA gcTen<>+0(SB)/8, $0x4024000000000000
DATA gcTen<>+8(SB)/8, $0x4024000000000000
DATA gcTen<>+16(SB)/8, $0x4024000000000000
DATA gcTen<>+24(SB)/8, $0x4024000000000000
GLOBL gcTen<>(SB), RODATA|NOPTR, $32
DATA gcSign<>+0(SB)/8, $0x8000000000000000
DATA gcSign<>+8(SB)/8, $0x8000000000000000
DATA gcSign<>+16(SB)/8, $0x8000000000000000
DATA gcSign<>+24(SB)/8, $0x8000000000000000
GLOBL gcSign<>(SB), RODATA|NOPTR, $32
DATA gcAbs<>+0(SB)/8, $0x7fffffffffffffff
DATA gcAbs<>+8(SB)/8, $0x7fffffffffffffff
DATA gcAbs<>+16(SB)/8, $0x7fffffffffffffff
DATA gcAbs<>+24(SB)/8, $0x7fffffffffffffff
GLOBL gcAbs<>(SB), RODATA|NOPTR, $32
DATA gcInf<>+0(SB)/8, $0x7ff0000000000000
DATA gcInf<>+8(SB)/8, $0x7ff0000000000000
DATA gcInf<>+16(SB)/8, $0x7ff0000000000000
DATA gcInf<>+24(SB)/8, $0x7ff0000000000000
GLOBL gcInf<>(SB), RODATA|NOPTR, $32
DATA gcNegInf<>+0(SB)/8, $0xfff0000000000000
DATA gcNegInf<>+8(SB)/8, $0xfff0000000000000
DATA gcNegInf<>+16(SB)/8, $0xfff0000000000000
DATA gcNegInf<>+24(SB)/8, $0xfff0000000000000
GLOBL gcNegInf<>(SB), RODATA|NOPTR, $32
DATA gcNaN<>+0(SB)/8, $0x7ff8000000000000
DATA gcNaN<>+8(SB)/8, $0x7ff8000000000000
DATA gcNaN<>+16(SB)/8, $0x7ff8000000000000
DATA gcNaN<>+24(SB)/8, $0x7ff8000000000000
GLOBL gcNaN<>(SB), RODATA|NOPTR, $32
DATA gcTiny<>+0(SB)/8, $0x0010000000000000
DATA gcTiny<>+8(SB)/8, $0x0010000000000000
DATA gcTiny<>+16(SB)/8, $0x0010000000000000
DATA gcTiny<>+24(SB)/8, $0x0010000000000000
GLOBL gcTiny<>(SB), RODATA|NOPTR, $32
DATA gcTwo54<>+0(SB)/8, $0x4350000000000000
DATA gcTwo54<>+8(SB)/8, $0x4350000000000000
DATA gcTwo54<>+16(SB)/8, $0x4350000000000000
DATA gcTwo54<>+24(SB)/8, $0x4350000000000000
GLOBL gcTwo54<>(SB), RODATA|NOPTR, $32
DATA gc54<>+0(SB)/8, $0x404b000000000000
DATA gc54<>+8(SB)/8, $0x404b000000000000
DATA gc54<>+16(SB)/8, $0x404b000000000000
DATA gc54<>+24(SB)/8, $0x404b000000000000
GLOBL gc54<>(SB), RODATA|NOPTR, $32
DATA gcExpMagic<>+0(SB)/8, $0x4330000000000000
DATA gcExpMagic<>+8(SB)/8, $0x4330000000000000
DATA gcExpMagic<>+16(SB)/8, $0x4330000000000000
DATA gcExpMagic<>+24(SB)/8, $0x4330000000000000
GLOBL gcExpMagic<>(SB), RODATA|NOPTR, $32
DATA gcTwo52<>+0(SB)/8, $0x4330000000000000
DATA gcTwo52<>+8(SB)/8, $0x4330000000000000
DATA gcTwo52<>+16(SB)/8, $0x4330000000000000
DATA gcTwo52<>+24(SB)/8, $0x4330000000000000
GLOBL gcTwo52<>(SB), RODATA|NOPTR, $32
DATA gc1022<>+0(SB)/8, $0x408ff00000000000
DATA gc1022<>+8(SB)/8, $0x408ff00000000000
DATA gc1022<>+16(SB)/8, $0x408ff00000000000
DATA gc1022<>+24(SB)/8, $0x408ff00000000000
GLOBL gc1022<>(SB), RODATA|NOPTR, $32
DATA gcMant<>+0(SB)/8, $0x000fffffffffffff
DATA gcMant<>+8(SB)/8, $0x000fffffffffffff
DATA gcMant<>+16(SB)/8, $0x000fffffffffffff
DATA gcMant<>+24(SB)/8, $0x000fffffffffffff
GLOBL gcMant<>(SB), RODATA|NOPTR, $32
DATA gcSqrtHalf<>+0(SB)/8, $0x3fe6a09e667f3bcd
DATA gcSqrtHalf<>+8(SB)/8, $0x3fe6a09e667f3bcd
DATA gcSqrtHalf<>+16(SB)/8, $0x3fe6a09e667f3bcd
DATA gcSqrtHalf<>+24(SB)/8, $0x3fe6a09e667f3bcd
GLOBL gcSqrtHalf<>(SB), RODATA|NOPTR, $32
DATA gcLn2Hi<>+0(SB)/8, $0x3fe62e42fee00000
DATA gcLn2Hi<>+8(SB)/8, $0x3fe62e42fee00000
DATA gcLn2Hi<>+16(SB)/8, $0x3fe62e42fee00000
DATA gcLn2Hi<>+24(SB)/8, $0x3fe62e42fee00000
GLOBL gcLn2Hi<>(SB), RODATA|NOPTR, $32
DATA gcLn2Lo<>+0(SB)/8, $0x3dea39ef35793c76
DATA gcLn2Lo<>+8(SB)/8, $0x3dea39ef35793c76
DATA gcLn2Lo<>+16(SB)/8, $0x3dea39ef35793c76
DATA gcLn2Lo<>+24(SB)/8, $0x3dea39ef35793c76
GLOBL gcLn2Lo<>(SB), RODATA|NOPTR, $32
DATA gcL1<>+0(SB)/8, $0x3fe5555555555593
DATA gcL1<>+8(SB)/8, $0x3fe5555555555593
DATA gcL1<>+16(SB)/8, $0x3fe5555555555593
DATA gcL1<>+24(SB)/8, $0x3fe5555555555593
GLOBL gcL1<>(SB), RODATA|NOPTR, $32
DATA gcL2<>+0(SB)/8, $0x3fd999999997fa04
DATA gcL2<>+8(SB)/8, $0x3fd999999997fa04
DATA gcL2<>+16(SB)/8, $0x3fd999999997fa04
DATA gcL2<>+24(SB)/8, $0x3fd999999997fa04
GLOBL gcL2<>(SB), RODATA|NOPTR, $32
DATA gcL3<>+0(SB)/8, $0x3fd2492494229359
DATA gcL3<>+8(SB)/8, $0x3fd2492494229359
DATA gcL3<>+16(SB)/8, $0x3fd2492494229359
DATA gcL3<>+24(SB)/8, $0x3fd2492494229359
GLOBL gcL3<>(SB), RODATA|NOPTR, $32
DATA gcL4<>+0(SB)/8, $0x3fcc71c51d8e78af
DATA gcL4<>+8(SB)/8, $0x3fcc71c51d8e78af
DATA gcL4<>+16(SB)/8, $0x3fcc71c51d8e78af
DATA gcL4<>+24(SB)/8, $0x3fcc71c51d8e78af
GLOBL gcL4<>(SB), RODATA|NOPTR, $32
DATA gcL5<>+0(SB)/8, $0x3fc7466496cb03de
DATA gcL5<>+8(SB)/8, $0x3fc7466496cb03de
DATA gcL5<>+16(SB)/8, $0x3fc7466496cb03de
DATA gcL5<>+24(SB)/8, $0x3fc7466496cb03de
GLOBL gcL5<>(SB), RODATA|NOPTR, $32
DATA gcL6<>+0(SB)/8, $0x3fc39a09d078c69f
DATA gcL6<>+8(SB)/8, $0x3fc39a09d078c69f
DATA gcL6<>+16(SB)/8, $0x3fc39a09d078c69f
DATA gcL6<>+24(SB)/8, $0x3fc39a09d078c69f
GLOBL gcL6<>(SB), RODATA|NOPTR, $32
DATA gcL7<>+0(SB)/8, $0x3fc2f112df3e5244
DATA gcL7<>+8(SB)/8, $0x3fc2f112df3e5244
DATA gcL7<>+16(SB)/8, $0x3fc2f112df3e5244
DATA gcL7<>+24(SB)/8, $0x3fc2f112df3e5244
GLOBL gcL7<>(SB), RODATA|NOPTR, $32
DATA gcExpMin<>+0(SB)/8, $0xc087500000000000
DATA gcExpMin<>+8(SB)/8, $0xc087500000000000
DATA gcExpMin<>+16(SB)/8, $0xc087500000000000
DATA gcExpMin<>+24(SB)/8, $0xc087500000000000
GLOBL gcExpMin<>(SB), RODATA|NOPTR, $32
DATA gcLog2e<>+0(SB)/8, $0x3ff71547652b82fe
DATA gcLog2e<>+8(SB)/8, $0x3ff71547652b82fe
DATA gcLog2e<>+16(SB)/8, $0x3ff71547652b82fe
DATA gcLog2e<>+24(SB)/8, $0x3ff71547652b82fe
GLOBL gcLog2e<>(SB), RODATA|NOPTR, $32
DATA gcP1<>+0(SB)/8, $0x3fc5555555555555
DATA gcP1<>+8(SB)/8, $0x3fc5555555555555
DATA gcP1<>+16(SB)/8, $0x3fc5555555555555
DATA gcP1<>+24(SB)/8, $0x3fc5555555555555
GLOBL gcP1<>(SB), RODATA|NOPTR, $32
DATA gcP2<>+0(SB)/8, $0xbf66c16c16bebd93
DATA gcP2<>+8(SB)/8, $0xbf66c16c16bebd93
DATA gcP2<>+16(SB)/8, $0xbf66c16c16bebd93
DATA gcP2<>+24(SB)/8, $0xbf66c16c16bebd93
GLOBL gcP2<>(SB), RODATA|NOPTR, $32
DATA gcP3<>+0(SB)/8, $0x3f11566aaf25de2c
DATA gcP3<>+8(SB)/8, $0x3f11566aaf25de2c
DATA gcP3<>+16(SB)/8, $0x3f11566aaf25de2c
DATA gcP3<>+24(SB)/8, $0x3f11566aaf25de2c
GLOBL gcP3<>(SB), RODATA|NOPTR, $32
DATA gcP4<>+0(SB)/8, $0xbebbbd41c5d26bf1
DATA gcP4<>+8(SB)/8, $0xbebbbd41c5d26bf1
DATA gcP4<>+16(SB)/8, $0xbebbbd41c5d26bf1
DATA gcP4<>+24(SB)/8, $0xbebbbd41c5d26bf1
GLOBL gcP4<>(SB), RODATA|NOPTR, $32
DATA gcP5<>+0(SB)/8, $0x3e66376972bea4d0
DATA gcP5<>+8(SB)/8, $0x3e66376972bea4d0
DATA gcP5<>+16(SB)/8, $0x3e66376972bea4d0
DATA gcP5<>+24(SB)/8, $0x3e66376972bea4d0
GLOBL gcP5<>(SB), RODATA|NOPTR, $32
DATA gcExpBias<>+0(SB)/8, $0x43300000000003ff
DATA gcExpBias<>+8(SB)/8, $0x43300000000003ff
DATA gcExpBias<>+16(SB)/8, $0x43300000000003ff
DATA gcExpBias<>+24(SB)/8, $0x43300000000003ff
GLOBL gcExpBias<>(SB), RODATA|NOPTR, $32
DATA gcLog2Pi<>+0(SB)/8, $0x3ffd67f1c864beb4
DATA gcLog2Pi<>+8(SB)/8, $0x3ffd67f1c864beb4
DATA gcLog2Pi<>+16(SB)/8, $0x3ffd67f1c864beb4
DATA gcLog2Pi<>+24(SB)/8, $0x3ffd67f1c864beb4
GLOBL gcLog2Pi<>(SB), RODATA|NOPTR, $32
DATA gcSqrt2<>+0(SB)/8, $0x3ff6a09e667f3bcd
DATA gcSqrt2<>+8(SB)/8, $0x3ff6a09e667f3bcd
DATA gcSqrt2<>+16(SB)/8, $0x3ff6a09e667f3bcd
DATA gcSqrt2<>+24(SB)/8, $0x3ff6a09e667f3bcd
GLOBL gcSqrt2<>(SB), RODATA|NOPTR, $32
DATA gcLG0<>+0(SB)/8, $0xbfc0000000000000
DATA gcLG0<>+8(SB)/8, $0xbfc0000000000000
DATA gcLG0<>+16(SB)/8, $0xbfc0000000000000
DATA gcLG0<>+24(SB)/8, $0xbfc0000000000000
GLOBL gcLG0<>(SB), RODATA|NOPTR, $32
DATA gcLG1<>+0(SB)/8, $0x3f75555555555555
DATA gcLG1<>+8(SB)/8, $0x3f75555555555555
DATA gcLG1<>+16(SB)/8, $0x3f75555555555555
DATA gcLG1<>+24(SB)/8, $0x3f75555555555555
GLOBL gcLG1<>(SB), RODATA|NOPTR, $32
DATA gcLG2<>+0(SB)/8, $0xbf5999999999999a
DATA gcLG2<>+8(SB)/8, $0xbf5999999999999a
DATA gcLG2<>+16(SB)/8, $0xbf5999999999999a
DATA gcLG2<>+24(SB)/8, $0xbf5999999999999a
GLOBL gcLG2<>(SB), RODATA|NOPTR, $32
DATA gcLG3<>+0(SB)/8, $0x3f536db6db6db6db
DATA gcLG3<>+8(SB)/8, $0x3f536db6db6db6db
DATA gcLG3<>+16(SB)/8, $0x3f536db6db6db6db
DATA gcLG3<>+24(SB)/8, $0x3f536db6db6db6db
GLOBL gcLG3<>(SB), RODATA|NOPTR, $32
DATA gcLG4<>+0(SB)/8, $0xbf5b8e38e38e38e4
DATA gcLG4<>+8(SB)/8, $0xbf5b8e38e38e38e4
DATA gcLG4<>+16(SB)/8, $0xbf5b8e38e38e38e4
DATA gcLG4<>+24(SB)/8, $0xbf5b8e38e38e38e4
GLOBL gcLG4<>(SB), RODATA|NOPTR, $32
DATA gcLG5<>+0(SB)/8, $0x3f6f68ba2e8ba2e9
DATA gcLG5<>+8(SB)/8, $0x3f6f68ba2e8ba2e9
DATA gcLG5<>+16(SB)/8, $0x3f6f68ba2e8ba2e9
DATA gcLG5<>+24(SB)/8, $0x3f6f68ba2e8ba2e9
GLOBL gcLG5<>(SB), RODATA|NOPTR, $32
DATA gcLG6<>+0(SB)/8, $0xbf8a413b13b13b14
DATA gcLG6<>+8(SB)/8, $0xbf8a413b13b13b14
DATA gcLG6<>+16(SB)/8, $0xbf8a413b13b13b14
DATA gcLG6<>+24(SB)/8, $0xbf8a413b13b13b14
GLOBL gcLG6<>(SB), RODATA|NOPTR, $32
DATA gcLG7<>+0(SB)/8, $0x3fae426888888889
DATA gcLG7<>+8(SB)/8, $0x3fae426888888889
DATA gcLG7<>+16(SB)/8, $0x3fae426888888889
DATA gcLG7<>+24(SB)/8, $0x3fae426888888889
GLOBL gcLG7<>(SB), RODATA|NOPTR, $32
DATA gcDG0<>+0(SB)/8, $0x3fc0000000000000
DATA gcDG0<>+8(SB)/8, $0x3fc0000000000000
DATA gcDG0<>+16(SB)/8, $0x3fc0000000000000
DATA gcDG0<>+24(SB)/8, $0x3fc0000000000000
GLOBL gcDG0<>(SB), RODATA|NOPTR, $32
DATA gcDG1<>+0(SB)/8, $0xbf90000000000000
DATA gcDG1<>+8(SB)/8, $0xbf90000000000000
DATA gcDG1<>+16(SB)/8, $0xbf90000000000000
DATA gcDG1<>+24(SB)/8, $0xbf90000000000000
GLOBL gcDG1<>(SB), RODATA|NOPTR, $32
DATA gcDG2<>+0(SB)/8, $0x3f80000000000000
DATA gcDG2<>+8(SB)/8, $0x3f80000000000000
DATA gcDG2<>+16(SB)/8, $0x3f80000000000000
DATA gcDG2<>+24(SB)/8, $0x3f80000000000000
GLOBL gcDG2<>(SB), RODATA|NOPTR, $32
DATA gcDG3<>+0(SB)/8, $0xbf81000000000000
DATA gcDG3<>+8(SB)/8, $0xbf81000000000000
DATA gcDG3<>+16(SB)/8, $0xbf81000000000000
DATA gcDG3<>+24(SB)/8, $0xbf81000000000000
GLOBL gcDG3<>(SB), RODATA|NOPTR, $32
DATA gcDG4<>+0(SB)/8, $0x3f8f000000000000
DATA gcDG4<>+8(SB)/8, $0x3f8f000000000000
DATA gcDG4<>+16(SB)/8, $0x3f8f000000000000
DATA gcDG4<>+24(SB)/8, $0x3f8f000000000000
GLOBL gcDG4<>(SB), RODATA|NOPTR, $32
DATA gcDG5<>+0(SB)/8, $0xbfa5980000000000
DATA gcDG5<>+8(SB)/8, $0xbfa5980000000000
DATA gcDG5<>+16(SB)/8, $0xbfa5980000000000
DATA gcDG5<>+24(SB)/8, $0xbfa5980000000000
GLOBL gcDG5<>(SB), RODATA|NOPTR, $32
DATA gcDG6<>+0(SB)/8, $0x3fc5550000000000
DATA gcDG6<>+8(SB)/8, $0x3fc5550000000000
DATA gcDG6<>+16(SB)/8, $0x3fc5550000000000
DATA gcDG6<>+24(SB)/8, $0x3fc5550000000000
GLOBL gcDG6<>(SB), RODATA|NOPTR, $32
DATA gcDG7<>+0(SB)/8, $0xbfec5e4200000000
DATA gcDG7<>+8(SB)/8, $0xbfec5e4200000000
DATA gcDG7<>+16(SB)/8, $0xbfec5e4200000000
DATA gcDG7<>+24(SB)/8, $0xbfec5e4200000000
GLOBL gcDG7<>(SB), RODATA|NOPTR, $32
DATA gcDG8<>+0(SB)/8, $0x40186e7980000000
DATA gcDG8<>+8(SB)/8, $0x40186e7980000000
DATA gcDG8<>+16(SB)/8, $0x40186e7980000000
DATA gcDG8<>+24(SB)/8, $0x40186e7980000000
GLOBL gcDG8<>(SB), RODATA|NOPTR, $32
DATA gcDG9<>+0(SB)/8, $0xc04a74c8aa000000
DATA gcDG9<>+8(SB)/8, $0xc04a74c8aa000000
DATA gcDG9<>+16(SB)/8, $0xc04a74c8aa000000
DATA gcDG9<>+24(SB)/8, $0xc04a74c8aa000000
GLOBL gcDG9<>(SB), RODATA|NOPTR, $32

// GL_LOG sets Y0 = ln(Y0), as fdlibm's log (Go's math.log): x = f1·2^k with
// f1 in [√½, √2), s = f/(2+f) for f = f1−1, and a minimax polynomial in s²;
// subnormals are scaled by 2^54 first. ln(±0) = −Inf, ln(+Inf) = +Inf and
// ln(x < 0) = ln(NaN) = NaN. Clobbers Y1–Y7.
#define GL_LOG \
	VCMPPD $0x11, gcTiny<>(SB), Y0, Y1; \
	VMULPD gcTwo54<>(SB), Y0, Y2; \
	VBLENDVPD Y1, Y2, Y0, Y2; \
	VANDPD gc54<>(SB), Y1, Y3; \
	VPSRLQ $52, Y2, Y4; \
	VPOR gcExpMagic<>(SB), Y4, Y4; \
	VSUBPD gcTwo52<>(SB), Y4, Y4; \
	VSUBPD gc1022<>(SB), Y4, Y4; \
	VSUBPD Y3, Y4, Y4; \
	VANDPD gcMant<>(SB), Y2, Y5; \
	VORPD gcHalf<>(SB), Y5, Y5; \
	VCMPPD $0x11, gcSqrtHalf<>(SB), Y5, Y6; \
	VADDPD Y5, Y5, Y7; \
	VBLENDVPD Y6, Y7, Y5, Y5; \
	VANDPD gcOne<>(SB), Y6, Y7; \
	VSUBPD Y7, Y4, Y4; \
	VSUBPD gcOne<>(SB), Y5, Y5; \
	VADDPD gcTwo<>(SB), Y5, Y6; \
	VDIVPD Y6, Y5, Y6; \
	VMULPD Y6, Y6, Y7; \
	VMULPD Y7, Y7, Y3; \
	VMOVUPD gcL7<>(SB), Y1; \
	VFMADD213PD gcL5<>(SB), Y3, Y1; \
	VFMADD213PD gcL3<>(SB), Y3, Y1; \
	VFMADD213PD gcL1<>(SB), Y3, Y1; \
	VMULPD Y7, Y1, Y1; \
	VMOVUPD gcL6<>(SB), Y2; \
	VFMADD213PD gcL4<>(SB), Y3, Y2; \
	VFMADD213PD gcL2<>(SB), Y3, Y2; \
	VMULPD Y3, Y2, Y2; \
	VADDPD Y2, Y1, Y1; \
	VMULPD Y5, Y5, Y2; \
	VMULPD gcHalf<>(SB), Y2, Y2; \
	VADDPD Y2, Y1, Y1; \
	VMULPD Y6, Y1, Y1; \
	VMULPD gcLn2Lo<>(SB), Y4, Y3; \
	VADDPD Y3, Y1, Y1; \
	VSUBPD Y1, Y2, Y2; \
	VSUBPD Y5, Y2, Y2; \
	VMULPD gcLn2Hi<>(SB), Y4, Y4; \
	VSUBPD Y2, Y4, Y4; \
	VXORPD Y1, Y1, Y1; \
	VCMPPD $0x00, Y1, Y0, Y2; \
	VBLENDVPD Y2, gcNegInf<>(SB), Y4, Y4; \
	VCMPPD $0x00, gcInf<>(SB), Y0, Y2; \
	VBLENDVPD Y2, gcInf<>(SB), Y4, Y4; \
	VCMPPD $0x19, Y1, Y0, Y2; \
	VBLENDVPD Y2, gcNaN<>(SB), Y4, Y0

// GL_LOG1P sets Y0 = ln(1+Y0) for Y0 ≥ 0 (or NaN): with w = 1+x rounded,
// ln(1+x) = ln w + (x − (w−1))/w, where x − (w−1) is the exact rounding
// error of w (Goldberg), so tiny x keep full relative accuracy. Not for
// x = +Inf (NaN). Clobbers Y1–Y9.
#define GL_LOG1P \
	VMOVAPD Y0, Y8; \
	VADDPD gcOne<>(SB), Y0, Y9; \
	VMOVAPD Y9, Y0; \
	GL_LOG; \
	VSUBPD gcOne<>(SB), Y9, Y1; \
	VSUBPD Y1, Y8, Y1; \
	VDIVPD Y9, Y1, Y1; \
	VADDPD Y1, Y0, Y0

// GL_EXPNEG sets Y0 = exp(Y0) for Y0 ≤ 0 (or NaN), as fdlibm's exp (Go's
// math.expmulti): k = round(x/ln 2), r = x − k·ln 2 in two parts, a rational
// approximation of exp(r), and the scaling by 2^k done as 2^⌊k/2⌋·2^(k−⌊k/2⌋)
// so that subnormal results round once. x < −746 (−Inf included) gives 0.
// Clobbers Y1–Y7.
#define GL_EXPNEG \
	VMOVUPD gcExpMin<>(SB), Y1; \
	VMAXPD Y0, Y1, Y0; \
	VMULPD gcLog2e<>(SB), Y0, Y1; \
	VROUNDPD $0, Y1, Y1; \
	VMULPD gcLn2Hi<>(SB), Y1, Y2; \
	VSUBPD Y2, Y0, Y2; \
	VMULPD gcLn2Lo<>(SB), Y1, Y3; \
	VSUBPD Y3, Y2, Y4; \
	VMULPD Y4, Y4, Y5; \
	VMOVUPD gcP5<>(SB), Y6; \
	VFMADD213PD gcP4<>(SB), Y5, Y6; \
	VFMADD213PD gcP3<>(SB), Y5, Y6; \
	VFMADD213PD gcP2<>(SB), Y5, Y6; \
	VFMADD213PD gcP1<>(SB), Y5, Y6; \
	VMULPD Y5, Y6, Y6; \
	VSUBPD Y6, Y4, Y6; \
	VMULPD Y6, Y4, Y7; \
	VMOVUPD gcTwo<>(SB), Y5; \
	VSUBPD Y6, Y5, Y5; \
	VDIVPD Y5, Y7, Y7; \
	VSUBPD Y7, Y3, Y3; \
	VSUBPD Y2, Y3, Y3; \
	VMOVUPD gcOne<>(SB), Y5; \
	VSUBPD Y3, Y5, Y5; \
	VMULPD gcHalf<>(SB), Y1, Y2; \
	VROUNDPD $1, Y2, Y2; \
	VSUBPD Y2, Y1, Y3; \
	VADDPD gcExpBias<>(SB), Y2, Y2; \
	VPSLLQ $52, Y2, Y2; \
	VADDPD gcExpBias<>(SB), Y3, Y3; \
	VPSLLQ $52, Y3, Y3; \
	VMULPD Y2, Y5, Y5; \
	VMULPD Y3, Y5, Y0

// GL_SOFTPLUS_EXP and GL_SOFTPLUS_LOG set Y0 = softplus(Y10) = ln(1+e^z)
// as special.go's softplus: z + ln(1+e^−z) for z > 0, ln(1+e^z) otherwise,
// both written ln(1+e) + (z > 0 ? z : 0) with e = e^−|z| ≤ 1, which
// cannot overflow. GL_SOFTPLUS_EXP leaves e in Y0 (gcpLossF64 builds the
// sigmoid from it) and clobbers Y1–Y7; GL_SOFTPLUS_LOG takes e in Y0 and
// clobbers Y1–Y9 and Y15. Y10 is kept. softplus(+Inf) = +Inf,
// softplus(−Inf) = 0 and softplus(NaN) = NaN.
#define GL_SOFTPLUS_EXP \
	VORPD gcSign<>(SB), Y10, Y0; \
	GL_EXPNEG

#define GL_SOFTPLUS_LOG \
	GL_LOG1P; \
	VADDPD Y10, Y0, Y1; \
	VXORPD Y15, Y15, Y15; \
	VCMPPD $0x1e, Y15, Y10, Y15; \
	VBLENDVPD Y15, Y1, Y0, Y0

// gcpLossF64: four samples per iteration in the lanes of a YMM; every
// intermediate vector lives in a slot of the caller's scratch buffer tmp
// (GC_* offsets from BX), as the special functions need all sixteen
// registers. See gcpLossF64 in simd_amd64.go for the reference loop.

#define GC_ZM 0(BX)
#define GC_ZA 32(BX)
#define GC_ZB 64(BX)
#define GC_ZN 96(BX)
#define GC_Y 128(BX)
#define GC_SIGA 160(BX)
#define GC_SIGB 192(BX)
#define GC_SIGN 224(BX)
#define GC_ALPHA 256(BX)
#define GC_BETA 288(BX)
#define GC_NU 320(BX)
#define GC_VALID 352(BX)
#define GC_SIGMA 384(BX)
#define GC_T 416(BX)
#define GC_U 448(BX)
#define GC_W 480(BX)
#define GC_V 512(BX)
#define GC_TW 544(BX)
#define GC_L1PU 576(BX)
#define GC_LOGSIG 608(BX)
#define GC_LGHS 640(BX)
#define GC_PSIH 672(BX)
#define GC_FA 704(BX)
#define GC_SC 736(BX)
#define GC_SUM 768(BX)
#define GC_NUM 800(BX)
#define GC_DEN 832(BX)
#define GC_Z 864(BX)
#define GC_LB 896(BX)
#define GC_LX 928(BX)
#define GC_TMP 960(BX)

// func gcpLossF64(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64, tmp *float64) float64
TEXT ·gcpLossF64(SB), NOSPLIT, $0-112
	MOVQ n+0(FP), CX
	SHLQ $3, CX // bytes
	MOVQ zm+8(FP), SI
	MOVQ za+16(FP), DI
	MOVQ zb+24(FP), R8
	MOVQ zn+32(FP), R9
	MOVQ y+40(FP), R10
	MOVQ gm+48(FP), R11
	MOVQ ga+56(FP), R12
	MOVQ gb+64(FP), R13
	MOVQ gn+72(FP), R14
	MOVQ tmp+96(FP), BX
	VBROADCASTSD fixedAlpha+80(FP), Y0
	VMOVUPD Y0, GC_FA
	VBROADCASTSD scale+88(FP), Y0
	VMOVUPD Y0, GC_SC
	VXORPD Y0, Y0, Y0
	VMOVUPD Y0, GC_SUM
	XORQ AX, AX

gcpLossF64_loop:
	CMPQ AX, CX
	JGE  gcpLossF64_done
	VMOVUPD (SI)(AX*1), Y0
	VMOVUPD Y0, GC_ZM
	VMOVUPD (R10)(AX*1), Y0
	VMOVUPD Y0, GC_Y
	// β = softplus(zb), σ(zb)
	VMOVUPD (R8)(AX*1), Y10
	VMOVUPD Y10, 64(BX)
	GL_SOFTPLUS_EXP
	VMOVAPD Y0, Y11 // e
	VADDPD gcOne<>(SB), Y0, Y12 // 1 + e
	VDIVPD Y12, Y11, Y13 // e/(1+e)
	VMOVUPD gcOne<>(SB), Y14
	VDIVPD Y12, Y14, Y14 // 1/(1+e)
	VXORPD Y15, Y15, Y15
	VCMPPD $0x1d, Y15, Y10, Y15 // z ≥ 0 (GE_OQ)
	VBLENDVPD Y15, Y14, Y13, Y13
	VMOVUPD Y13, 192(BX)
	GL_SOFTPLUS_LOG
	VMOVUPD Y0, 288(BX)
	// ν = softplus(zn), σ(zn)
	VMOVUPD (R9)(AX*1), Y10
	VMOVUPD Y10, 96(BX)
	GL_SOFTPLUS_EXP
	VMOVAPD Y0, Y11 // e
	VADDPD gcOne<>(SB), Y0, Y12 // 1 + e
	VDIVPD Y12, Y11, Y13 // e/(1+e)
	VMOVUPD gcOne<>(SB), Y14
	VDIVPD Y12, Y14, Y14 // 1/(1+e)
	VXORPD Y15, Y15, Y15
	VCMPPD $0x1d, Y15, Y10, Y15 // z ≥ 0 (GE_OQ)
	VBLENDVPD Y15, Y14, Y13, Y13
	VMOVUPD Y13, 224(BX)
	GL_SOFTPLUS_LOG
	VMOVUPD Y0, 320(BX)
	VMOVUPD GC_FA, Y0
	VMOVUPD Y0, GC_ALPHA
	VXORPD Y0, Y0, Y0
	VMOVUPD Y0, GC_SIGA
	MOVQ fixedAlpha+80(FP), DX
	TESTQ DX, DX // +0: α is learned (the Go wrapper maps −0 to +0)
	JNZ gcpLossF64_fixed
	// α = 1 + softplus(za), σ(za)
	VMOVUPD (DI)(AX*1), Y10
	VMOVUPD Y10, 32(BX)
	GL_SOFTPLUS_EXP
	VMOVAPD Y0, Y11 // e
	VADDPD gcOne<>(SB), Y0, Y12 // 1 + e
	VDIVPD Y12, Y11, Y13 // e/(1+e)
	VMOVUPD gcOne<>(SB), Y14
	VDIVPD Y12, Y14, Y14 // 1/(1+e)
	VXORPD Y15, Y15, Y15
	VCMPPD $0x1d, Y15, Y10, Y15 // z ≥ 0 (GE_OQ)
	VBLENDVPD Y15, Y14, Y13, Y13
	VMOVUPD Y13, 160(BX)
	GL_SOFTPLUS_LOG
	VADDPD gcOne<>(SB), Y0, Y0 // α = 1 + softplus
	VMOVUPD Y0, 256(BX)

gcpLossF64_fixed:
	// valid = ν > 0 && α > 0 && β > 0 (false for NaN)
	VXORPD Y1, Y1, Y1
	VMOVUPD GC_NU, Y10
	VMOVUPD GC_ALPHA, Y11
	VMOVUPD GC_BETA, Y12
	VCMPPD $0x1e, Y1, Y10, Y2
	VCMPPD $0x1e, Y1, Y11, Y3
	VCMPPD $0x1e, Y1, Y12, Y4
	VANDPD Y3, Y2, Y2
	VANDPD Y4, Y2, Y2
	VMOVUPD Y2, GC_VALID
	// σ = β(1 + 1/ν); s = √(2σ)
	VMOVUPD gcOne<>(SB), Y13
	VDIVPD Y10, Y13, Y13
	VADDPD gcOne<>(SB), Y13, Y13
	VMULPD Y13, Y12, Y13
	VMOVUPD Y13, GC_SIGMA
	VADDPD Y13, Y13, Y14
	VSQRTPD Y14, Y14
	// t = (y−m)/s, 0 when y = m, y/s − m/s when (y−m)/s is NaN
	VMOVUPD GC_Y, Y0
	VMOVUPD GC_ZM, Y1
	VSUBPD Y1, Y0, Y2 // r
	VDIVPD Y14, Y2, Y3 // r/s
	VDIVPD Y14, Y0, Y4
	VDIVPD Y14, Y1, Y5
	VSUBPD Y5, Y4, Y4 // y/s − m/s
	VCMPPD $0x03, Y3, Y3, Y5 // isNaN(r/s)
	VBLENDVPD Y5, Y4, Y3, Y3
	VXORPD Y6, Y6, Y6
	VCMPPD $0x00, Y6, Y2, Y5 // r == 0
	VBLENDVPD Y5, Y6, Y3, Y3 // t
	VMOVUPD Y3, GC_T
	VMULPD Y3, Y3, Y4 // u
	VMOVUPD Y4, GC_U
	// w = 1/(1+u); u ≤ 1: v = u·w, tw = t·w; else v = 1/(1+1/u), tw = 1/(t+1/t)
	VMOVUPD gcOne<>(SB), Y7
	VADDPD Y7, Y4, Y5
	VDIVPD Y5, Y7, Y5 // w
	VMOVUPD Y5, GC_W
	VMULPD Y5, Y4, Y8 // u·w
	VMULPD Y5, Y3, Y9 // t·w
	VDIVPD Y4, Y7, Y10
	VADDPD Y7, Y10, Y10
	VDIVPD Y10, Y7, Y10 // 1/(1+1/u)
	VDIVPD Y3, Y7, Y11
	VADDPD Y3, Y11, Y11
	VDIVPD Y11, Y7, Y11 // 1/(t+1/t)
	VCMPPD $0x12, Y7, Y4, Y12 // u ≤ 1 (LE_OQ)
	VBLENDVPD Y12, Y8, Y10, Y10
	VMOVUPD Y10, GC_V
	VBLENDVPD Y12, Y9, Y11, Y11
	VMOVUPD Y11, GC_TW
	// ln(1+u), or 2·ln|t| where u overflowed
	VMOVAPD Y4, Y0
	GL_LOG1P
	VMOVUPD Y0, GC_L1PU
	VMOVUPD GC_U, Y1
	VCMPPD $0x00, gcInf<>(SB), Y1, Y1
	VMOVMSKPD Y1, DX
	TESTQ DX, DX
	JZ gcpLossF64_finiteu
	VMOVUPD GC_T, Y0
	VANDPD gcAbs<>(SB), Y0, Y0
	GL_LOG
	VADDPD Y0, Y0, Y0
	VMOVUPD GC_U, Y1
	VCMPPD $0x00, gcInf<>(SB), Y1, Y1
	VMOVUPD GC_L1PU, Y2
	VBLENDVPD Y1, Y0, Y2, Y2
	VMOVUPD Y2, GC_L1PU

gcpLossF64_finiteu:
	// ln σ = ln β + ln(1 + 1/ν) for ν ≥ 1, ln β + ln(1+ν) − ln ν below
	VMOVUPD GC_BETA, Y0
	GL_LOG
	VMOVUPD Y0, GC_LB
	VMOVUPD GC_NU, Y10
	VMOVUPD gcOne<>(SB), Y11
	VDIVPD Y10, Y11, Y12 // 1/ν
	VCMPPD $0x1d, Y11, Y10, Y13 // ν ≥ 1
	VBLENDVPD Y13, Y12, Y10, Y0
	GL_LOG1P
	VMOVUPD Y0, GC_LX
	VMOVUPD GC_NU, Y0
	GL_LOG
	VMOVUPD GC_NU, Y10
	VCMPPD $0x1d, gcOne<>(SB), Y10, Y13
	VXORPD Y1, Y1, Y1
	VBLENDVPD Y13, Y1, Y0, Y0 // ν ≥ 1: 0
	VMOVUPD GC_LB, Y1
	VADDPD GC_LX, Y1, Y1
	VSUBPD Y0, Y1, Y1
	VMOVUPD Y1, GC_LOGSIG
	// lnΓ(α+½) − lnΓ(α): z = α ≥ 10 gives the series alone; below, z = α+1 is
	// stepped up to 10 with num/den = Π (α+k+½)/(α+k), as in lgammaHalfStep:
	// series(z) − ln(num/den) + ln α. At most nine steps for α > 0.
	VMOVUPD GC_ALPHA, Y10
	VMOVUPD gcOne<>(SB), Y11
	VADDPD Y11, Y10, Y12 // α + 1
	VCMPPD $0x1d, gcTen<>(SB), Y10, Y13 // α ≥ 10
	VBLENDVPD Y13, Y10, Y12, Y12 // z
	VADDPD gcHalf<>(SB), Y10, Y14 // num = α + ½
	VMOVAPD Y11, Y15 // den = 1
	MOVQ $9, DX

gcpLossF64_lgstep:
	VCMPPD $0x11, gcTen<>(SB), Y12, Y1 // z < 10
	VTESTPD Y1, Y1
	JZ gcpLossF64_lgdone
	VADDPD gcHalf<>(SB), Y12, Y2
	VMULPD Y2, Y14, Y2
	VBLENDVPD Y1, Y2, Y14, Y14 // num *= z + ½
	VMULPD Y12, Y15, Y2
	VBLENDVPD Y1, Y2, Y15, Y15 // den *= z
	VANDPD Y11, Y1, Y2
	VADDPD Y2, Y12, Y12 // z++
	DECQ DX
	JNZ gcpLossF64_lgstep

gcpLossF64_lgdone:
	VMOVUPD Y12, GC_Z
	VMOVUPD Y14, GC_NUM
	VMOVUPD Y15, GC_DEN
	VMOVAPD Y12, Y0
	GL_LOG
	VMULPD gcHalf<>(SB), Y0, Y10 // ½ ln z
	VMOVUPD GC_Z, Y12
	VMOVUPD gcOne<>(SB), Y11
	VDIVPD Y12, Y11, Y11 // r = 1/z
	VMULPD Y11, Y11, Y12 // r²
	VMOVUPD gcLG7<>(SB), Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG6<>(SB), Y13, Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG5<>(SB), Y13, Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG4<>(SB), Y13, Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG3<>(SB), Y13, Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG2<>(SB), Y13, Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG1<>(SB), Y13, Y13
	VMULPD Y12, Y13, Y13
	VADDPD gcLG0<>(SB), Y13, Y13
	VMULPD Y13, Y11, Y13
	VADDPD Y13, Y10, Y10 // series(z)
	VMOVUPD Y10, GC_LGHS
	VMOVUPD GC_NUM, Y0
	VDIVPD GC_DEN, Y0, Y0
	GL_LOG
	VMOVUPD GC_LGHS, Y10
	VSUBPD Y0, Y10, Y10 // − ln(num/den)
	VMOVUPD Y10, GC_TMP
	VMOVUPD GC_ALPHA, Y0
	GL_LOG
	VMOVUPD GC_TMP, Y10
	VADDPD Y0, Y10, Y10 // + ln α
	VMOVUPD GC_ALPHA, Y1
	VCMPPD $0x1d, gcTen<>(SB), Y1, Y1
	VBLENDVPD Y1, GC_LGHS, Y10, Y10
	VMOVUPD Y10, GC_LGHS
	// ψ(α+½) − ψ(α): z = α stepped up to 10 with num/den = Σ 1/(z(2z+1)),
	// then 1/(2z) + u·P(u) + num/den, u = 1/z², as digammaHalfStep. At most
	// ten steps for α > 0.
	VMOVUPD GC_ALPHA, Y12 // z
	VXORPD Y14, Y14, Y14 // num = 0
	VMOVUPD gcOne<>(SB), Y15 // den = 1
	VMOVUPD gcOne<>(SB), Y11
	MOVQ $10, DX

gcpLossF64_psistep:
	VCMPPD $0x11, gcTen<>(SB), Y12, Y1
	VTESTPD Y1, Y1
	JZ gcpLossF64_psidone
	VADDPD Y12, Y12, Y2
	VADDPD Y11, Y2, Y2
	VMULPD Y2, Y12, Y2 // d = z(2z+1)
	VMULPD Y2, Y14, Y3
	VADDPD Y15, Y3, Y3 // num·d + den
	VBLENDVPD Y1, Y3, Y14, Y14
	VMULPD Y2, Y15, Y3
	VBLENDVPD Y1, Y3, Y15, Y15 // den *= d
	VANDPD Y11, Y1, Y2
	VADDPD Y2, Y12, Y12
	DECQ DX
	JNZ gcpLossF64_psistep

gcpLossF64_psidone:
	VMULPD Y12, Y12, Y2
	VDIVPD Y2, Y11, Y2 // u = 1/z²
	VMOVUPD gcDG9<>(SB), Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG8<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG7<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG6<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG5<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG4<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG3<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG2<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG1<>(SB), Y3, Y3
	VMULPD Y2, Y3, Y3
	VADDPD gcDG0<>(SB), Y3, Y3
	VMULPD Y3, Y2, Y3 // u·P(u)
	VMOVUPD gcHalf<>(SB), Y4
	VDIVPD Y12, Y4, Y4 // 0.5/z
	VADDPD Y3, Y4, Y4
	VDIVPD Y15, Y14, Y5 // num/den
	VADDPD Y5, Y4, Y4
	VMOVUPD Y4, GC_PSIH
	// nll = −[lnΓ ratio − ½(ln 2π + ln σ) − (α+½)·ln(1+u)]
	VMOVUPD GC_ALPHA, Y10
	VADDPD gcHalf<>(SB), Y10, Y11 // α + ½
	VMOVUPD GC_LOGSIG, Y0
	VADDPD gcLog2Pi<>(SB), Y0, Y0
	VMULPD gcHalf<>(SB), Y0, Y0
	VMOVUPD GC_LGHS, Y1
	VSUBPD Y0, Y1, Y1
	VMOVUPD GC_L1PU, Y2
	VMULPD Y2, Y11, Y3
	VSUBPD Y3, Y1, Y1 // ln p
	VXORPD gcSign<>(SB), Y1, Y12 // nll = −ln p
	// dα = ln(1+u) − [ψ(α+½) − ψ(α)]
	VSUBPD GC_PSIH, Y2, Y13
	// dm = −(α+½)·(tw·(√2/√σ))
	VMOVUPD GC_SIGMA, Y0
	VSQRTPD Y0, Y0
	VMOVUPD gcSqrt2<>(SB), Y1
	VDIVPD Y0, Y1, Y1
	VMULPD GC_TW, Y1, Y1
	VXORPD gcSign<>(SB), Y11, Y2 // −(α+½)
	VMULPD Y1, Y2, Y14 // dm
	// g = ½w − α·v; dβ = g/β; dν = −g/(ν(ν+1))
	VMOVUPD GC_W, Y0
	VMULPD gcHalf<>(SB), Y0, Y0
	VMULPD GC_V, Y10, Y1
	VSUBPD Y1, Y0, Y0 // g
	VDIVPD GC_BETA, Y0, Y15 // dβ
	VMOVUPD GC_NU, Y1
	VADDPD gcOne<>(SB), Y1, Y2
	VMULPD Y2, Y1, Y1
	VXORPD gcSign<>(SB), Y0, Y0 // −g
	VDIVPD Y1, Y0, Y0 // dν
	// chain through the links, scale, and NaN for an invalid prior
	VMOVUPD GC_SC, Y5
	VMOVUPD GC_VALID, Y6
	VMOVUPD gcNaN<>(SB), Y7
	VMULPD GC_SIGN, Y0, Y0
	VMULPD Y0, Y5, Y0
	VBLENDVPD Y6, Y0, Y7, Y0
	VMOVUPD Y0, (R14)(AX*1)
	VMULPD GC_SIGB, Y15, Y15
	VMULPD Y15, Y5, Y15
	VBLENDVPD Y6, Y15, Y7, Y15
	VMOVUPD Y15, (R13)(AX*1)
	VMULPD Y14, Y5, Y14
	VBLENDVPD Y6, Y14, Y7, Y14
	VMOVUPD Y14, (R11)(AX*1)
	VBLENDVPD Y6, Y12, Y7, Y12
	VADDPD GC_SUM, Y12, Y12
	VMOVUPD Y12, GC_SUM
	MOVQ fixedAlpha+80(FP), DX
	TESTQ DX, DX
	JNZ gcpLossF64_next
	VMULPD GC_SIGA, Y13, Y13
	VMULPD Y13, Y5, Y13
	VBLENDVPD Y6, Y13, Y7, Y13
	VMOVUPD Y13, (R12)(AX*1)

gcpLossF64_next:
	ADDQ $32, AX
	JMP gcpLossF64_loop

gcpLossF64_done:
	VMOVUPD GC_SUM, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, ret+104(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// softplusF32 and softplusF64: the softplus link, four elements per
// iteration, written as float64. softplusF64 computes in float64 with the
// vector exp and log of gcpLossF64 (GL_SOFTPLUS_EXP, GL_SOFTPLUS_LOG).
// softplusF32 computes a float32 model's link in float32 (SP32_LINK),
// whose chain of dependent operations is about half as long, since one
// row's prediction waits for it. The last n mod 4 elements are gathered
// into a vector and stored from it one at a time: a single row's three
// links are read right after the output layer has stored them one by one,
// and a load spanning several stores cannot take their values from the
// store queue (store-to-load forwarding) but waits until they retire,
// which keeps predictions from overlapping.

// Constants of SP32_LINK, four float32 each (Bias is the int32 127): the
// Cephes expf polynomial and reduction (P0–P5, C1 + C2 = ln 2), fdlibm's
// logf polynomial and ln 2 in two parts (Lg1–Lg4, Ln2Hi, Ln2Lo).
DATA sp32Sign<>+0(SB)/4, $0x80000000
DATA sp32Sign<>+4(SB)/4, $0x80000000
DATA sp32Sign<>+8(SB)/4, $0x80000000
DATA sp32Sign<>+12(SB)/4, $0x80000000
GLOBL sp32Sign<>(SB), RODATA|NOPTR, $16
DATA sp32Min<>+0(SB)/4, $0xc43e0000
DATA sp32Min<>+4(SB)/4, $0xc43e0000
DATA sp32Min<>+8(SB)/4, $0xc43e0000
DATA sp32Min<>+12(SB)/4, $0xc43e0000
GLOBL sp32Min<>(SB), RODATA|NOPTR, $16
DATA sp32Log2e<>+0(SB)/4, $0x3fb8aa3b
DATA sp32Log2e<>+4(SB)/4, $0x3fb8aa3b
DATA sp32Log2e<>+8(SB)/4, $0x3fb8aa3b
DATA sp32Log2e<>+12(SB)/4, $0x3fb8aa3b
GLOBL sp32Log2e<>(SB), RODATA|NOPTR, $16
DATA sp32C1<>+0(SB)/4, $0x3f318000
DATA sp32C1<>+4(SB)/4, $0x3f318000
DATA sp32C1<>+8(SB)/4, $0x3f318000
DATA sp32C1<>+12(SB)/4, $0x3f318000
GLOBL sp32C1<>(SB), RODATA|NOPTR, $16
DATA sp32C2<>+0(SB)/4, $0xb95e8083
DATA sp32C2<>+4(SB)/4, $0xb95e8083
DATA sp32C2<>+8(SB)/4, $0xb95e8083
DATA sp32C2<>+12(SB)/4, $0xb95e8083
GLOBL sp32C2<>(SB), RODATA|NOPTR, $16
DATA sp32P0<>+0(SB)/4, $0x39506967
DATA sp32P0<>+4(SB)/4, $0x39506967
DATA sp32P0<>+8(SB)/4, $0x39506967
DATA sp32P0<>+12(SB)/4, $0x39506967
GLOBL sp32P0<>(SB), RODATA|NOPTR, $16
DATA sp32P1<>+0(SB)/4, $0x3ab743ce
DATA sp32P1<>+4(SB)/4, $0x3ab743ce
DATA sp32P1<>+8(SB)/4, $0x3ab743ce
DATA sp32P1<>+12(SB)/4, $0x3ab743ce
GLOBL sp32P1<>(SB), RODATA|NOPTR, $16
DATA sp32P2<>+0(SB)/4, $0x3c088908
DATA sp32P2<>+4(SB)/4, $0x3c088908
DATA sp32P2<>+8(SB)/4, $0x3c088908
DATA sp32P2<>+12(SB)/4, $0x3c088908
GLOBL sp32P2<>(SB), RODATA|NOPTR, $16
DATA sp32P3<>+0(SB)/4, $0x3d2aa9c1
DATA sp32P3<>+4(SB)/4, $0x3d2aa9c1
DATA sp32P3<>+8(SB)/4, $0x3d2aa9c1
DATA sp32P3<>+12(SB)/4, $0x3d2aa9c1
GLOBL sp32P3<>(SB), RODATA|NOPTR, $16
DATA sp32P4<>+0(SB)/4, $0x3e2aaaaa
DATA sp32P4<>+4(SB)/4, $0x3e2aaaaa
DATA sp32P4<>+8(SB)/4, $0x3e2aaaaa
DATA sp32P4<>+12(SB)/4, $0x3e2aaaaa
GLOBL sp32P4<>(SB), RODATA|NOPTR, $16
DATA sp32P5<>+0(SB)/4, $0x3f000000
DATA sp32P5<>+4(SB)/4, $0x3f000000
DATA sp32P5<>+8(SB)/4, $0x3f000000
DATA sp32P5<>+12(SB)/4, $0x3f000000
GLOBL sp32P5<>(SB), RODATA|NOPTR, $16
DATA sp32One<>+0(SB)/4, $0x3f800000
DATA sp32One<>+4(SB)/4, $0x3f800000
DATA sp32One<>+8(SB)/4, $0x3f800000
DATA sp32One<>+12(SB)/4, $0x3f800000
GLOBL sp32One<>(SB), RODATA|NOPTR, $16
DATA sp32Half<>+0(SB)/4, $0x3f000000
DATA sp32Half<>+4(SB)/4, $0x3f000000
DATA sp32Half<>+8(SB)/4, $0x3f000000
DATA sp32Half<>+12(SB)/4, $0x3f000000
GLOBL sp32Half<>(SB), RODATA|NOPTR, $16
DATA sp32Two<>+0(SB)/4, $0x40000000
DATA sp32Two<>+4(SB)/4, $0x40000000
DATA sp32Two<>+8(SB)/4, $0x40000000
DATA sp32Two<>+12(SB)/4, $0x40000000
GLOBL sp32Two<>(SB), RODATA|NOPTR, $16
DATA sp32Sqrt2<>+0(SB)/4, $0x3fb504f3
DATA sp32Sqrt2<>+4(SB)/4, $0x3fb504f3
DATA sp32Sqrt2<>+8(SB)/4, $0x3fb504f3
DATA sp32Sqrt2<>+12(SB)/4, $0x3fb504f3
GLOBL sp32Sqrt2<>(SB), RODATA|NOPTR, $16
DATA sp32Lg1<>+0(SB)/4, $0x3f2aaaaa
DATA sp32Lg1<>+4(SB)/4, $0x3f2aaaaa
DATA sp32Lg1<>+8(SB)/4, $0x3f2aaaaa
DATA sp32Lg1<>+12(SB)/4, $0x3f2aaaaa
GLOBL sp32Lg1<>(SB), RODATA|NOPTR, $16
DATA sp32Lg2<>+0(SB)/4, $0x3eccce13
DATA sp32Lg2<>+4(SB)/4, $0x3eccce13
DATA sp32Lg2<>+8(SB)/4, $0x3eccce13
DATA sp32Lg2<>+12(SB)/4, $0x3eccce13
GLOBL sp32Lg2<>(SB), RODATA|NOPTR, $16
DATA sp32Lg3<>+0(SB)/4, $0x3e91e9ee
DATA sp32Lg3<>+4(SB)/4, $0x3e91e9ee
DATA sp32Lg3<>+8(SB)/4, $0x3e91e9ee
DATA sp32Lg3<>+12(SB)/4, $0x3e91e9ee
GLOBL sp32Lg3<>(SB), RODATA|NOPTR, $16
DATA sp32Lg4<>+0(SB)/4, $0x3e789e26
DATA sp32Lg4<>+4(SB)/4, $0x3e789e26
DATA sp32Lg4<>+8(SB)/4, $0x3e789e26
DATA sp32Lg4<>+12(SB)/4, $0x3e789e26
GLOBL sp32Lg4<>(SB), RODATA|NOPTR, $16
DATA sp32Ln2Hi<>+0(SB)/4, $0x3f317180
DATA sp32Ln2Hi<>+4(SB)/4, $0x3f317180
DATA sp32Ln2Hi<>+8(SB)/4, $0x3f317180
DATA sp32Ln2Hi<>+12(SB)/4, $0x3f317180
GLOBL sp32Ln2Hi<>(SB), RODATA|NOPTR, $16
DATA sp32Ln2Lo<>+0(SB)/4, $0x3717f7d1
DATA sp32Ln2Lo<>+4(SB)/4, $0x3717f7d1
DATA sp32Ln2Lo<>+8(SB)/4, $0x3717f7d1
DATA sp32Ln2Lo<>+12(SB)/4, $0x3717f7d1
GLOBL sp32Ln2Lo<>(SB), RODATA|NOPTR, $16
DATA sp32KMin<>+0(SB)/4, $0xc2fc0000
DATA sp32KMin<>+4(SB)/4, $0xc2fc0000
DATA sp32KMin<>+8(SB)/4, $0xc2fc0000
DATA sp32KMin<>+12(SB)/4, $0xc2fc0000
GLOBL sp32KMin<>(SB), RODATA|NOPTR, $16
DATA sp32Bias<>+0(SB)/4, $0x0000007f
DATA sp32Bias<>+4(SB)/4, $0x0000007f
DATA sp32Bias<>+8(SB)/4, $0x0000007f
DATA sp32Bias<>+12(SB)/4, $0x0000007f
GLOBL sp32Bias<>(SB), RODATA|NOPTR, $16
DATA sp32Small<>+0(SB)/4, $0xc1800000
DATA sp32Small<>+4(SB)/4, $0xc1800000
DATA sp32Small<>+8(SB)/4, $0xc1800000
DATA sp32Small<>+12(SB)/4, $0xc1800000
GLOBL sp32Small<>(SB), RODATA|NOPTR, $16

// SP32_LINK sets Y0 to the float64 softplus of the four float32 in X10,
// each within a few float32 roundoffs (2⁻²⁴ ≈ 6e-8) of the float64 value:
//
//   - e = e^t for t = −|z|, clamped at −760 where e^t underflows float64
//     too: k = round(t/ln 2), r = t − k·ln 2 in two parts, e^r by Cephes'
//     polynomial, then e = e^r·2^k with k ≥ −126 (float32 exponents; a
//     smaller k only occurs for |z| > 87, where the other branches need no
//     such e);
//   - ln(1+e) by fdlibm's logf of w = 1+e ∈ [1, 2] (w or w/2 in [√½, √2),
//     s = f/(2+f), a polynomial in s²) plus (e − (w−1))/w, the rounding
//     error of w (Goldberg), so that tiny e keep their relative accuracy;
//   - in float64: z + ln(1+e) for z > 0, ln(1+e) for z ≤ 0, and e^r·2^k
//     with 2^k applied in float64 for z ≤ −16, where softplus(z) = e^z to
//     within e^z/2 < 6e-8 relative and e^z leaves the float32 range for
//     z < −87.
//
// softplus(+Inf) = +Inf, softplus(−Inf) = 0, softplus(NaN) = NaN.
// Clobbers X1–X9, X11–X14 (and their YMM).
#define SP32_LINK \
	VMOVUPS      sp32Min<>(SB), X1; \
	VORPS        sp32Sign<>(SB), X10, X0; \
	VMAXPS       X0, X1, X0; \
	VMULPS       sp32Log2e<>(SB), X0, X1; \
	VROUNDPS     $0, X1, X1; \
	VFNMADD231PS sp32C1<>(SB), X1, X0; \
	VFNMADD231PS sp32C2<>(SB), X1, X0; \
	VMULPS       X0, X0, X2; \
	VMOVUPS      sp32P0<>(SB), X3; \
	VFMADD213PS  sp32P1<>(SB), X0, X3; \
	VFMADD213PS  sp32P2<>(SB), X0, X3; \
	VFMADD213PS  sp32P3<>(SB), X0, X3; \
	VFMADD213PS  sp32P4<>(SB), X0, X3; \
	VFMADD213PS  sp32P5<>(SB), X0, X3; \
	VFMADD213PS  X0, X2, X3; \
	VADDPS       sp32One<>(SB), X3, X3; \
	VMAXPS       sp32KMin<>(SB), X1, X4; \
	VCVTPS2DQ    X4, X4; \
	VPADDD       sp32Bias<>(SB), X4, X4; \
	VPSLLD       $23, X4, X4; \
	VMULPS       X4, X3, X4; \
	VADDPS       sp32One<>(SB), X4, X5; \
	VSUBPS       sp32One<>(SB), X5, X6; \
	VSUBPS       X6, X4, X6; \
	VDIVPS       X5, X6, X6; \
	VCMPPS       $0x1d, sp32Sqrt2<>(SB), X5, X7; \
	VMULPS       sp32Half<>(SB), X5, X8; \
	VBLENDVPS    X7, X8, X5, X8; \
	VSUBPS       sp32One<>(SB), X8, X8; \
	VANDPS       sp32One<>(SB), X7, X7; \
	VADDPS       sp32Two<>(SB), X8, X9; \
	VDIVPS       X9, X8, X9; \
	VMULPS       X9, X9, X11; \
	VMULPS       X11, X11, X12; \
	VMOVUPS      sp32Lg4<>(SB), X13; \
	VFMADD213PS  sp32Lg2<>(SB), X12, X13; \
	VMULPS       X12, X13, X13; \
	VMOVUPS      sp32Lg3<>(SB), X14; \
	VFMADD213PS  sp32Lg1<>(SB), X12, X14; \
	VMULPS       X11, X14, X14; \
	VADDPS       X13, X14, X14; \
	VMULPS       X8, X8, X13; \
	VMULPS       sp32Half<>(SB), X13, X13; \
	VADDPS       X13, X14, X14; \
	VMULPS       sp32Ln2Lo<>(SB), X7, X12; \
	VFMADD231PS  X14, X9, X12; \
	VSUBPS       X12, X13, X13; \
	VSUBPS       X8, X13, X13; \
	VMULPS       sp32Ln2Hi<>(SB), X7, X12; \
	VSUBPS       X13, X12, X12; \
	VADDPS       X6, X12, X12; \
	VCVTPS2PD    X12, Y12; \
	VCVTPS2PD    X10, Y13; \
	VXORPD       Y14, Y14, Y14; \
	VCMPPD       $0x1e, Y14, Y13, Y14; \
	VANDPD       Y13, Y14, Y14; \
	VADDPD       Y14, Y12, Y12; \
	VCVTPS2PD    X3, Y3; \
	VCVTPS2PD    X1, Y1; \
	VMULPD       gcHalf<>(SB), Y1, Y2; \
	VROUNDPD     $1, Y2, Y2; \
	VSUBPD       Y2, Y1, Y1; \
	VADDPD       gcExpBias<>(SB), Y2, Y2; \
	VPSLLQ       $52, Y2, Y2; \
	VADDPD       gcExpBias<>(SB), Y1, Y1; \
	VPSLLQ       $52, Y1, Y1; \
	VMULPD       Y2, Y3, Y3; \
	VMULPD       Y1, Y3, Y3; \
	VCMPPS       $0x12, sp32Small<>(SB), X10, X2; \
	VPMOVSXDQ    X2, Y2; \
	VBLENDVPD    Y2, Y3, Y12, Y0

#define SP_N CX   // n rounded down to whole vectors
#define SP_R DX   // n mod 4: the elements past them
#define SP_I AX   // element i
#define SP_DST SI
#define SP_X DI

// SP_TAIL_STORE stores the SP_R (1–3) lanes of Y0 to dst[i:], one at a time.
#define SP_TAIL_STORE(done) \
	VMOVSD       X0, (SP_DST)(SP_I*8); \
	CMPQ         SP_R, $2; \
	JLT          done; \
	VMOVHPD      X0, 8(SP_DST)(SP_I*8); \
	JEQ          done; \
	VEXTRACTF128 $1, Y0, X1; \
	VMOVSD       X1, 16(SP_DST)(SP_I*8)

// func softplusF32(n int, dst *float64, x *float32)
TEXT ·softplusF32(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), SP_N
	MOVQ dst+8(FP), SP_DST
	MOVQ x+16(FP), SP_X
	MOVQ SP_N, SP_R
	ANDQ $3, SP_R
	SUBQ SP_R, SP_N
	XORQ SP_I, SP_I

softplusF32_loop:
	CMPQ    SP_I, SP_N
	JGE     softplusF32_tail
	VMOVUPS (SP_X)(SP_I*4), X10
	SP32_LINK
	VMOVUPD Y0, (SP_DST)(SP_I*8) // dst[i:i+4] = softplus(x[i:i+4])
	ADDQ    $4, SP_I
	JMP     softplusF32_loop

softplusF32_tail:
	TESTQ     SP_R, SP_R
	JZ        softplusF32_done
	VMOVSS    (SP_X)(SP_I*4), X10 // x[i], zeros above
	CMPQ      SP_R, $2
	JLT       softplusF32_last
	VINSERTPS $0x10, 4(SP_X)(SP_I*4), X10, X10
	JEQ       softplusF32_last
	VINSERTPS $0x20, 8(SP_X)(SP_I*4), X10, X10

softplusF32_last:
	SP32_LINK
	SP_TAIL_STORE(softplusF32_done)

softplusF32_done:
	VZEROUPPER
	RET

// func softplusF64(n int, dst, x *float64)
TEXT ·softplusF64(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), SP_N
	MOVQ dst+8(FP), SP_DST
	MOVQ x+16(FP), SP_X
	MOVQ SP_N, SP_R
	ANDQ $3, SP_R
	SUBQ SP_R, SP_N
	XORQ SP_I, SP_I

softplusF64_loop:
	CMPQ    SP_I, SP_N
	JGE     softplusF64_tail
	VMOVUPD (SP_X)(SP_I*8), Y10
	GL_SOFTPLUS_EXP
	GL_SOFTPLUS_LOG
	VMOVUPD Y0, (SP_DST)(SP_I*8) // dst[i:i+4] = softplus(x[i:i+4])
	ADDQ    $4, SP_I
	JMP     softplusF64_loop

softplusF64_tail:
	TESTQ       SP_R, SP_R
	JZ          softplusF64_done
	VMOVSD      (SP_X)(SP_I*8), X10 // x[i], zeros above
	CMPQ        SP_R, $2
	JLT         softplusF64_last
	VMOVHPD     8(SP_X)(SP_I*8), X10, X10
	JEQ         softplusF64_last
	VMOVSD      16(SP_X)(SP_I*8), X11
	VINSERTF128 $1, X11, Y10, Y10

softplusF64_last:
	GL_SOFTPLUS_EXP
	GL_SOFTPLUS_LOG
	SP_TAIL_STORE(softplusF64_done)

softplusF64_done:
	VZEROUPPER
	RET
