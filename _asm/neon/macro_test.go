package main

import "testing"

// testMacro is the body of the macro TEST_MACRO(mask, label).
func testMacro(a *asm, t elem, mask vreg, l label) {
	a.VMOV(mask.D(0), R(13))
	a.FCMGT(V(1), V(1), zero) // note
	a.Label(a.Param("again"))
	a.CBZ(R(13), l)
}

// TestMacro checks a #define: its doc, its name from the Go function's,
// its parameters, its lines continued but the last, a WORD's comment as
// /* */, a label in it, and its use with arguments, a vector register
// without its arrangement.
func TestMacro(t *testing.T) {
	a := newAsm(nil)
	a.begin(func(a *asm, t elem) {
		// Doc of the macro.
		a.Macro(testMacro, vparam("mask"), a.Param("la", "bel"))
		a.Invoke(testMacro, V(2), label("there"))
	}, elemF64Only)
	want := `// Doc of the macro.
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
	if got := funcName(testMacro); got != "testMacro" {
		t.Errorf("funcName of a function = %s", got)
	}
}

type testRegs struct{}

func (testRegs) body(*asm, elem) {}
