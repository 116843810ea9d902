package main

import (
	"strings"
	"testing"
)

// TestDefines checks a block of #defines: its comment, a register name
// with its comment in the columns of the file, one without, a bit, and
// the #undefs in order.
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

// TestTable checks a constant table: offsets 16 apart, a series with its
// comment on the first constant only, each constant's bits twice in DATA
// (1.5 is 0x3ff8000000000000), and the operand of a constant.
func TestTable(t *testing.T) {
	a := newAsm(nil)
	tab := a.Table("tab", "KT")
	one := tab.Const("ONE", 0x3ff0000000000000) // 1
	tab.Series("C", 1, []float64{1.5, 2})       // a series
	tab.Data()
	if got := one.asm(D2); got != "NC_ONE(KT)" {
		t.Errorf("operand %q", got)
	}
	want := strings.Join([]string{
		"#define NC_ONE 0 // 1",
		"#define NC_C1 16 // a series",
		"#define NC_C2 32",
		"",
		"DATA tab<>+0(SB)/8, $0x3ff0000000000000",
		"DATA tab<>+8(SB)/8, $0x3ff0000000000000",
		"DATA tab<>+16(SB)/8, $0x3ff8000000000000",
		"DATA tab<>+24(SB)/8, $0x3ff8000000000000",
		"DATA tab<>+32(SB)/8, $0x4000000000000000",
		"DATA tab<>+40(SB)/8, $0x4000000000000000",
		"GLOBL tab<>(SB), RODATA|NOPTR, $48",
		"",
	}, "\n")
	if got := a.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
