package main

import "testing"

// testKernel writes a small kernel whose comments are the test's input.
func testKernel(a *asm, t elem) {
	// The doc comment, ⟨four|two⟩ lanes.
	args := a.Text()
	a.MOVD(args[0], R(7)) // n
	loop := a.L("loop")
	a.Label(loop)
	a.SUBS(imm(1), R(7))
	a.BNE(loop.Sub("x"))
	a.RET()
}

// TestText checks a kernel's TEXT block: the "// func" line of its Go
// declaration, its doc paragraphs (Doc, then the comment above Text), the
// frame size and argument offsets of the declaration, and its labels,
// each after a blank line and prefixed with the kernel's name; and that
// Family writes the float32 kernel, then the float64 one.
func TestText(t *testing.T) {
	a := newAsm(map[string]stub{
		"testKernelF32": {decl: "func testKernelF32(n int, x *float32)", args: []arg{{"n", "int", 0, 8}, {"x", "*float32", 8, 8}}, params: 2, frame: 16},
		"testKernelF64": {decl: "func testKernelF64(n int)", args: []arg{{"m", "int", 0, 8}}, params: 1, frame: 8},
	})
	// A paragraph before.
	a.Doc()
	a.Family(testKernel)
	want := `// func testKernelF32(n int, x *float32)
//
// A paragraph before.
//
// The doc comment, four lanes.
TEXT ·testKernelF32(SB), NOSPLIT|NOFRAME, $0-16
	MOVD n+0(FP), R7 // n

testKernelF32_loop:
	SUBS $1, R7
	BNE testKernelF32_loop_x
	RET

// func testKernelF64(n int)
//
// The doc comment, two lanes.
TEXT ·testKernelF64(SB), NOSPLIT|NOFRAME, $0-8
	MOVD m+0(FP), R7 // n

testKernelF64_loop:
	SUBS $1, R7
	BNE testKernelF64_loop_x
	RET
`
	if got := a.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
