package main

// elem is the element type of a kernel, float32 or float64: the NEON
// kernels come in pairs written by one Go function over an elem, which
// gives the kernel's suffix, the arrangement of its vector registers
// (unless an operand names another) and its scalar instructions, FMOVS or
// FMOVD and so on, as methods (the Go assembler's operand order).
type elem struct {
	a      *asm
	size   int    // bytes
	suffix string // of the kernel's name: F32, F64; none for a kernel of one type
	arr    arrangement
}

var (
	elemF32     = elem{size: 4, suffix: "F32", arr: S4}
	elemF64     = elem{size: 8, suffix: "F64", arr: D2}
	elemF64Only = elem{size: 8, arr: D2}
)

// pick returns f32 for float32 and f64 for float64.
func (t elem) pick(f32, f64 string) string {
	if t.size == 4 {
		return f32
	}
	return f64
}

// lanes is the number of elements in a vector register.
func (t elem) lanes() int { return 16 / t.size }

// log2 returns the base-2 logarithm of n, a power of 2.
func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// F64 returns the float64 scalar instructions, for a float32 kernel that
// widens.
func (a *asm) F64() elem {
	t := elemF64
	t.a = a
	return t
}

// scalar returns the name of the scalar instruction mn for the type.
func (t elem) scalar(mn string) string { return mn + t.arr.elem }

func (t elem) FMOV(src, dst operand) *line { return t.a.op(t.arr, t.scalar("FMOV"), src, dst) }

// FMOVP is FMOVS.P (FMOVD.P): a post-indexed load or store.
func (t elem) FMOVP(src, dst operand) *line {
	return t.a.op(t.arr, t.scalar("FMOV")+".P", src, dst)
}

func (t elem) FADD(m, n, d freg) *line { return t.a.op(t.arr, t.scalar("FADD"), m, n, d) }
func (t elem) FSUB(m, n, d freg) *line { return t.a.op(t.arr, t.scalar("FSUB"), m, n, d) }
func (t elem) FMUL(m, n, d freg) *line { return t.a.op(t.arr, t.scalar("FMUL"), m, n, d) }
func (t elem) FDIV(m, n, d freg) *line { return t.a.op(t.arr, t.scalar("FDIV"), m, n, d) }
func (t elem) FMAX(m, n, d freg) *line { return t.a.op(t.arr, t.scalar("FMAX"), m, n, d) }
func (t elem) FSQRT(n, d freg) *line   { return t.a.op(t.arr, t.scalar("FSQRT"), n, d) }
func (t elem) FCMP(m, n operand) *line { return t.a.op(t.arr, t.scalar("FCMP"), m, n) }

// FMADD is d = a + n·m, fused.
func (t elem) FMADD(m, a, n, d freg) *line {
	return t.a.op(t.arr, t.scalar("FMADD"), m, a, n, d)
}
