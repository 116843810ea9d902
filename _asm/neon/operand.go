package main

import (
	"strconv"
	"strings"
)

// An operand is an instruction's operand, which writes itself in the Go
// assembler's syntax (asm) and, when it can appear in a WORD, in ARM's
// (arm). def is the arrangement that a vector register takes when it does
// not name one: the kernel's element type for arithmetic, B16 for the
// bitwise instructions.
type operand interface {
	asm(def arrangement) string
}

type armOperand interface {
	operand
	arm(def arrangement) string
}

var itoa = strconv.Itoa

// arrangement is the shape of a vector register: lanes of elem (B, S or D).
type arrangement struct {
	lanes int
	elem  string
}

var (
	B16 = arrangement{16, "B"}
	S4  = arrangement{4, "S"}
	S2  = arrangement{2, "S"}
	D2  = arrangement{2, "D"}
)

func (r arrangement) goName() string  { return r.elem + itoa(r.lanes) } // S4
func (r arrangement) armName() string { return itoa(r.lanes) + r.elem } // 4S

// vreg is a vector register, or a macro's parameter that stands for one.
type vreg struct {
	n     int
	param string
}

// V returns the vector register Vn.
func V(n int) vreg { return vreg{n: n} }

// vregs returns count vector registers from Vfirst on.
func vregs(first, count int) block {
	v := make(block, count)
	for i := range v {
		v[i] = V(first + i)
	}
	return v
}

func (v vreg) name() string {
	if v.param != "" {
		return v.param
	}
	return "V" + itoa(v.n)
}

func (v vreg) asm(def arrangement) string { return v.name() + "." + def.goName() }
func (v vreg) arm(def arrangement) string { return v.name() + "." + def.armName() }

// F returns the scalar register of v's lowest lane.
func (v vreg) F() freg { return freg(v.n) }

// In returns v with the arrangement r rather than the default.
func (v vreg) In(r arrangement) vec { return vec{v, r} }

// Lane returns lane i of v, of the kernel's element type; D returns lane
// i of v as a float64.
func (v vreg) Lane(i int) lane { return lane{v, "", i} }
func (v vreg) D(i int) lane    { return lane{v, "D", i} }

// block is vector registers that a kernel treats alike: the four vectors
// of an element-wise kernel's block, or accumulators.
type block []vreg

// perVector is an operand of each: a block, whose i-th register goes to
// the i-th instruction, or a register, the same for all.
type perVector interface{ at(i int) vreg }

func (b block) at(i int) vreg { return b[i] }
func (v vreg) at(int) vreg    { return v }

// vec is a vector register with its arrangement.
type vec struct {
	v vreg
	r arrangement
}

func (x vec) asm(arrangement) string { return x.v.asm(x.r) }
func (x vec) arm(arrangement) string { return x.v.arm(x.r) }

// lane is one lane of a vector register, Vn.S[i].
type lane struct {
	v    vreg
	elem string // "" for the default's
	i    int
}

func (x lane) asm(def arrangement) string {
	elem := x.elem
	if elem == "" {
		elem = def.elem
	}
	return x.v.name() + "." + elem + "[" + itoa(x.i) + "]"
}

// list is a register list, [V0.S4, V1.S4].
type list []operand

// regs returns the list of the registers v.
func regs[T operand](v ...T) list {
	l := make(list, len(v))
	for i, x := range v {
		l[i] = x
	}
	return l
}

func (l list) asm(def arrangement) string {
	s := make([]string, len(l))
	for i, x := range l {
		s[i] = x.asm(def)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// freg is a scalar floating-point register: Fn for the Go assembler, Sn
// or Dn (by the default's element) for ARM.
type freg int

// F returns the scalar register Fn, the low lane of Vn.
func F(n int) freg { return freg(n) }

func (f freg) asm(arrangement) string     { return "F" + itoa(int(f)) }
func (f freg) arm(def arrangement) string { return def.elem + itoa(int(f)) }

// gpr is a general-purpose register: Rn, ZR, or a #define'd name for one.
type gpr string

// R returns the register Rn.
func R(n int) gpr { return gpr("R" + itoa(n)) }

const ZR gpr = "ZR"

func (r gpr) asm(arrangement) string { return string(r) }

// Shl is r shifted left by n, an operand of ADD.
func (r gpr) Shl(n int) operand { return text(string(r) + "<<" + itoa(n)) }

// At is the memory at r plus off: off(r), or (r).
func (r gpr) At(off int) operand {
	if off == 0 {
		return text("(" + string(r) + ")")
	}
	return text(itoa(off) + "(" + string(r) + ")")
}

// Idx is the memory at r plus x: (r)(x), which a post-indexed load or
// store (.P) reads as "at r, then r += x".
func (r gpr) Idx(x gpr) operand { return text("(" + string(r) + ")(" + string(x) + ")") }

// text is an operand already written, the same in both syntaxes.
type text string

func (x text) asm(arrangement) string { return string(x) }
func (x text) arm(arrangement) string { return string(x) }

// imm is an immediate, $n.
type imm int

func (n imm) asm(arrangement) string { return "$" + itoa(int(n)) }

// hex is the immediate $0x… of bits in digits hexadecimal digits, upper
// case when upper (as a WORD is written), lower case otherwise (DATA).
func hex(bits uint64, digits int, upper bool) operand {
	h := strconv.FormatUint(bits, 16)
	h = strings.Repeat("0", max(0, digits-len(h))) + h
	if upper {
		h = strings.ToUpper(h)
	}
	return text("$0x" + h)
}

// flags are the flags of TEXT or GLOBL, NOSPLIT|NOFRAME.
func flags(f ...string) operand { return text(strings.Join(f, "|")) }

// fimm is a floating-point immediate, $(1.0).
type fimm float64

func (x fimm) asm(arrangement) string {
	return "$(" + strconv.FormatFloat(float64(x), 'f', 1, 64) + ")"
}

// zero is the #0 of ARM's comparisons with zero.
const zero text = "#0"

// label is a branch target: a label of the kernel, or a macro's parameter
// that stands for one.
type label string

func (l label) asm(arrangement) string { return string(l) }

// Sub returns the label l_part, of a part of what l starts.
func (l label) Sub(part string) label { return l + "_" + label(part) }

// bit is a named bit number, #define'd as NAME_BIT, and its operand
// $NAME_BIT.
type bit struct {
	name string
	n    int
}

func (b bit) define() string         { return b.name + "_BIT" }
func (b bit) asm(arrangement) string { return "$" + b.define() }

// symbol is a symbol: a function of the package (·name), or a static
// symbol of the file, name<>.
type symbol string

func (s symbol) ref() string { return string(s) + "<>" }

// Addr is the operand $name<>(SB), the symbol's address.
func (s symbol) Addr() operand { return text("$" + s.ref() + "(SB)") }

// Global is the operand of a symbol of the package, name(SB), as TEXT and
// GLOBL name it.
func (s symbol) Global() operand { return text(string(s) + "(SB)") }

// Static is the operand of a static symbol, name<>(SB), as GLOBL names
// it.
func (s symbol) Static() operand { return text(s.ref() + "(SB)") }

// Data is the operand of DATA for the size bytes at off in s.
func (s symbol) Data(off, size int) operand {
	return text(s.ref() + "+" + itoa(off) + "(SB)/" + itoa(size))
}

// konst is a constant of the table neonConst<>: its offset, #defined as
// NC_name, and its operand NC_name(base), base holding the table's
// address.
type konst struct {
	name string
	off  int
	bits uint64
	base gpr
}

func (k konst) define() string         { return "NC_" + k.name }
func (k konst) asm(arrangement) string { return k.define() + "(" + string(k.base) + ")" }

// cond is a condition code, as in CSET EQ, R0.
type cond string

const EQ cond = "EQ"

func (c cond) asm(arrangement) string { return string(c) }
