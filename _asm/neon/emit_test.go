package main

import "testing"

// TestInstructions checks the lines the writer makes of instructions and
// the Go comments it copies: the Go assembler's syntax and operand order
// for its own instructions, the WORD of an instruction it lacks with that
// instruction, in ARM syntax, as the comment (the encodings from the ARM
// manual's FMUL and FCMGT #0 rows: 0x2E20DC00 and 0x0EA0C800, with Q = 1
// and sz = 0 for .4S, 1 for .2D), a comment line above, a trailing comment
// after "; " for a WORD, one formatted by Fmt, and ⟨a|b⟩ by element type.
func TestInstructions(t *testing.T) {
	a := newAsm(nil)
	a.inText = true // as after Text: a comment line is indented
	a.begin(func(a *asm, t elem) {
		a.MOVD(R(1), R(2)) // ⟨four|two⟩ lanes
		// x[i] *= x[i]
		a.VLD1(R(0).At(0), regs(V(0)))
		for i := range 2 {
			a.FMUL(V(i), V(i), V(i)).Fmt(i) // lane %d
		}
		a.FCMGT(V(1).In(D2), V(1).In(D2), zero)
		t.FMUL(F(4), F(0), F(0))
		a.RET()
	}, elemF32)
	want := "\tMOVD R1, R2 // four lanes\n" +
		"\t// x[i] *= x[i]\n" +
		"\tVLD1 (R0), [V0.S4]\n" +
		"\tWORD $0x6E20DC00 // FMUL V0.4S, V0.4S, V0.4S; lane 0\n" +
		"\tWORD $0x6E21DC21 // FMUL V1.4S, V1.4S, V1.4S; lane 1\n" +
		"\tWORD $0x4EE0C821 // FCMGT V1.2D, V1.2D, #0\n" +
		"\tFMULS F4, F0, F0\n" +
		"\tRET\n"
	if got := a.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestParagraphs checks the layout of the file's top level: paragraphs
// one blank line apart, a comment paragraph formatted with arguments, and
// the directives.
func TestParagraphs(t *testing.T) {
	a := newAsm(nil)
	// Code of %s.
	a.Comment("x.s")
	a.Line("//go:build gc")
	a.Include("textflag.h")
	want := "// Code of x.s.\n\n//go:build gc\n\n#include \"textflag.h\"\n"
	if got := a.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
