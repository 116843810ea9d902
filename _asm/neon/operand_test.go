package main

import "testing"

// TestOperands checks each operand in the Go assembler's syntax (with S4
// as the default arrangement) and, for those a WORD takes, in ARM's, as
// the assemblers' manuals write them.
func TestOperands(t *testing.T) {
	for _, c := range []struct {
		op       operand
		asm, arm string
	}{
		{V(3), "V3.S4", "V3.4S"},
		{V(3).In(D2), "V3.D2", "V3.2D"},
		{V(3).In(S2), "V3.S2", "V3.2S"},
		{vparam("mask"), "mask.S4", "mask.4S"},
		{F(16), "F16", "S16"},
		{zero, "#0", "#0"},
		{V(1).Lane(2), "V1.S[2]", ""},
		{V(1).D(1), "V1.D[1]", ""},
		{regs(vregs(4, 2)...), "[V4.S4, V5.S4]", ""},
		{R(3), "R3", ""},
		{R(3).Shl(2), "R3<<2", ""},
		{R(3).At(0), "(R3)", ""},
		{R(3).At(64), "64(R3)", ""},
		{R(3).Idx(R(4)), "(R3)(R4)", ""},
		{imm(15), "$15", ""},
		{fimm(1), "$(1.0)", ""},
		{fimm(0), "$(0.0)", ""},
		{hex(0x4e22d420, 8, true), "$0x4E22D420", ""},
		{hex(1, 16, false), "$0x0000000000000001", ""},
		{flags("NOSPLIT", "NOFRAME"), "NOSPLIT|NOFRAME", ""},
		{label("k_loop").Sub("x"), "k_loop_x", ""},
		{bit{"BIAS", 0}, "$BIAS_BIT", ""},
		{symbol("tab").Addr(), "$tab<>(SB)", ""},
		{symbol("tab").Static(), "tab<>(SB)", ""},
		{symbol("·f").Global(), "·f(SB)", ""},
		{symbol("tab").Data(16, 8), "tab<>+16(SB)/8", ""},
		{konst{name: "ONE", base: "KTAB"}, "NC_ONE(KTAB)", ""},
		{arg{name: "x", off: 8}, "x+8(FP)", ""},
		{EQ, "EQ", ""},
	} {
		if got := c.op.asm(S4); got != c.asm {
			t.Errorf("%#v: asm %q, want %q", c.op, got, c.asm)
		}
		if a, ok := c.op.(armOperand); ok && c.arm != "" {
			if got := a.arm(S4); got != c.arm {
				t.Errorf("%#v: arm %q, want %q", c.op, got, c.arm)
			}
		}
	}
}
