package main

import "fmt"

// neonEW is an element-wise kernel of simd_arm64.s: n in R7, the
// pointers in R0, R1, …, the scalars broadcast into vector registers,
// blocks of four vectors (loop, counted in R8), then a scalar tail
// (tail, one element per iteration) with the same instructions in the
// same order.
type neonEW struct {
	name, sig  string   // the kernel without its suffix; its parameters, ⟨T⟩ the type
	doc        []string // the comment lines between "// func" and TEXT
	ptrs       []string // the pointer parameters, into R0, R1, …
	scalars    []neonScalar
	setup      func() // after the scalars, if not nil
	loop, tail func()
}

// neonScalar is a scalar parameter, broadcast into Vreg.
type neonScalar struct {
	name string
	reg  int
}

// neonElementwise writes the kernel k for t.
func neonElementwise(t *typ, k neonEW) {
	name := k.name + "⟨F⟩"
	p(t, "// func "+name+"("+k.sig+")")
	for _, d := range k.doc {
		p(t, d)
	}
	args := 8 + 8*len(k.ptrs) + t.size*len(k.scalars)
	p(t, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT|NOFRAME, $0-%d", name, args))
	p(t, "\tMOVD n+0(FP), R7")
	for i, ptr := range k.ptrs {
		p(t, fmt.Sprintf("\tMOVD %s+%d(FP), R%d", ptr, 8+8*i, i))
	}
	for i, sc := range k.scalars {
		p(t, fmt.Sprintf("\tFMOV⟨S⟩ %s+%d(FP), F%d", sc.name, 8+8*len(k.ptrs)+t.size*i, sc.reg))
		p(t, fmt.Sprintf("\tVDUP V%d.⟨S⟩[0], V%d.⟨A⟩", sc.reg, sc.reg))
	}
	if k.setup != nil {
		k.setup()
	}
	p(t, "\tLSR $⟨4|3⟩, R7, R8 // blocks of ⟨16|8⟩")
	p(t, "\tCBZ R8, "+name+"_tail")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, name+"_loop:")
	k.loop()
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE "+name+"_loop")
	p(t, "")
	p(t, name+"_tail:")
	p(t, "\tAND $⟨15|7⟩, R7, R8")
	p(t, "\tCBZ R8, "+name+"_done")
	p(t, "")
	p(t, name+"_tail_loop:")
	k.tail()
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE "+name+"_tail_loop")
	p(t, "")
	p(t, name+"_done:")
	p(t, "\tRET")
	p(t, "")
}
