package main

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"unicode"
)

// asm writes simd_arm64.s: one method per instruction (insn.go), plus the
// file's structure: TEXT blocks with their doc comments, labels, #define
// blocks of register names, macros and the constant table.
//
// The comments of the file are the Go comments of the generator: a
// comment on the line of a call that writes an instruction becomes the
// instruction's comment, and comments alone on the lines right above such
// a call are written above the instruction; above Text, Doc and Macro they
// are the doc comment of the kernel or macro, above Comment a paragraph of
// their own. In a comment, ⟨a|b⟩ is a for float32 and b for float64, and
// ⟨F⟩ the kernel's suffix.
type asm struct {
	stubs  map[string]stub
	lines  []*line
	t      elem              // the element type of the kernel or macro being written
	name   string            // the kernel's name, which prefixes its labels
	inText bool              // in a TEXT block
	macro  bool              // in a #define
	docs   [][]string        // doc paragraphs for the next Text or Macro
	macros map[string]string // the macros defined: their Go function's name (and suffix) → name
}

func newAsm(stubs map[string]stub) *asm {
	return &asm{stubs: stubs, macros: map[string]string{}}
}

type lineKind int

const (
	blankLine lineKind = iota
	commentLine
	codeLine
	labelLine
	rawLine
)

// line is a line of the file.
type line struct {
	kind  lineKind
	code  string // the instruction, label, directive or raw line
	note  string // the comment, as written after //
	word  string // for a WORD, its instruction in ARM syntax, which starts its comment
	tab   bool   // a comment line in a TEXT block
	macro bool   // in a #define: /* */ comments, and the line continues (cont)
	cont  bool
}

func (l *line) String() string {
	switch l.kind {
	case blankLine:
		return ""
	case commentLine:
		if l.tab {
			return "\t//" + l.note
		}
		return "//" + l.note
	case labelLine:
		if l.macro {
			return l.code + ": \\"
		}
		return l.code + ":"
	case rawLine:
		return l.code
	}
	s, c := "\t"+l.code, l.note
	if l.word != "" {
		c = " " + l.word
		if l.note != "" {
			c += ";" + l.note
		}
	}
	switch {
	case c != "" && l.macro:
		s += " /*" + c + " */"
	case c != "":
		s += " //" + c
	}
	if l.cont {
		s += "; \\"
	}
	return s
}

// Fmt formats the comment of l with args, for a comment that depends on a
// Go loop (`// A(i0+%d, q)`).
func (l *line) Fmt(args ...any) { l.note = fmt.Sprintf(l.note, args...) }

// String returns the file.
func (a *asm) String() string {
	var b strings.Builder
	for _, l := range a.lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func (a *asm) add(l *line) *line {
	l.macro = a.macro
	l.cont = a.macro
	a.lines = append(a.lines, l)
	return l
}

// para starts a paragraph of the file: a blank line, unless at the start
// or after one.
func (a *asm) para() {
	a.inText = false
	if n := len(a.lines); n > 0 && a.lines[n-1].kind != blankLine {
		a.lines = append(a.lines, &line{kind: blankLine})
	}
}

var (
	alternative = regexp.MustCompile(`⟨([^⟨⟩|]*)\|([^⟨⟩|]*)⟩`)
	suffix      = regexp.MustCompile(`⟨F⟩`)
)

// expand writes a comment's ⟨a|b⟩ and ⟨F⟩ for the element type.
func (a *asm) expand(s string) string {
	s = alternative.ReplaceAllString(s, a.t.pick("$1", "$2"))
	return suffix.ReplaceAllLiteralString(s, a.t.suffix)
}

func (a *asm) expandAll(lines []string) []string {
	for i := range lines {
		lines[i] = a.expand(lines[i])
	}
	return lines
}

// comments writes the comment lines text.
func (a *asm) comments(text []string) {
	if len(text) > 0 && a.macro {
		panic("neon: a comment line in a #define")
	}
	for _, c := range text {
		a.add(&line{kind: commentLine, note: c, tab: a.inText})
	}
}

// op writes the instruction mn with operands ops in the Go assembler's
// syntax, vector registers in the arrangement def unless they name one.
func (a *asm) op(def arrangement, mn string, ops ...operand) *line {
	return a.instruction(join(mn, asmText(def, ops)), "")
}

// word writes the instruction mn, which the Go assembler lacks, as a WORD
// that encode computes from its ARM syntax; vector registers take the
// arrangement def unless they name one.
func (a *asm) word(def arrangement, mn string, ops ...armOperand) *line {
	text := make([]string, len(ops))
	for i, o := range ops {
		text[i] = o.arm(def)
	}
	ins := join(mn, text)
	w, err := encode(ins)
	if err != nil {
		panic(err)
	}
	return a.instruction(join("WORD", asmText(def, []operand{hex(uint64(w), 8, true)})), ins)
}

// instruction writes the line code, with the comments of the calling line:
// those above it, and the one at its end, after word for a WORD (its
// instruction in ARM syntax).
func (a *asm) instruction(code, word string) *line {
	s := callSite()
	a.comments(a.expandAll(s.above()))
	return a.add(&line{kind: codeLine, code: code, word: word, note: a.expand(s.trailing())})
}

// directive writes the assembler directive name (TEXT, DATA, GLOBL) with
// its operands, at the start of a line.
func (a *asm) directive(name string, ops ...operand) {
	a.add(&line{kind: rawLine, code: join(name, asmText(arrangement{}, ops))})
}

// asmText returns the operands ops in the Go assembler's syntax.
func asmText(def arrangement, ops []operand) []string {
	text := make([]string, len(ops))
	for i, o := range ops {
		text[i] = o.asm(def)
	}
	return text
}

// join writes an instruction or directive and its operands.
func join(mn string, ops []string) string {
	if len(ops) == 0 {
		return mn
	}
	return mn + " " + strings.Join(ops, ", ")
}

// Line writes the line s, a directive that the generator reads (the
// build constraint), as a paragraph of the file.
func (a *asm) Line(s string) {
	a.para()
	a.lines = append(a.lines, &line{kind: rawLine, code: s})
}

// Include writes the #include of file as a paragraph of the file.
func (a *asm) Include(file string) { a.Line("#include \"" + file + "\"") }

// Comment writes the comment above the call as a paragraph of the file,
// formatted with args (fmt's verbs) when there are any.
func (a *asm) Comment(args ...any) {
	a.para()
	a.comments(format(a.expandAll(callSite().above()), args))
}

// Doc adds the comment above the call to the doc comment of the next Text
// or Macro, as a paragraph of it, formatted with args (fmt's verbs) when
// there are any.
func (a *asm) Doc(args ...any) {
	a.docs = append(a.docs, format(a.expandAll(callSite().above()), args))
}

// format formats the lines text, as one string, with args, when there
// are any.
func format(text []string, args []any) []string {
	if len(args) == 0 {
		return text
	}
	return strings.Split(fmt.Sprintf(strings.Join(text, "\n"), args...), "\n")
}

// takeDocs returns the pending doc paragraphs and the comment above s.
func (a *asm) takeDocs(s site) [][]string {
	docs := a.docs
	if above := s.above(); len(above) > 0 {
		docs = append(docs, a.expandAll(above))
	}
	a.docs = nil
	return docs
}

// Family writes the float32 and the float64 kernel (or macro) of kern, a
// method or function named as the kernel without its suffix.
func (a *asm) Family(kern func(*asm, elem)) {
	for _, t := range []elem{elemF32, elemF64} {
		a.begin(kern, t)
	}
}

// Single writes kern, a kernel of float64 alone whose name says so.
func (a *asm) Single(kern func(*asm, elem)) { a.begin(kern, elemF64Only) }

func (a *asm) begin(kern func(*asm, elem), t elem) {
	t.a = a
	a.t, a.name = t, funcName(kern)+t.suffix
	kern(a, t)
	a.t, a.name = elem{}, ""
}

// funcName returns the name of the function or method fn.
func funcName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	name = strings.TrimSuffix(name, "-fm") // a method value
	return name[strings.LastIndexByte(name, '.')+1:]
}

// macroName is the name of the macro that the Go function name writes:
// glSoftplusExp writes GL_SOFTPLUS_EXP.
func macroName(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// Text starts the TEXT block of the kernel being written: its "// func"
// line from its Go declaration, its doc comment (Doc, and the comment
// above the call) and the TEXT line. It returns the kernel's arguments
// and results, in order.
func (a *asm) Text() []arg {
	st := a.decl()
	docs := a.takeDocs(callSite())
	a.para()
	a.comments([]string{" " + st.decl})
	for _, d := range docs {
		a.comments(append([]string{""}, d...))
	}
	a.directive("TEXT", symbol("·"+a.name).Global(), flags("NOSPLIT", "NOFRAME"), text("$0-"+itoa(st.frame)))
	a.inText = true
	return st.args
}

// decl returns the Go declaration of the kernel being written.
func (a *asm) decl() stub {
	st, ok := a.stubs[a.name]
	if !ok {
		panic("neon: no Go declaration of " + a.name)
	}
	return st
}

// L returns the label of the kernel being written named by parts:
// L("r4", "loop") is gemmBcastF32_r4_loop.
func (a *asm) L(parts ...string) label {
	return label(a.name + "_" + strings.Join(parts, "_"))
}

// Label places l: on a line of its own after a blank one, or in a macro.
func (a *asm) Label(l label) {
	if !a.macro {
		a.lines = append(a.lines, &line{kind: blankLine})
	}
	a.add(&line{kind: labelLine, code: string(l)})
}

// Param returns a macro's label parameter: its parts, joined.
func (a *asm) Param(parts ...string) label { return label(strings.Join(parts, "")) }

// vparam returns a macro's vector-register parameter.
func vparam(name string) vreg { return vreg{param: name} }

// Macro writes the #define of the macro whose body the method or function
// body writes when called with the element type and params, preceded by
// its doc comment (Doc, and the comment above the call). Its name is the
// Go function's in upper case, words joined with _, and the family's
// suffix.
func (a *asm) Macro(body any, params ...operand) {
	key := funcName(body) + a.t.suffix
	name := macroName(funcName(body)) + a.t.suffix
	docs := a.takeDocs(callSite())
	a.para()
	for i, d := range docs {
		if i > 0 {
			a.comments([]string{""})
		}
		a.comments(d)
	}
	a.lines = append(a.lines, &line{kind: rawLine, code: "#define " + use(name, params) + " \\"})
	args := []reflect.Value{reflect.ValueOf(a), reflect.ValueOf(a.t)}
	for _, x := range params {
		args = append(args, reflect.ValueOf(x))
	}
	a.macro = true
	reflect.ValueOf(body).Call(args)
	a.macro = false
	a.lines[len(a.lines)-1].cont = false
	a.macros[key] = name
}

// Invoke writes the use of the macro that body writes (Macro), with args.
func (a *asm) Invoke(body any, args ...operand) *line {
	name, ok := a.macros[funcName(body)+a.t.suffix]
	if !ok {
		if name, ok = a.macros[funcName(body)]; !ok {
			panic("neon: macro " + funcName(body) + " used before its #define")
		}
	}
	return a.op(a.t.arr, use(name, args))
}

// use writes name(args), or name when there are none, the arguments as
// they are: a vector register without an arrangement.
func use(name string, args []operand) string {
	if len(args) == 0 {
		return name
	}
	s := make([]string, len(args))
	for i, x := range args {
		if v, ok := x.(vreg); ok {
			s[i] = v.name()
		} else {
			s[i] = x.asm(arrangement{})
		}
	}
	return name + "(" + strings.Join(s, ", ") + ")"
}

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
