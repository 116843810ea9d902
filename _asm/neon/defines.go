package main

import (
	"math"
	"strings"
)

// defines is a block of #defines: register names, bits or constants.
type defines struct {
	a     *asm
	names []string
}

// Defines starts a block of #defines, after the comment above the call.
func (a *asm) Defines() *defines {
	s := callSite()
	a.para()
	a.comments(a.expandAll(s.above()))
	return &defines{a: a}
}

func (d *defines) define(name, value, note string) {
	code := "#define " + name + " " + value
	if note != "" {
		code += " //" + note
	}
	d.names = append(d.names, name)
	d.a.lines = append(d.a.lines, &line{kind: rawLine, code: code})
}

// Register #defines name for the register r, with the comment at the end
// of the calling line, and returns it under its name. Names and registers
// with a comment are aligned in columns.
func (d *defines) Register(name string, r gpr) gpr {
	note := callSite().trailing()
	if note != "" {
		name, r = pad(name, 6), gpr(pad(string(r), 4))
	}
	d.define(name, string(r), note)
	return gpr(strings.TrimSpace(name))
}

func pad(s string, n int) string { return s + strings.Repeat(" ", max(0, n-len(s))) }

// Bit #defines NAME_BIT as n.
func (d *defines) Bit(name string, n int) bit {
	b := bit{name, n}
	d.define(b.define(), itoa(n), "")
	return b
}

// Undef writes the #undef of every name of the block, in order.
func (d *defines) Undef() {
	d.a.para()
	for _, n := range d.names {
		d.a.lines = append(d.a.lines, &line{kind: rawLine, code: "#undef " + strings.TrimSpace(n)})
	}
}

// table is a table of float64 constants, each stored twice (a whole
// vector) in the static symbol sym: a block of #defines of their offsets
// (konst), then its DATA.
type table struct {
	d      *defines
	sym    symbol
	base   gpr // holds the table's address where the constants are used
	consts []konst
}

// Table starts the #defines of the table sym, whose address the kernels
// hold in base, after the comment above the call.
func (a *asm) Table(sym symbol, base gpr) *table {
	return &table{d: a.Defines(), sym: sym, base: base}
}

// Const adds the constant name, of bits bits, with the comment at the end
// of the calling line.
func (t *table) Const(name string, bits uint64) konst {
	return t.add(name, bits, callSite().trailing())
}

func (t *table) add(name string, bits uint64, note string) konst {
	k := konst{name, 16 * len(t.consts), bits, t.base}
	t.d.define(k.define(), itoa(k.off), note)
	t.consts = append(t.consts, k)
	return k
}

// Series adds the constants v, named prefix and their index from first
// on, the first with the comment at the end of the calling line.
func (t *table) Series(prefix string, first int, v []float64) []konst {
	note := callSite().trailing()
	ks := make([]konst, len(v))
	for i, x := range v {
		ks[i] = t.add(prefix+itoa(first+i), math.Float64bits(x), note)
		note = ""
	}
	return ks
}

// Data writes the table's DATA and GLOBL.
func (t *table) Data() {
	a := t.d.a
	a.para()
	for _, k := range t.consts {
		for half := 0; half < 16; half += 8 {
			a.directive("DATA", t.sym.Data(k.off+half, 8), hex(k.bits, 16, false))
		}
	}
	a.directive("GLOBL", t.sym.Static(), flags("RODATA", "NOPTR"), imm(16*len(t.consts)))
}
