package main

import (
	"strings"
	"testing"
)

// testKernel writes a small kernel whose comments are the test's input.
func testKernel(a *asm, t elem) {
	// The doc comment, ⟨four|two⟩ lanes.
	args := a.Text()
	a.MOVD(args[0], R(7)) // n
	a.LSR(imm(log2(4*t.lanes())), R(7), R(8))
	loop := a.L("loop")
	a.Label(loop)
	// x[i] *= x[i]
	a.VLD1(R(0).At(0), regs(V(0)))
	for i := range 2 {
		a.FMUL(V(i), V(i), V(i)).Fmt(i) // lane %d
	}
	a.FADDP(F(16), V(16).In(S2))
	t.FMUL(F(4), F(0), F(0))
	a.BNE(loop)
	a.RET()
}

// testMacro is the body of the macro TEST_MACRO(mask, label).
func testMacro(a *asm, t elem, mask vreg, l label) {
	a.VMOV(mask.D(0), R(13))
	a.FCMGT(V(1), V(1), zero) // note
	a.Label(a.Param("again"))
	a.CBZ(R(13), l)
}

func TestWriter(t *testing.T) {
	a := newAsm(map[string]stub{
		"testKernelF32": {decl: "func testKernelF32(n int, x *float32)", args: []arg{{"n", "int", 0, 8}, {"x", "*float32", 8, 8}}, params: 2, frame: 16},
	})
	a.begin(testKernel, elemF32)
	a.begin(func(a *asm, t elem) {
		// Doc of the macro.
		a.Macro(testMacro, vparam("mask"), a.Param("label"))
		a.Invoke(testMacro, V(2), label("there"))
	}, elemF64Only)
	want := `// func testKernelF32(n int, x *float32)
//
// The doc comment, four lanes.
TEXT ·testKernelF32(SB), NOSPLIT|NOFRAME, $0-16
	MOVD n+0(FP), R7 // n
	LSR $4, R7, R8

testKernelF32_loop:
	// x[i] *= x[i]
	VLD1 (R0), [V0.S4]
	WORD $0x6E20DC00 // FMUL V0.4S, V0.4S, V0.4S; lane 0
	WORD $0x6E21DC21 // FMUL V1.4S, V1.4S, V1.4S; lane 1
	WORD $0x7E30DA10 // FADDP S16, V16.2S
	FMULS F4, F0, F0
	BNE testKernelF32_loop
	RET

// Doc of the macro.
#define TEST_MACRO(mask, label) \
	VMOV mask.D[0], R13; \
	WORD $0x4EE0C821 /* FCMGT V1.2D, V1.2D, #0; note */; \
again: \
	CBZ R13, label
	TEST_MACRO(V2, there)
`
	if got := a.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDefines(t *testing.T) {
	a := newAsm(nil)
	// The block's comment.
	d := a.Defines()
	n := d.Register("NCOLS", R(1)) // columns
	d.Register("FLAGS", R(11))
	b := d.Bit("RELU", 2)
	d.Undef()
	if n != "NCOLS" || b.asm(D2) != "$RELU_BIT" {
		t.Errorf("operands %q, %q", n, b.asm(D2))
	}
	want := strings.Join([]string{
		"// The block's comment.",
		"#define NCOLS  R1   // columns",
		"#define FLAGS R11",
		"#define RELU_BIT 2",
		"",
		"#undef NCOLS",
		"#undef FLAGS",
		"#undef RELU_BIT",
		"",
	}, "\n")
	if got := a.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestNames(t *testing.T) {
	for _, c := range [][2]string{{"glSoftplusExp", "GL_SOFTPLUS_EXP"}, {"glLog1p", "GL_LOG1P"}, {"dot1", "DOT1"}} {
		if got := macroName(c[0]); got != c[1] {
			t.Errorf("macroName(%s) = %s, want %s", c[0], got, c[1])
		}
	}
	var r testRegs
	if got := funcName(r.body); got != "body" {
		t.Errorf("funcName of a method value = %s", got)
	}
	if got := funcName(testKernel); got != "testKernel" {
		t.Errorf("funcName of a function = %s", got)
	}
}

type testRegs struct{}

func (testRegs) body(*asm, elem) {}
