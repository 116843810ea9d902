package main

import "strings"

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

// Doc adds the comment above the call to the doc comment of the next Text
// or Macro, as a paragraph of it, formatted with args (fmt's verbs) when
// there are any.
func (a *asm) Doc(args ...any) {
	a.docs = append(a.docs, format(a.expandAll(callSite().above()), args))
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
