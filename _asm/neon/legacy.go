package main

import (
	"fmt"
	"regexp"
	"strings"
)

// typ is one element type of the NEON kernels: every kernel function here
// takes one and writes the float32 or the float64 kernel, so that a pair
// of kernels has a single source. A line template names what depends on
// the type with ⟨…⟩: ⟨F⟩ the kernel's suffix (F32, F64), ⟨T⟩ the Go type,
// ⟨A⟩ the assembler's arrangement (S4, D2), ⟨AA⟩ the ARM one (4S, 2D),
// ⟨S⟩ the scalar suffix (FMOVS, FMOVD), and ⟨a|b⟩ a for float32, b for
// float64.
type typ struct {
	size              int
	suffix, goType    string
	arr, armArr, scal string
}

var (
	f32  = &typ{4, "F32", "float32", "S4", "4S", "S"}
	f64  = &typ{8, "F64", "float64", "D2", "2D", "D"}
	none = (*typ)(nil) // for the kernels and text that exist once
)

var (
	named = regexp.MustCompile(`⟨(F|T|A|AA|S)⟩`)
	alt   = regexp.MustCompile(`⟨([^⟨⟩|]*)\|([^⟨⟩|]*)⟩`)
)

// x expands the template s for t.
func (t *typ) x(s string) string {
	if t == nil {
		if strings.Contains(s, "⟨") {
			panic("a typed template outside a typed kernel: " + s)
		}
		return s
	}
	s = alt.ReplaceAllStringFunc(s, func(m string) string {
		p := alt.FindStringSubmatch(m)
		if t.size == 4 {
			return p[1]
		}
		return p[2]
	})
	return named.ReplaceAllStringFunc(s, func(m string) string {
		switch m {
		case "⟨F⟩":
			return t.suffix
		case "⟨T⟩":
			return t.goType
		case "⟨A⟩":
			return t.arr
		case "⟨AA⟩":
			return t.armArr
		}
		return t.scal
	})
}

// out is the writer that the template kernels write to, line by line,
// while they are being rewritten as Go code over asm.
var out *asm

// p writes the line template s.
func p(t *typ, s string) {
	out.raw(t.x(s))
}

// word writes the WORD of the NEON instruction mn (a template, in ARM
// syntax), with mn as its comment followed by note: a // comment, or,
// inside a #define (macro), a /* */ one, followed by the line continuation
// when cont.
func word(t *typ, mn, note string, macro, cont bool) {
	mn = t.x(mn)
	w, err := encode(mn)
	if err != nil {
		panic(err)
	}
	if !macro {
		out.raw(fmt.Sprintf("\tWORD $0x%08X // %s%s", w, mn, t.x(note)))
		return
	}
	s := fmt.Sprintf("\tWORD $0x%08X /* %s%s */", w, mn, t.x(note))
	if cont {
		s += "; \\"
	}
	out.raw(s)
}
