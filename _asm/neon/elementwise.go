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
	// finite: the kernel returns whether every value it stores is finite;
	// loop and tail check each stored value with neonCheck and
	// neonCheckScalar, into V30.
	finite bool
}

// neonScalar is a scalar parameter, broadcast into Vreg.
type neonScalar struct {
	name string
	reg  int
}

// neonElementwise writes the kernel k for t.
func neonElementwise(t *typ, k neonEW) {
	name := k.name + "⟨F⟩"
	args := 8 + 8*len(k.ptrs) + t.size*len(k.scalars)
	frame, ret, result := args, (args+7)&^7, "" // the bool result, 8-byte aligned
	if k.finite {
		frame, result = ret+1, " bool"
		k.doc = append(k.doc, "//", "// It returns whether every value it stores is finite: the sum of v − v", "// over them, in V30, is 0.")
	}
	p(t, "// func "+name+"("+k.sig+")"+result)
	for _, d := range k.doc {
		p(t, d)
	}
	p(t, fmt.Sprintf("TEXT ·%s(SB), NOSPLIT|NOFRAME, $0-%d", name, frame))
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
	if k.finite {
		p(t, "\tVEOR V30.B16, V30.B16, V30.B16")
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
	if k.finite {
		// The blocks' sum, into F30 for the tail.
		if t.size == 4 {
			word(t, "FADDP V30.4S, V30.4S, V30.4S", "", false, false)
			word(t, "FADDP S30, V30.2S", "", false, false)
		} else {
			word(t, "FADDP D30, V30.2D", "", false, false)
		}
	}
	p(t, "\tAND $⟨15|7⟩, R7, R8")
	p(t, "\tCBZ R8, "+name+"_done")
	p(t, "")
	p(t, name+"_tail_loop:")
	k.tail()
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE "+name+"_tail_loop")
	p(t, "")
	p(t, name+"_done:")
	if k.finite {
		p(t, "\tFCMP⟨S⟩ $(0.0), F30")
		p(t, "\tCSET EQ, R0")
		p(t, fmt.Sprintf("\tMOVB R0, ret+%d(FP)", ret))
	}
	p(t, "\tRET")
	p(t, "")
}

// neonCheck adds v − v (0 for a finite v, NaN otherwise) of the four
// vectors from V<first> into V30, through V20–V23, summed as a tree so
// that V30 takes one addition per four vectors.
func neonCheck(t *typ, first int) {
	for i := 0; i < 4; i++ {
		word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 20+i, first+i, first+i), "", false, false)
	}
	word(t, "FADD V20.⟨AA⟩, V20.⟨AA⟩, V21.⟨AA⟩", "", false, false)
	word(t, "FADD V22.⟨AA⟩, V22.⟨AA⟩, V23.⟨AA⟩", "", false, false)
	word(t, "FADD V20.⟨AA⟩, V20.⟨AA⟩, V22.⟨AA⟩", "", false, false)
	word(t, "FADD V30.⟨AA⟩, V30.⟨AA⟩, V20.⟨AA⟩", "", false, false)
}

// neonCheckScalar is neonCheck for the scalar F<reg> of a tail, into F30.
func neonCheckScalar(t *typ, reg int) {
	p(t, f("\tFSUB⟨S⟩ F%d, F%d, F20", reg, reg))
	p(t, "\tFADD⟨S⟩ F20, F30, F30")
}
