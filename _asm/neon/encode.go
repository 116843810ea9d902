package main

import (
	"fmt"
	"regexp"
	"strconv"
)

// The encodings of the NEON floating-point instructions that the Go
// assembler lacks (ARM DDI 0487, C7.2), with d, n, m the register numbers,
// Q = 1 for 128-bit vectors and sz = 0 for .4S (.2S), 1 for .2D:
//
//	FADD  Vd, Vn, Vm          0x0E20D400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FSUB  Vd, Vn, Vm          0x0EA0D400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FMUL  Vd, Vn, Vm          0x2E20DC00 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FDIV  Vd, Vn, Vm          0x2E20FC00 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FMAX  Vd, Vn, Vm          0x0E20F400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FADDP Vd, Vn, Vm          0x2E20D400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FCMEQ Vd, Vn, Vm          0x0E20E400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FCMGE Vd, Vn, Vm          0x2E20E400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FCMGT Vd, Vn, Vm          0x2EA0E400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FSQRT Vd, Vn              0x2EA1F800 | Q<<30 | sz<<22 |         n<<5 | d
//	FABS  Vd, Vn              0x0EA0F800 | Q<<30 | sz<<22 |         n<<5 | d
//	FNEG  Vd, Vn              0x2EA0F800 | Q<<30 | sz<<22 |         n<<5 | d
//	FRINTN Vd, Vn (to even)   0x0E218800 | Q<<30 | sz<<22 |         n<<5 | d
//	FRINTM Vd, Vn (floor)     0x0E219800 | Q<<30 | sz<<22 |         n<<5 | d
//	FRINTZ Vd, Vn (truncate)  0x0EA19800 | Q<<30 | sz<<22 |         n<<5 | d
//	FCMEQ Vd, Vn, #0          0x0EA0D800 | Q<<30 | sz<<22 |         n<<5 | d
//	FCMGE Vd, Vn, #0          0x2EA0C800 | Q<<30 | sz<<22 |         n<<5 | d
//	FCMGT Vd, Vn, #0          0x0EA0C800 | Q<<30 | sz<<22 |         n<<5 | d
//	FADDP Sd, Vn.2S (scalar)  0x7E30D800 |         sz<<22 |         n<<5 | d
//	FCVTL(2) Vd.2D, Vn.2S/4S  0x0E617800 | Q<<30 |                  n<<5 | d
//	FCVTN(2) Vd.2S/4S, Vn.2D  0x0E616800 | Q<<30 |                  n<<5 | d
var (
	three = map[string]uint32{
		"FADD": 0x0E20D400, "FSUB": 0x0EA0D400, "FMUL": 0x2E20DC00, "FDIV": 0x2E20FC00,
		"FMAX": 0x0E20F400, "FADDP": 0x2E20D400, "FCMEQ": 0x0E20E400, "FCMGE": 0x2E20E400,
		"FCMGT": 0x2EA0E400,
	}
	two = map[string]uint32{
		"FSQRT": 0x2EA1F800, "FABS": 0x0EA0F800, "FNEG": 0x2EA0F800,
		"FRINTN": 0x0E218800, "FRINTM": 0x0E219800, "FRINTZ": 0x0EA19800,
	}
	withZero = map[string]uint32{"FCMEQ": 0x0EA0D800, "FCMGE": 0x2EA0C800, "FCMGT": 0x0EA0C800}

	vregSyntax   = regexp.MustCompile(`^V(\d+)\.(4S|2S|2D)$`)
	scalarSyntax = regexp.MustCompile(`^([SD])(\d+)$`)
	syntax       = regexp.MustCompile(`^(\w+) +(.*)$`)
	comma        = regexp.MustCompile(`\s*,\s*`)
)

// encode returns the instruction word of mn, in ARM syntax, e.g.
// "FMUL V0.2D, V1.2D, V2.2D".
func encode(mn string) (uint32, error) {
	m := syntax.FindStringSubmatch(mn)
	if m == nil {
		return 0, fmt.Errorf("encode %q: not an instruction", mn)
	}
	op, args := m[1], comma.Split(m[2], -1)
	type reg struct {
		n   uint32
		arr string
	}
	var regs []reg
	for _, a := range args {
		if a == "#0" {
			continue
		}
		if v := vregSyntax.FindStringSubmatch(a); v != nil {
			n, _ := strconv.Atoi(v[1])
			regs = append(regs, reg{uint32(n), v[2]})
		} else if s := scalarSyntax.FindStringSubmatch(a); s != nil {
			n, _ := strconv.Atoi(s[2])
			regs = append(regs, reg{uint32(n), s[1]})
		} else {
			return 0, fmt.Errorf("encode %q: operand %q", mn, a)
		}
	}
	qsz := func(arr string) uint32 {
		switch arr {
		case "4S":
			return 1 << 30
		case "2D":
			return 1<<30 | 1<<22
		}
		return 0 // 2S
	}
	bad := fmt.Errorf("encode %q: unknown form", mn)
	hasZero := args[len(args)-1] == "#0"
	switch {
	case op == "FADDP" && len(regs) == 2: // FADDP Sd, Vn.2S / Dd, Vn.2D
		var sz uint32
		if regs[0].arr == "D" {
			sz = 1 << 22
		}
		return 0x7E30D800 | sz | regs[1].n<<5 | regs[0].n, nil
	case op == "FCVTL" || op == "FCVTL2":
		var q uint32
		if op == "FCVTL2" {
			q = 1 << 30
		}
		return 0x0E617800 | q | regs[1].n<<5 | regs[0].n, nil
	case op == "FCVTN" || op == "FCVTN2":
		var q uint32
		if op == "FCVTN2" {
			q = 1 << 30
		}
		return 0x0E616800 | q | regs[1].n<<5 | regs[0].n, nil
	case hasZero && len(regs) == 2:
		if base, ok := withZero[op]; ok {
			return base | qsz(regs[0].arr) | regs[1].n<<5 | regs[0].n, nil
		}
	case len(regs) == 3:
		if base, ok := three[op]; ok {
			return base | qsz(regs[0].arr) | regs[2].n<<16 | regs[1].n<<5 | regs[0].n, nil
		}
	case len(regs) == 2:
		if base, ok := two[op]; ok {
			return base | qsz(regs[0].arr) | regs[1].n<<5 | regs[0].n, nil
		}
	}
	return 0, bad
}
