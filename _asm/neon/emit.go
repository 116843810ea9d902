package main

import (
	"fmt"
	"regexp"
	"strings"
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

// format formats the lines text, as one string, with args, when there
// are any.
func format(text []string, args []any) []string {
	if len(args) == 0 {
		return text
	}
	return strings.Split(fmt.Sprintf(strings.Join(text, "\n"), args...), "\n")
}
