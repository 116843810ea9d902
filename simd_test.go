package gcp

// Differential tests of every assembly kernel table this machine runs
// (ktTables: AVX2+FMA and AVX-512 on amd64, as the CPU has them, and NEON
// on arm64) against the pure-Go table (genericKernelsFor), entry by
// entry, in float32 and float64.
//
// Every operand lives at an offset of 0–3 elements inside a buffer whose
// other elements (the offset, the gaps of a leading dimension larger than
// the width, and guards past the end) hold a marked NaN: after each call
// the tests check that no marked element changed, that read-only operands
// are bit-for-bit unmodified, and that the outputs agree with the generic
// kernel:
//
//   - element-wise kernels bit for bit (any NaN matches any NaN, as Go does
//     not specify NaN payloads), since both round every product on its own;
//   - reductions and fused multiply-add chains within 2(k+2)·u·Σ|terms|,
//     u the unit roundoff: either summation order, with or without fused
//     products, is within (k+1)·u·Σ|terms| of the exact sum (Higham,
//     Accuracy and Stability, §3.1), so two orders differ by at most twice
//     that; a NaN or ±Inf must come out as the same NaN or ±Inf.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// ktWantNames returns the names of the assembly tables this machine must
// have, the last the one models use, so that a CI leg that should run
// assembly (amd64 with AVX2+FMA, with AVX-512 or without, or arm64)
// cannot pass on a fallback; none for the generic path.
func ktWantNames() []string {
	if puregoTag || runtime.Compiler != "gc" {
		return nil
	}
	switch runtime.GOARCH {
	case "amd64":
		if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
			return nil
		}
		if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW {
			return []string{"avx2fma", "avx512"}
		}
		return []string{"avx2fma"}
	case "arm64":
		return []string{"neon"}
	}
	return nil
}

// ktTables returns the assembly tables of T this machine runs, each to be
// compared with the generic table; with none (the purego tag, another
// architecture, an older CPU) the generic table itself, so that the
// harness still runs.
func ktTables[T Float]() []*kernelSet[T] {
	var z T
	if _, ok := any(z).(float32); ok {
		if len(asmTables32) > 0 {
			return any(asmTables32).([]*kernelSet[T])
		}
	} else if len(asmTables64) > 0 {
		return any(asmTables64).([]*kernelSet[T])
	}
	return []*kernelSet[T]{genericKernelsFor[T]()}
}

// ktRun runs f32 and f64 as subtests, once for each table of ktTables,
// named after the table and the type.
func ktRun(t *testing.T, f32 func(*testing.T, *kernelSet[float32]), f64 func(*testing.T, *kernelSet[float64])) {
	for _, k := range ktTables[float32]() {
		t.Run(k.name+"/float32", func(t *testing.T) { f32(t, k) })
	}
	for _, k := range ktTables[float64]() {
		t.Run(k.name+"/float64", func(t *testing.T) { f64(t, k) })
	}
}

func TestKernelPath(t *testing.T) {
	want := ktWantNames()
	t.Logf("GOARCH=%s compiler=%s purego=%v AVX2=%v FMA=%v AVX512F=%v: kernels %q (float32), %q (float64)",
		runtime.GOARCH, runtime.Compiler, puregoTag, cpu.X86.HasAVX2, cpu.X86.HasFMA, cpu.X86.HasAVX512F,
		kernelsFor[float32]().name, kernelsFor[float64]().name)
	active := "generic"
	if len(want) > 0 {
		active = want[len(want)-1]
	}
	for _, got := range []string{kernelsFor[float32]().name, kernelsFor[float64]().name} {
		if got != active {
			t.Errorf("active kernels are %q, want %q", got, active)
		}
	}
	var names32, names64 []string
	for i := range asmTables32 {
		names32, names64 = append(names32, asmTables32[i].name), append(names64, asmTables64[i].name)
	}
	if !slices.Equal(names32, want) || !slices.Equal(names64, want) {
		t.Errorf("assembly tables %q (float32), %q (float64), want %q", names32, names64, want)
	}
	if n := genericKernelsFor[float32]().name; n != "generic" {
		t.Errorf("generic float32 table is named %q", n)
	}
	if n := genericKernelsFor[float64]().name; n != "generic" {
		t.Errorf("generic float64 table is named %q", n)
	}
}

// ktCovered lists the kernel table's entries and the test that compares
// each one; TestKernelCoverage fails when an entry is added without a test.
var ktCovered = map[string]string{
	"linearForward":         "TestKernelLinear",
	"linearBackwardWeights": "TestKernelLinear",
	"linearBackwardInput":   "TestKernelLinear",
	"outputForward":         "TestKernelLinear",
	"outputBackward":        "TestKernelOutputBackward",
	"tanh":                  "TestKernelElementwise, TestKernelTanhSweep",
	"mul":                   "TestKernelElementwise",
	"mulTo":                 "TestKernelElementwise",
	"reluBackward":          "TestKernelElementwise",
	"tanhBackward":          "TestKernelElementwise",
	"axpy":                  "TestKernelElementwise",
	"scale":                 "TestKernelElementwise",
	"sumSquares":            "TestKernelElementwise",
	"allFinite":             "TestKernelElementwise",
	"sgd":                   "TestKernelElementwise, TestKernelOptimizerFinite",
	"nesterov":              "TestKernelElementwise, TestKernelOptimizerFinite",
	"rmsprop":               "TestKernelElementwise, TestKernelOptimizerFinite",
	"adam":                  "TestKernelElementwise, TestKernelOptimizerFinite",
	"gcpLoss":               "TestKernelGCPLoss",
	"softplus":              "TestKernelSoftplus",
	"standardize":           "TestKernelStandardize",
	"dropoutMask":           "TestKernelDropoutMask",
}

func TestKernelCoverage(t *testing.T) {
	typ := reflect.TypeOf(kernelSet[float32]{})
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Func {
			continue
		}
		if _, ok := ktCovered[f.Name]; !ok {
			t.Errorf("kernel %s has no differential test", f.Name)
		}
	}
	var tables []any
	for _, k := range ktTables[float32]() {
		tables = append(tables, k)
	}
	for _, k := range ktTables[float64]() {
		tables = append(tables, k)
	}
	for _, k := range tables {
		v := reflect.ValueOf(k).Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Kind() == reflect.Func && f.IsNil() {
				t.Errorf("%s: kernel %s is nil", v.Type(), v.Type().Field(i).Name)
			}
		}
	}
}

// --- helpers -------------------------------------------------------------

// ktUnit returns the unit roundoff of T.
func ktUnit[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}

func ktTypeName[T Float]() string {
	var z T
	return fmt.Sprintf("%T", z)
}

// ktGuard returns the marked NaN, with the payload id, that fills every
// element of an operand's buffer a kernel must not write; ktBits returns
// the bits of v for exact comparison. Each operand gets its own id
// (ktGuardSeq), so that a kernel that copies another operand's guards into
// this one's, say bias elements read past the end stored past the end of
// the output, changes their bits.
func ktGuard[T Float](id uint16) T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(math.Float32frombits(0x7fc50000 | uint32(id)))
	}
	return T(math.Float64frombits(0x7ff8a5a5a5a50000 | uint64(id)))
}

// ktGuardSeq numbers the operands the tests make, for their guards.
var ktGuardSeq uint16

func ktBits[T Float](v T) uint64 {
	switch x := any(v).(type) {
	case float32:
		return uint64(math.Float32bits(x))
	case float64:
		return math.Float64bits(x)
	}
	panic("unreachable")
}

// ktSame reports whether a and b are the same value: both NaN (any
// payload), or equal bits (so +0 and −0 differ).
func ktSame[T Float](a, b T) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return ktBits(a) == ktBits(b)
}

// ktClose reports whether a is within tol of the reference g, where a NaN
// or ±Inf reference must be matched exactly (class and sign).
func ktClose[T Float](a, g T, tol float64) bool {
	ga, gg := float64(a), float64(g)
	switch {
	case math.IsNaN(gg):
		return math.IsNaN(ga)
	case math.IsInf(gg, 0):
		return ga == gg
	case math.IsNaN(ga) || math.IsInf(ga, 0):
		return false
	}
	return math.Abs(ga-gg) <= tol
}

// ktMat is a matrix operand of rows × cols with row stride ld at offset off
// inside buf; every element of buf outside it is a guard.
type ktMat[T Float] struct {
	buf                 []T
	off, rows, cols, ld int
	guard               T // the value of the guards
}

const ktGuardLen = 9 // guard elements past the end of every operand

func ktNewMat[T Float](r *rand.Rand, off, rows, cols, ld int) *ktMat[T] {
	size := 0
	if rows > 0 {
		size = (rows-1)*ld + cols
	}
	ktGuardSeq++
	m := &ktMat[T]{buf: make([]T, off+size+ktGuardLen), off: off, rows: rows, cols: cols, ld: ld, guard: ktGuard[T](ktGuardSeq)}
	for i := range m.buf {
		m.buf[i] = m.guard
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			m.buf[off+i*ld+j] = T(r.NormFloat64())
		}
	}
	return m
}

// s returns the operand as the kernels see it: from its first element to
// its last, with the capacity cut there so that a generic kernel cannot
// reach the guards either.
func (m *ktMat[T]) s() []T {
	size := 0
	if m.rows > 0 {
		size = (m.rows-1)*m.ld + m.cols
	}
	return m.buf[m.off : m.off+size : m.off+size]
}

func (m *ktMat[T]) at(i, j int) T     { return m.buf[m.off+i*m.ld+j] }
func (m *ktMat[T]) set(i, j int, v T) { m.buf[m.off+i*m.ld+j] = v }

func (m *ktMat[T]) clone() *ktMat[T] {
	c := *m
	c.buf = slices.Clone(m.buf)
	return &c
}

// inside reports whether buf index x is an element of the matrix.
func (m *ktMat[T]) inside(x int) bool {
	x -= m.off
	if x < 0 || m.rows == 0 || m.cols == 0 {
		return false
	}
	i, j := x/m.ld, x%m.ld
	return i < m.rows && j < m.cols
}

// checkGuards fails tb if a guard element of m changed.
func (m *ktMat[T]) checkGuards(tb testing.TB, what string) {
	tb.Helper()
	g := ktBits(m.guard)
	for x, v := range m.buf {
		if !m.inside(x) && ktBits(v) != g {
			tb.Fatalf("%s: guard element %d (operand at offset %d, %d×%d, ld %d) overwritten with %v", what, x, m.off, m.rows, m.cols, m.ld, v)
		}
	}
}

// checkUnchanged fails tb unless m is bit for bit equal to before.
func (m *ktMat[T]) checkUnchanged(tb testing.TB, before *ktMat[T], what string) {
	tb.Helper()
	for x := range m.buf {
		if ktBits(m.buf[x]) != ktBits(before.buf[x]) {
			tb.Fatalf("%s: read-only operand modified at element %d: %v, was %v", what, x, m.buf[x], before.buf[x])
		}
	}
}

// --- matrix kernels -------------------------------------------------------

// ktShape is one call of the three layer kernels: m rows of inputs of width
// k, n outputs; the leading dimensions exceed the widths by padX/padY.
type ktShape struct {
	m, n, k    int
	off        int
	padX, padY int
	relu       bool
}

func (s ktShape) String() string {
	return fmt.Sprintf("m=%d,n=%d,k=%d,off=%d,padX=%d,padY=%d,relu=%v", s.m, s.n, s.k, s.off, s.padX, s.padY, s.relu)
}

// ktShapes returns the shapes of TestKernelLinear: every n in 0..70 and
// every k in 0..70 with small m (across the 16- and 64-wide column tiles,
// the 4-wide dot tiles and the 8-wide reductions and their masked tails),
// every m in 0..13 (across the 6- and 3-row tiles), single rows from 104
// columns on (the wide tiles of gemmBcast1F32, whose last one overlaps the
// one before by any amount), a few large ones, each at offsets 0–3 and
// with and without padded leading dimensions.
func ktShapes() []ktShape {
	var ss []ktShape
	i := 0
	add := func(m, n, k int) {
		for off := 0; off < 4; off++ {
			pads := [][2]int{{0, 0}, {3, 1}, {1, 5}}[i%3]
			ss = append(ss, ktShape{m: m, n: n, k: k, off: off, padX: pads[0], padY: pads[1], relu: (i+off)%2 == 0})
		}
		i++
	}
	for n := 0; n <= 70; n++ {
		for _, mk := range [][2]int{{1, 3}, {2, 1}, {7, 5}, {6, 13}} {
			add(mk[0], n, mk[1])
		}
	}
	for k := 0; k <= 70; k++ {
		for _, mn := range [][2]int{{1, 1}, {4, 3}, {9, 17}, {3, 1}} {
			add(mn[0], mn[1], k)
		}
	}
	for m := 0; m <= 13; m++ {
		for _, nk := range [][2]int{{1, 13}, {5, 8}, {16, 1}, {40, 0}, {65, 9}, {2, 31}} {
			add(m, nk[0], nk[1])
		}
	}
	for _, n := range []int{103, 104, 105, 111, 112, 150, 207, 208, 209, 311} {
		for _, k := range []int{0, 1, 13} {
			add(1, n, k)
		}
	}
	for _, s := range [][3]int{{64, 400, 90}, {5, 200, 13}, {1, 200, 13}, {256, 100, 50}, {33, 129, 70}, {1, 400, 90}, {5, 1, 100}} {
		add(s[0], s[1], s[2])
	}
	return ss
}

// ktCheckLinear runs the three layer kernels of act and gen on random
// operands of shape s and compares them; a non-nil plant may overwrite
// operand elements (x, w, b, dy) with NaN or ±Inf before the calls.
func ktCheckLinear[T Float](tb testing.TB, act, gen *kernelSet[T], s ktShape, r *rand.Rand, plant func(x, w, b, dy *ktMat[T])) {
	tb.Helper()
	u := ktUnit[T]()
	m, n, k := s.m, s.n, s.k
	ldx, ldy := k+s.padX, n+s.padY
	x := ktNewMat[T](r, s.off, m, k, ldx)
	w := ktNewMat[T](r, (s.off+1)%4, k, n, n)
	b := ktNewMat[T](r, (s.off+2)%4, 1, n, n)
	dy := ktNewMat[T](r, (s.off+3)%4, m, n, ldy)
	if plant != nil {
		plant(x, w, b, dy)
	}
	inputs := []*ktMat[T]{x, w, b, dy}
	var saved []*ktMat[T]
	for _, v := range inputs {
		saved = append(saved, v.clone())
	}
	checkInputs := func(what string) {
		tb.Helper()
		for i, v := range inputs {
			v.checkUnchanged(tb, saved[i], what)
		}
	}

	// Forward: y = x·w + b, ReLU or not.
	y := ktNewMat[T](r, (s.off+2)%4, m, n, ldy)
	yg := y.clone()
	act.linearForward(m, n, k, x.s(), ldx, w.s(), b.s(), y.s(), ldy, s.relu)
	gen.linearForward(m, n, k, x.s(), ldx, w.s(), b.s(), yg.s(), ldy, s.relu)
	what := fmt.Sprintf("%s linearForward %v", ktTypeName[T](), s)
	y.checkGuards(tb, what)
	checkInputs(what)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			// k+1 terms: the bias and the k products.
			terms := math.Abs(float64(b.at(0, j)))
			for p := 0; p < k; p++ {
				terms += math.Abs(float64(x.at(i, p)) * float64(w.at(p, j)))
			}
			if !ktClose(y.at(i, j), yg.at(i, j), 2*float64(k+2)*u*terms) {
				tb.Fatalf("%s: y[%d,%d] = %v, generic %v (Σ|terms| %g)", what, i, j, y.at(i, j), yg.at(i, j), terms)
			}
		}
	}

	// Backward weights: dw += xᵀ·dy, db += column sums, onto random dw, db.
	dw := ktNewMat[T](r, (s.off+3)%4, k, n, n)
	db := ktNewMat[T](r, s.off, 1, n, n)
	dwg, dbg := dw.clone(), db.clone()
	dw0, db0 := dw.clone(), db.clone()
	act.linearBackwardWeights(m, n, k, dy.s(), ldy, x.s(), ldx, dw.s(), db.s())
	gen.linearBackwardWeights(m, n, k, dy.s(), ldy, x.s(), ldx, dwg.s(), dbg.s())
	what = fmt.Sprintf("%s linearBackwardWeights %v", ktTypeName[T](), s)
	dw.checkGuards(tb, what)
	db.checkGuards(tb, what)
	checkInputs(what)
	for j := 0; j < n; j++ {
		// m+1 terms: the old value and one per row.
		terms := math.Abs(float64(db0.at(0, j)))
		for i := 0; i < m; i++ {
			terms += math.Abs(float64(dy.at(i, j)))
		}
		if !ktClose(db.at(0, j), dbg.at(0, j), 2*float64(m+2)*u*terms) {
			tb.Fatalf("%s: db[%d] = %v, generic %v", what, j, db.at(0, j), dbg.at(0, j))
		}
		for p := 0; p < k; p++ {
			terms := math.Abs(float64(dw0.at(p, j)))
			for i := 0; i < m; i++ {
				terms += math.Abs(float64(x.at(i, p)) * float64(dy.at(i, j)))
			}
			if !ktClose(dw.at(p, j), dwg.at(p, j), 2*float64(m+2)*u*terms) {
				tb.Fatalf("%s: dw[%d,%d] = %v, generic %v", what, p, j, dw.at(p, j), dwg.at(p, j))
			}
		}
	}
	// A nil db (backward's last hidden layer, whose bias gradient
	// outputBackward sums): the same dw, bit for bit.
	dwNil := dw0.clone()
	act.linearBackwardWeights(m, n, k, dy.s(), ldy, x.s(), ldx, dwNil.s(), nil)
	dwNil.checkGuards(tb, what+" db=nil")
	for e := range dw.buf {
		if ktBits(dwNil.buf[e]) != ktBits(dw.buf[e]) {
			tb.Fatalf("%s: with db nil, dw element %d = %v, with db %v", what, e, dwNil.buf[e], dw.buf[e])
		}
	}

	// Backward input: dx = dy·wᵀ, overwriting random dx.
	dx := ktNewMat[T](r, (s.off+1)%4, m, k, ldx)
	dxg := dx.clone()
	act.linearBackwardInput(m, n, k, dy.s(), ldy, w.s(), dx.s(), ldx)
	gen.linearBackwardInput(m, n, k, dy.s(), ldy, w.s(), dxg.s(), ldx)
	what = fmt.Sprintf("%s linearBackwardInput %v", ktTypeName[T](), s)
	dx.checkGuards(tb, what)
	checkInputs(what)
	for i := 0; i < m; i++ {
		for p := 0; p < k; p++ {
			terms := 0.0
			for j := 0; j < n; j++ {
				terms += math.Abs(float64(dy.at(i, j)) * float64(w.at(p, j)))
			}
			if !ktClose(dx.at(i, p), dxg.at(i, p), 2*float64(n+2)*u*terms) {
				tb.Fatalf("%s: dx[%d,%d] = %v, generic %v", what, i, p, dx.at(i, p), dxg.at(i, p))
			}
		}
	}
}

// ktCheckOutput runs outputForward of act and gen on random operands of
// shape s, read as s.m rows, s.n heads and s.k inputs per head (x's
// leading dimension exceeds its width n·k by padX), and compares them; a
// non-nil plant may overwrite elements of x, w and b first.
func ktCheckOutput[T Float](tb testing.TB, act, gen *kernelSet[T], s ktShape, r *rand.Rand, plant func(x, w, b *ktMat[T])) {
	tb.Helper()
	u := ktUnit[T]()
	m, heads, k := s.m, s.n, s.k
	ldx := heads*k + s.padX
	x := ktNewMat[T](r, s.off, m, heads*k, ldx)
	w := ktNewMat[T](r, (s.off+1)%4, 1, heads*k, heads*k)
	b := ktNewMat[T](r, (s.off+2)%4, 1, heads, heads)
	if plant != nil {
		plant(x, w, b)
	}
	inputs := []*ktMat[T]{x, w, b}
	var saved []*ktMat[T]
	for _, v := range inputs {
		saved = append(saved, v.clone())
	}
	y := ktNewMat[T](r, (s.off+3)%4, 1, heads*m, heads*m)
	yg := y.clone()
	act.outputForward(m, heads, k, x.s(), ldx, w.s(), b.s(), y.s())
	gen.outputForward(m, heads, k, x.s(), ldx, w.s(), b.s(), yg.s())
	what := fmt.Sprintf("%s outputForward %v", ktTypeName[T](), s)
	y.checkGuards(tb, what)
	for i, v := range inputs {
		v.checkUnchanged(tb, saved[i], what)
	}
	for h := 0; h < heads; h++ {
		for i := 0; i < m; i++ {
			// k+1 terms: the bias and the k products.
			terms := math.Abs(float64(b.at(0, h)))
			for p := 0; p < k; p++ {
				terms += math.Abs(float64(x.at(i, h*k+p)) * float64(w.at(0, h*k+p)))
			}
			if a, g := y.at(0, h*m+i), yg.at(0, h*m+i); !ktClose(a, g, 2*float64(k+2)*u*terms) {
				tb.Fatalf("%s: head %d row %d = %v, generic %v (Σ|terms| %g)", what, h, i, a, g, terms)
			}
		}
	}
}

func ktTestLinear[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(1, 2))
	for i, s := range ktShapes() {
		if testing.Short() && (i%4 != s.off || s.m*s.n*s.k > 50000) { // one offset per shape, no large ones
			continue
		}
		ktCheckLinear(t, act, gen, s, r, nil)
		ktCheckOutput(t, act, gen, s, r, nil)
	}
}

// TestOutputForwardRowsAlone requires each output of outputForward over
// many rows the same bits as the row's alone: the AVX2 kernel sums a
// group of rows across lanes together, with the additions it makes for
// one row, so that batching never changes a model.
func TestOutputForwardRowsAlone(t *testing.T) {
	ktRun(t, ktTestOutputRowsAlone[float32], ktTestOutputRowsAlone[float64])
}

func ktTestOutputRowsAlone[T Float](t *testing.T, act *kernelSet[T]) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{4, 5, 6, 7, 8, 9, 17, 32} {
		for _, k := range []int{1, 3, 4, 7, 8, 9, 31, 32, 33, 50, 67} {
			heads := 1 + r.IntN(4)
			ldx := heads*k + r.IntN(3)
			x := ktNewMat[T](r, r.IntN(4), m, heads*k, ldx)
			w := ktNewMat[T](r, 0, 1, heads*k, heads*k)
			b := ktNewMat[T](r, 0, 1, heads, heads)
			if r.IntN(2) == 0 {
				x.set(r.IntN(m), r.IntN(heads*k), T(math.Inf(1)))
			}
			y := make([]T, heads*m)
			act.outputForward(m, heads, k, x.s(), ldx, w.s(), b.s(), y)
			one := make([]T, heads)
			for i := 0; i < m; i++ {
				act.outputForward(1, heads, k, x.s()[i*ldx:], ldx, w.s(), b.s(), one)
				for h, v := range one {
					if ktBits(y[h*m+i]) != ktBits(v) {
						t.Fatalf("m=%d heads=%d k=%d: head %d row %d = %v, alone %v", m, heads, k, h, i, y[h*m+i], v)
					}
				}
			}
		}
	}
}

// ktCheckOutputBackward runs outputBackward of act on random operands of
// m rows, heads heads of k inputs, with a dropout mask, ReLU activations
// and column sums or without (nil; v's bits 1, 2, 4), and compares it with
// outputBackwardVia over act's own kernels, bit for bit (the fused AVX2
// kernel must do the arithmetic of the passes it replaces), and with the
// generic kernel: dx bit for bit (a product rounded once, masked), dw, db
// and the column sums as sums of m terms. A non-nil plant may overwrite
// elements of the operands first. With v's bit 8 and a mask, the mask is
// a drawn one, each element keep or 0, x is act·mask with ReLU, and keep
// is passed, so that the assembly reads the mask off x: the composition
// and the generic kernel, which read the mask, are the truth.
func ktCheckOutputBackward[T Float](tb testing.TB, act, gen *kernelSet[T], m, heads, k, off, v int, r *rand.Rand, plant func(ops ...*ktMat[T])) {
	tb.Helper()
	masked, relu, sums, drawn := v&1 != 0, v&2 != 0, v&4 != 0, v&8 != 0 && v&1 != 0
	what := fmt.Sprintf("%s outputBackward m=%d heads=%d k=%d off=%d mask=%v relu=%v colsum=%v drawn=%v", ktTypeName[T](), m, heads, k, off, masked, relu, sums, drawn)
	width := heads * k
	newMat := func(i, rows, cols int) *ktMat[T] { return ktNewMat[T](r, (off+i)%4, rows, cols, cols) }
	dy, x, w := newMat(0, 1, heads*m), newMat(1, m, width), newMat(2, 1, width)
	var mask, av *ktMat[T]
	inputs := []*ktMat[T]{dy, x, w}
	if masked {
		mask = newMat(3, m, width)
		inputs = append(inputs, mask)
	}
	if relu {
		av = newMat(4, m, width)
		inputs = append(inputs, av)
	}
	dw, db, dx, col := newMat(5, 1, width), newMat(6, 1, heads), newMat(7, m, width), newMat(8, 1, width)
	if plant != nil {
		plant(append(inputs, dw, db, col)...)
	}
	var keep T
	if drawn {
		keep = dropoutKeep[T](0.05 + 0.5*r.Float64())
		for i := 0; i < m; i++ {
			for j := 0; j < width; j++ {
				mask.set(i, j, keep*T(min(r.IntN(4), 1))) // a quarter dropped
				if relu {
					x.set(i, j, av.at(i, j)*mask.at(i, j))
				}
			}
		}
	}
	var saved []*ktMat[T]
	for _, v := range inputs {
		saved = append(saved, v.clone())
	}
	opt := func(v *ktMat[T]) []T {
		if v == nil {
			return nil
		}
		return v.s()
	}
	outs := [4]*ktMat[T]{dw, db, dx, col}
	run := func(f func(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum []T, keep T)) [4]*ktMat[T] {
		o := [4]*ktMat[T]{dw.clone(), db.clone(), dx.clone(), col.clone()}
		var colsum []T
		if sums {
			colsum = o[3].s()
		}
		f(m, heads, k, dy.s(), x.s(), w.s(), o[0].s(), o[1].s(), o[2].s(), opt(mask), opt(av), colsum, keep)
		for _, v := range o {
			v.checkGuards(tb, what)
		}
		for i, v := range inputs {
			v.checkUnchanged(tb, saved[i], what)
		}
		return o
	}
	got, via, want := run(act.outputBackward), run(outputBackwardVia(act)), run(gen.outputBackward)
	u := ktUnit[T]()
	for o, name := range []string{"dw", "db", "dx", "colsum"} {
		for j, a := range got[o].s() {
			if v := via[o].s()[j]; !ktSame(a, v) {
				tb.Fatalf("%s: %s[%d] = %v (%#x), composed of the table's kernels %v (%#x)", what, name, j, a, ktBits(a), v, ktBits(v))
			}
			g := want[o].s()[j]
			ok := ktSame(a, g)
			if !ok && o != 2 {
				// m terms (and the old value) in one order or another.
				terms := math.Abs(float64(outs[o].s()[j]))
				for i := 0; i < m; i++ {
					switch o {
					case 0:
						terms += math.Abs(float64(dy.at(0, j/k*m+i)) * float64(x.at(i, j)))
					case 1:
						terms += math.Abs(float64(dy.at(0, j*m+i)))
					case 3:
						terms += math.Abs(float64(want[2].at(i, j)))
					}
				}
				ok = ktClose(a, g, 2*float64(m+2)*u*terms)
			}
			if !ok {
				tb.Fatalf("%s: %s[%d] = %v (%#x), generic %v (%#x)", what, name, j, a, ktBits(a), g, ktBits(g))
			}
		}
	}
}

// ktTestOutputBackward runs ktCheckOutputBackward on every small shape,
// with and without mask and ReLU, then on random ones with special values
// planted (NaN, ±Inf, ±0: a zero activation must mask, a NaN one too).
func ktTestOutputBackward[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(9, 10))
	for m := 1; m <= 3; m++ {
		for heads := 1; heads <= 3; heads++ {
			for k := 0; k <= 2*32/int(unsafe.Sizeof(T(0)))+1; k++ {
				for v := 0; v < 16; v++ {
					ktCheckOutputBackward(t, act, gen, m, heads, k, m+k, v, r, nil)
				}
			}
		}
	}
	specials := []T{T(math.NaN()), T(math.Inf(1)), T(math.Inf(-1)), 0, T(math.Copysign(0, -1))}
	plant := func(ops ...*ktMat[T]) {
		for c := 0; c < 1+r.IntN(4); c++ {
			v := ops[r.IntN(len(ops))]
			if v.rows > 0 && v.cols > 0 {
				v.set(r.IntN(v.rows), r.IntN(v.cols), specials[r.IntN(len(specials))])
			}
		}
	}
	for trial := 0; trial < 300; trial++ {
		m := 1 + r.IntN(9)
		if trial%4 == 0 {
			m = 1 + r.IntN(100) // several of the AVX2 kernel's blocks of 32 rows
		}
		ktCheckOutputBackward(t, act, gen, m, 1+r.IntN(6), r.IntN(60), r.IntN(4), r.IntN(16), r, plant)
	}
}

func TestKernelOutputBackward(t *testing.T) {
	ktRun(t, ktTestOutputBackward[float32], ktTestOutputBackward[float64])
}

func TestKernelLinear(t *testing.T) {
	ktRun(t, ktTestLinear[float32], ktTestLinear[float64])
}

// ktTestLinearSpecials plants NaN and ±Inf in the operands: a NaN must
// reach exactly the outputs it reaches in the generic kernels, and an
// infinity must give the same ±Inf, or NaN where two of them cancel or one
// meets a zero.
func ktTestLinearSpecials[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(3, 4))
	nan, inf := T(math.NaN()), T(math.Inf(1))
	pick := func(v *ktMat[T]) (int, int, bool) {
		if v.rows == 0 || v.cols == 0 {
			return 0, 0, false
		}
		return r.IntN(v.rows), r.IntN(v.cols), true
	}
	trials := 400
	if testing.Short() {
		trials = 50
	}
	for trial := 0; trial < trials; trial++ {
		s := ktShape{m: 1 + r.IntN(9), n: 1 + r.IntN(40), k: 1 + r.IntN(40), off: r.IntN(4), padX: r.IntN(3), padY: r.IntN(3), relu: r.IntN(2) == 0}
		if trial%5 == 0 {
			s.n = 1
		}
		plant := func(ops ...*ktMat[T]) {
			for c := 0; c < 1+r.IntN(3); c++ {
				v := ops[r.IntN(len(ops))]
				i, j, ok := pick(v)
				if !ok {
					continue
				}
				switch r.IntN(4) {
				case 0:
					v.set(i, j, nan)
				case 1:
					v.set(i, j, inf)
				case 2:
					v.set(i, j, -inf)
				case 3:
					v.set(i, j, 0) // meets an infinity: Inf·0 = NaN
				}
			}
		}
		ktCheckLinear(t, act, gen, s, r, func(x, w, b, dy *ktMat[T]) { plant(x, w, b, dy) })
		ktCheckOutput(t, act, gen, s, r, func(x, w, b *ktMat[T]) { plant(x, w, b) })
	}
}

func TestKernelLinearSpecials(t *testing.T) {
	ktRun(t, ktTestLinearSpecials[float32], ktTestLinearSpecials[float64])
}

// --- element-wise kernels, reductions and optimizer steps ----------------

// ktVecKernel describes one vector kernel for the harness: its operands by
// role ('o' written, 'u' read and written, 'i' read-only), how many scalars
// it takes, and a call that returns its scalar result (0 if none).
type ktVecKernel[T Float] struct {
	name    string
	roles   string
	scalars int
	// tol, if not nil, returns the tolerance of output element j in units
	// of u, given the operands before the call; nil means bit-exact.
	tol  func(v [][]T, s []T, j int) float64
	call func(k *kernelSet[T], v [][]T, s []T) float64
	// result compares the scalar results: nil for none.
	result func(tb testing.TB, got, want float64, v [][]T)
}

func ktVecKernels[T Float]() []ktVecKernel[T] {
	return []ktVecKernel[T]{
		{name: "mul", roles: "ui", call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.mul(v[0], v[1]); return 0 }},
		{name: "mulTo", roles: "oii", call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.mulTo(v[0], v[1], v[2]); return 0 }},
		{name: "reluBackward", roles: "ui", call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.reluBackward(v[0], v[1]); return 0 }},
		{name: "tanhBackward", roles: "ui", call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.tanhBackward(v[0], v[1]); return 0 }},
		{name: "tanh", roles: "u", call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.tanh(v[0]); return 0 }},
		{name: "scale", roles: "u", scalars: 1, call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.scale(s[0], v[0]); return 0 }},
		// y += a·x: Go may fuse the multiply-add of the generic loop (it
		// does on arm64, and on amd64 with GOAMD64=v3), and an assembly
		// version may fuse it or not, so the product's rounding, at most
		// u·|a·x| ≤ u·(|y_new| + |y_old|), is allowed; element-wise it is
		// otherwise exact.
		{name: "axpy", roles: "iu", scalars: 1, tol: func(v [][]T, s []T, j int) float64 { return math.Abs(float64(s[0]) * float64(v[0][j])) }, call: func(k *kernelSet[T], v [][]T, s []T) float64 { k.axpy(s[0], v[0], v[1]); return 0 }},
		// The optimizer steps and allFinite report whether values are
		// finite: the same answer as the generic kernel's.
		{name: "sgd", roles: "oii", scalars: 1, result: ktSameBool[T]("sgd"), call: func(k *kernelSet[T], v [][]T, s []T) float64 {
			return ktBool(k.sgd(v[0], v[1], v[2], s[0]))
		}},
		{name: "nesterov", roles: "ooiii", scalars: 2, result: ktSameBool[T]("nesterov"), call: func(k *kernelSet[T], v [][]T, s []T) float64 {
			return ktBool(k.nesterov(v[0], v[1], v[2], v[3], v[4], s[0], s[1]))
		}},
		{name: "rmsprop", roles: "ooiii", scalars: 3, result: ktSameBool[T]("rmsprop"), call: func(k *kernelSet[T], v [][]T, s []T) float64 {
			return ktBool(k.rmsprop(v[0], v[1], v[2], v[3], v[4], s[0], s[1], s[2]))
		}},
		{name: "adam", roles: "oooiiii", scalars: 4, result: ktSameBool[T]("adam"), call: func(k *kernelSet[T], v [][]T, s []T) float64 {
			return ktBool(k.adam(v[0], v[1], v[2], v[3], v[4], v[5], v[6], s[0], s[1], s[2], s[3]))
		}},
		{name: "sumSquares", roles: "i",
			call: func(k *kernelSet[T], v [][]T, s []T) float64 { return k.sumSquares(v[0]) },
			result: func(tb testing.TB, got, want float64, v [][]T) {
				// A sum of n non-negative float64 terms (exact squares
				// for float32) in any order: within 2(n+1)·u₆₄·Σ.
				tb.Helper()
				tol := 2 * float64(len(v[0])+1) * 0x1p-53 * want
				if !ktClose(got, want, tol) {
					tb.Fatalf("sumSquares = %v, generic %v", got, want)
				}
			}},
		{name: "allFinite", roles: "i", result: ktSameBool[T]("allFinite"),
			call: func(k *kernelSet[T], v [][]T, s []T) float64 { return ktBool(k.allFinite(v[0])) }},
	}
}

// ktBool returns a kernel's bool result as ktVecKernel.call's float64.
func ktBool(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ktSameBool returns the result check of a kernel named name that reports
// a bool (as ktBool): it must be the generic kernel's.
func ktSameBool[T Float](name string) func(tb testing.TB, got, want float64, v [][]T) {
	return func(tb testing.TB, got, want float64, v [][]T) {
		tb.Helper()
		if got != want {
			tb.Fatalf("%s = %v, generic %v", name, got == 1, want == 1)
		}
	}
}

// ktFill fills v with test values for mode: 0 normal, 1 normal with a few
// specials (NaN, ±Inf, ±0, subnormals, huge and tiny values, negatives
// under a square root), 2 mostly specials, 3 positive (second moments), 4
// all finite except possibly the last element (allFinite's tail).
func ktFill[T Float](r *rand.Rand, v []T, mode int) {
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		1e-40, -1e-40, 5e-324, 1e38, -1e38, 1e300, 1e-300, 1, -1, 0.5, 2}
	for i := range v {
		x := r.NormFloat64()
		switch mode {
		case 1:
			if r.IntN(16) == 0 {
				x = specials[r.IntN(len(specials))]
			}
		case 2:
			if r.IntN(2) == 0 {
				x = specials[r.IntN(len(specials))]
			}
		case 3:
			x = x * x
		}
		v[i] = T(x)
	}
	if mode == 4 && len(v) > 0 && r.IntN(2) == 0 {
		v[r.IntN(len(v))] = T(specials[r.IntN(3)])
	}
}

// ktScalars returns scalars for a kernel: realistic optimizer settings, or
// random ones.
func ktScalars[T Float](r *rand.Rand, name string, n int) []T {
	s := make([]T, n)
	realistic := r.IntN(2) == 0
	for i := range s {
		s[i] = T(r.NormFloat64())
	}
	if realistic {
		switch name {
		case "sgd":
			s[0] = 1e-3
		case "nesterov":
			s[0], s[1] = 1e-2, 0.9
		case "rmsprop":
			s[0], s[1], s[2] = 1e-3, 0.9, 1e-8
		case "adam":
			s[0], s[1], s[2], s[3] = T(1e-3*math.Sqrt(1-0.999)/(1-0.9)), 0.9, 0.999, T(1e-8*math.Sqrt(1-0.999))
		}
	}
	return s
}

// ktCheckVec runs kernel kv of act and gen on operands of length n at
// offset off, filled by mode, and compares them.
func ktCheckVec[T Float](tb testing.TB, act, gen *kernelSet[T], kv ktVecKernel[T], n, off, mode int, r *rand.Rand, scal []T) {
	tb.Helper()
	what := fmt.Sprintf("%s %s n=%d off=%d mode=%d scalars=%v", ktTypeName[T](), kv.name, n, off, mode, scal)
	var ops, opsG []*ktMat[T]
	for i := range kv.roles {
		m := ktNewMat[T](r, (off+i)%4, 1, n, n)
		md := mode
		if (kv.name == "rmsprop" || kv.name == "adam") && i == len(kv.roles)-2 && mode != 2 {
			md = 3 // the second moment a or v, ≥ 0 (mode 2 keeps negatives and NaN)
		}
		ktFill(r, m.s(), md)
		ops = append(ops, m)
		opsG = append(opsG, m.clone())
	}
	slicesOf := func(ms []*ktMat[T]) [][]T {
		var v [][]T
		for _, m := range ms {
			v = append(v, m.s())
		}
		return v
	}
	before := slicesOf(opsG)
	for i := range before {
		before[i] = slices.Clone(before[i])
	}
	got := kv.call(act, slicesOf(ops), scal)
	want := kv.call(gen, slicesOf(opsG), scal)
	for i, role := range kv.roles {
		ops[i].checkGuards(tb, what)
		if role == 'i' {
			ops[i].checkUnchanged(tb, opsG[i], what)
			continue
		}
		a, g := ops[i].s(), opsG[i].s()
		for j := range a {
			ok := ktSame(a[j], g[j])
			if !ok && kv.tol != nil {
				ok = ktClose(a[j], g[j], ktUnit[T]()*kv.tol(before, scal, j))
			}
			if !ok {
				tb.Fatalf("%s: operand %d element %d = %v (%#x), generic %v (%#x)", what, i, j, a[j], ktBits(a[j]), g[j], ktBits(g[j]))
			}
		}
	}
	if kv.result != nil {
		kv.result(tb, got, want, slicesOf(opsG))
	}
}

// ktVecLengths are the lengths of TestKernelElementwise: all of
// 0..(4·unroll+1) for the widest unrolling (four YMM of eight float32, or
// two NEON Q of four per accumulator, so 4·32+1), and a few large ones.
func ktVecLengths() []int {
	var ls []int
	for n := 0; n <= 4*32+1; n++ {
		ls = append(ls, n)
	}
	return append(ls, 255, 256, 257, 1000, 4099)
}

func ktTestVec[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(5, 6))
	for _, kv := range ktVecKernels[T]() {
		for i, n := range ktVecLengths() {
			for off := 0; off < 4; off++ {
				for mode := 0; mode < 5; mode++ {
					if testing.Short() && (i+mode)%5 != 0 && (i+off)%4 != 0 {
						continue
					}
					ktCheckVec(t, act, gen, kv, n, off, mode, r, ktScalars[T](r, kv.name, kv.scalars))
				}
			}
		}
	}
}

func TestKernelElementwise(t *testing.T) {
	ktRun(t, ktTestVec[float32], ktTestVec[float64])
}

// ktTestOptimizerFinite checks the optimizer steps' report against
// allFiniteGeneric over everything they wrote, in both kernel tables:
// finite operands with one special value (NaN, ±Inf, or a value whose
// square or quotient overflows) planted at each position of each input
// in turn, so that one non-finite candidate, in any lane of a vector, of
// an unrolled block or of the tail, and in p2 or only in the state (a
// huge g makes v2 = +Inf while p2 stays finite), must be reported.
func ktTestOptimizerFinite[T Float](t *testing.T, act *kernelSet[T]) {
	r := rand.New(rand.NewPCG(7, 8))
	specials := []T{T(math.NaN()), T(math.Inf(1)), T(math.Inf(-1)), T(1e38), -T(1e38)}
	for _, kv := range ktVecKernels[T]() {
		if !ktOptimizerNames[kv.name] {
			continue
		}
		scal := make([]T, kv.scalars)
		for i := range scal {
			scal[i] = 0.5 // a step, decay and ε that keep finite operands finite
		}
		for _, n := range []int{1, 7, 8, 9, 16, 17, 33, 40} {
			for in := strings.IndexByte(kv.roles, 'i'); in < len(kv.roles); in++ {
				for j := 0; j < n; j++ {
					for _, k := range []*kernelSet[T]{act, genericKernelsFor[T]()} {
						v := make([][]T, len(kv.roles))
						for o := range v {
							v[o] = make([]T, n)
							ktFill(r, v[o], 3) // positive: a second moment stays one
						}
						v[in][j] = specials[r.IntN(len(specials))]
						got := kv.call(k, v, scal) == 1
						want := true
						for o, role := range kv.roles {
							if role == 'o' {
								want = want && allFiniteGeneric(v[o])
							}
						}
						if got != want {
							t.Fatalf("%s %s n=%d: operand %d element %d = %v: reports finite %v, wrote finite %v", ktTypeName[T](), kv.name, n, in, j, v[in][j], got, want)
						}
					}
				}
			}
		}
	}
}

func TestKernelOptimizerFinite(t *testing.T) {
	ktRun(t, ktTestOptimizerFinite[float32], ktTestOptimizerFinite[float64])
}

// ktTanhValues returns arguments for TestKernelTanhSweep: a geometric grid
// over every magnitude tanh treats differently (subnormals, the rational
// function below 0.625, the exponential up to ½·ln 2¹²⁷ ≈ 44.01, ±1
// above), the neighbours of those two thresholds, ±0, ±Inf and NaN, with
// both signs.
func ktTanhValues() []float64 {
	v := []float64{0, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64}
	for x := 1e-310; x < 1e3; x *= 1.001 {
		v = append(v, x)
	}
	for _, c := range []float64{0.625, 0.5 * 8.8029691931113054295988e+01} {
		for x, i := c, 0; i < 64; i++ {
			x = math.Nextafter(x, 0)
			v = append(v, x)
		}
		for x, i := c, 0; i < 64; i++ {
			v = append(v, x)
			x = math.Nextafter(x, math.Inf(1))
		}
	}
	for i := range v {
		v = append(v, -v[i])
	}
	return v
}

// TestKernelTanhSweep compares tanh bit for bit with the generic kernel on
// ktTanhValues, which reach the branches and thresholds of math.Tanh that
// TestKernelElementwise's normal samples seldom do.
func TestKernelTanhSweep(t *testing.T) {
	ktRun(t, ktTanhSweep[float32], ktTanhSweep[float64])
}

func ktTanhSweep[T Float](t *testing.T, act *kernelSet[T]) {
	vals := ktTanhValues()
	x := make([]T, len(vals))
	for i, v := range vals {
		x[i] = T(v)
	}
	want := slices.Clone(x)
	act.tanh(x)
	genericKernelsFor[T]().tanh(want)
	for i := range x {
		if !ktSame(x[i], want[i]) {
			t.Fatalf("%s tanh(%v) = %v, generic %v", ktTypeName[T](), T(vals[i]), x[i], want[i])
		}
	}
}

// --- the GCP loss ----------------------------------------------------------

// ktLossValues fills the raw head outputs and targets of TestKernelGCPLoss
// for mode: 0 typical values; 1 with the extreme regimes of the scalar code
// sprinkled in (|y−m| → ∞, ν → 0 and β → 0 down to underflow, α → 1 and
// α → ∞, huge β); 2 with NaN and ±Inf as well.
func ktLossValues[T Float](r *rand.Rand, v []T, sd float64, mode int, extremes []float64) {
	for i := range v {
		x := sd * r.NormFloat64()
		if mode >= 1 && r.IntN(6) == 0 {
			x = extremes[r.IntN(len(extremes))]
			if r.IntN(2) == 0 {
				x *= 1 + 0.1*r.Float64()
			}
		}
		if mode == 2 && r.IntN(12) == 0 {
			x = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[r.IntN(3)]
		}
		v[i] = T(x)
	}
}

// ktLossTerms returns, for one sample, the magnitudes of the terms whose
// sum each output is (nll, dm, dα, dβ, dν before the link and the scale),
// in float64, from the scalar code's own pieces. An output that cancels
// (dα = ln(1+u) − [ψ(α+½)−ψ(α)] near its zero, g = ½w − αv near the
// equilibrium, the log density near 0) can only be compared to within a few
// roundoffs of these magnitudes, not of the result.
func ktLossTerms(zm, za, zb, zn, y, fixedAlpha float64) (nll, dm, da, db, dn float64, ok bool) {
	p, _ := gcpPrior(zm, za, zb, zn, fixedAlpha)
	if !p.valid() {
		return 0, 0, 0, 0, 0, false
	}
	w, v, tw, l1pu := p.residual(y)
	a := p.Alpha
	lnb, lnn := math.Abs(math.Log(p.Beta)), math.Abs(math.Log(p.Nu))
	nll = math.Abs(lgammaHalfStep(a)) + 0.5*(math.Log(2*math.Pi)+lnb+lnn+math.Abs(math.Log1p(p.Nu))+math.Abs(math.Log1p(1/p.Nu))) + (a+0.5)*math.Abs(l1pu)
	dm = (a + 0.5) * math.Abs(tw*math.Sqrt2/math.Sqrt(p.sigma()))
	da = (math.Abs(l1pu) + math.Abs(digammaHalfStep(a))) * sigmoid(za)
	g := 0.5*w + a*v
	db = g / p.Beta * sigmoid(zb)
	dn = g / (p.Nu * (p.Nu + 1)) * sigmoid(zn)
	return nll, dm, da, db, dn, true
}

// ktLossTol returns the tolerances of gcpLoss against the float64 scalar
// reference: relative 4e-6 for float32 and 1e-13 for float64 (the target
// accuracy of a vectorized implementation), plus an absolute floor of
// ktLossFloor units of roundoff of T times the magnitude of the terms.
func ktLossTol[T Float]() (rel, floor float64) {
	var z T
	if _, ok := any(z).(float32); ok {
		return 4e-6, ktLossFloor * 0x1p-24
	}
	return 1e-13, ktLossFloor * 0x1p-53
}

// ktLossFloor: the special functions are accurate to about one unit of
// roundoff each (fdlibm's log and exp are below one ulp, the series and
// recurrences are those of special.go), and each output adds at most a
// dozen of them before a cancellation, so 64 roundoffs of the terms bound
// what two correct implementations can disagree on there (the AVX2 kernel
// measures at most 10, and the NEON kernel, which writes the same bits,
// under qemu too).
const ktLossFloor = 64

var ktLossWorst = map[string]float64{}

func ktCheckGCPLoss[T Float](tb testing.TB, act, gen *kernelSet[T], n, off, mode int, fixedAlpha, scale float64, r *rand.Rand, plant ...float64) {
	tb.Helper()
	what := fmt.Sprintf("%s gcpLoss n=%d off=%d mode=%d fixedAlpha=%v scale=%v", ktTypeName[T](), n, off, mode, fixedAlpha, scale)
	learned := fixedAlpha == 0
	in := make([]*ktMat[T], 5) // zm, za, zb, zn, y
	for i := range in {
		if i == 1 && !learned {
			in[i] = ktNewMat[T](r, off, 1, 0, 0)
			continue
		}
		in[i] = ktNewMat[T](r, (off+i)%4, 1, n, n)
	}
	big := 1e300
	if _, ok := any(T(0)).(float32); ok {
		big = 1e30
	}
	ktLossValues(r, in[0].s(), 1, mode, []float64{big, -big, 1e8, 0})
	ktLossValues(r, in[1].s(), 2, mode, []float64{-40, -800, 40, 1e3, 1e6, big, -big})
	ktLossValues(r, in[2].s(), 2, mode, []float64{-40, -700, -746, -800, 40, 700, big, -big})
	ktLossValues(r, in[3].s(), 2, mode, []float64{-30, -100, -700, -745, -800, 40, big, -big})
	ktLossValues(r, in[4].s(), 2, mode, []float64{big, -big, 1e15, -1e8, 1e-30})
	for j, v := range plant { // zm, za, zb, zn, y of the samples 0 and n−1
		if x := in[j].s(); len(x) > 0 {
			x[0], x[len(x)-1] = T(v), T(v)
		}
	}
	if mode >= 1 {
		// y = m exactly, some of the time
		for i := 0; i < n; i++ {
			if r.IntN(10) == 0 {
				in[4].s()[i] = in[0].s()[i]
			}
		}
	}
	saved := make([]*ktMat[T], 5)
	for i := range in {
		saved[i] = in[i].clone()
	}
	outs := make([]*ktMat[T], 4) // gm, ga, gb, gn
	for i := range outs {
		if i == 1 && !learned {
			outs[i] = ktNewMat[T](r, off, 1, 0, 0)
			continue
		}
		outs[i] = ktNewMat[T](r, (off+3*i)%4, 1, n, n)
	}
	outsG := make([]*ktMat[T], 4)
	for i := range outs {
		outsG[i] = outs[i].clone()
	}
	call := func(k *kernelSet[T], o []*ktMat[T]) float64 {
		var za, ga []T
		if learned {
			za, ga = in[1].s(), o[1].s()
		}
		return k.gcpLoss(in[0].s(), za, in[2].s(), in[3].s(), in[4].s(), fixedAlpha, scale, o[0].s(), ga, o[2].s(), o[3].s())
	}
	sum := call(act, outs)
	sumG := call(gen, outsG)
	for i := range in {
		in[i].checkGuards(tb, what)
		in[i].checkUnchanged(tb, saved[i], what)
	}
	for _, o := range outs {
		o.checkGuards(tb, what)
	}
	rel, floor := ktLossTol[T]()
	sumTerms, sumFloor := 0.0, 0.0
	names := []string{"gm", "ga", "gb", "gn"}
	for i := 0; i < n; i++ {
		var za float64
		if learned {
			za = float64(in[1].s()[i])
		}
		tn, tm, ta, tb2, tnu, ok := ktLossTerms(float64(in[0].s()[i]), za, float64(in[2].s()[i]), float64(in[3].s()[i]), float64(in[4].s()[i]), fixedAlpha)
		terms := []float64{tm, ta, tb2, tnu}
		for j, o := range outs {
			if j == 1 && !learned {
				continue
			}
			a, g := o.s()[i], outsG[j].s()[i]
			tol := rel*math.Abs(float64(g)) + floor*math.Abs(scale)*terms[j]
			if !ok {
				tol = 0 // NaN expected
			}
			if !ktClose(a, g, tol) {
				tb.Fatalf("%s: %s[%d] = %v, generic %v (tolerance %.3g; inputs zm=%v za=%v zb=%v zn=%v y=%v)", what, names[j], i, a, g, tol,
					in[0].s()[i], za, in[2].s()[i], in[3].s()[i], in[4].s()[i])
			}
			if d := math.Abs(float64(a) - float64(g)); ok && d > 0 && !math.IsInf(float64(g), 0) {
				key := ktTypeName[T]() + "/" + names[j]
				ktLossWorst[key+"/rel"] = max(ktLossWorst[key+"/rel"], d/math.Abs(float64(g)))
				if terms[j] > 0 {
					ktLossWorst[key+"/floor"] = max(ktLossWorst[key+"/floor"], min(d/math.Abs(float64(g)), d/(math.Abs(scale)*terms[j]))/ktUnit[T]())
				}
			}
		}
		if ok {
			sumTerms += tn
			sumFloor += floor * tn
		}
	}
	// The sum adds n losses in another order: n·u₆₄ more, relative to Σ|terms|.
	if !ktClose(sum, sumG, rel*math.Abs(sumG)+sumFloor+float64(n)*0x1p-53*sumTerms) {
		tb.Fatalf("%s: sum = %v, generic %v", what, sum, sumG)
	}
}

func ktTestGCPLoss[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(7, 8))
	for _, fa := range []float64{0, 1.5, 3, 1e-8, 1e8} {
		for n := 0; n <= 70; n++ {
			for mode := 0; mode < 3; mode++ {
				off := (n + mode) % 4
				ktCheckGCPLoss(t, act, gen, n, off, mode, fa, 1/float64(max(n, 1)), r)
			}
		}
		for _, n := range []int{256, 1000} {
			ktCheckGCPLoss(t, act, gen, n, n%4, 1, fa, 1/float64(n), r)
		}
	}
	t.Logf("worst: %v", ktLossWorst)
}

func TestKernelGCPLoss(t *testing.T) {
	ktRun(t, ktTestGCPLoss[float32], ktTestGCPLoss[float64])
}

// --- the softplus link -----------------------------------------------------

// ktSoftplusTol returns the relative tolerance of the softplus link
// against the generic kernel, special.go's softplus in float64:
//
//   - float64 models: 1e-13, what gcpLoss's float64 outputs are held to
//     (ktLossTol). Two correct float64 implementations are much closer:
//     exp and ln (fdlibm's in the AVX2 kernel) are below 1 ulp each,
//     ln(1+e) through Goldberg's correction adds about 1 ulp and
//     z + ln(1+e) one rounding, a few times 2⁻⁵³ ≈ 1.1e-16 together (AVX2:
//     4.4e-16 measured; NEON, the same algorithm: 3.9e-16).
//   - float32 models: 4e-6, what gcpLoss's float32 outputs are held to. The
//     AVX2 kernel computes their link in float32 (SP32_LINK in
//     simd_amd64.s), each step within a few float32 roundoffs, 2⁻²⁴ ≈ 6e-8
//     (a scan of 28M float32 inputs in [−800, 800]: 1.8e-7). The NEON
//     kernel computes it in float64 (a scan of 24M float32 inputs in
//     (−800, 800): 3.9e-16).
//
// The test logs the worst it measures. A subnormal result (z < −708.4,
// where softplus(z) = eᶻ) is allowed one unit of its fixed spacing 2⁻¹⁰⁷⁴
// instead, ktSoftplusAbs: each kernel rounds its own approximation of eᶻ
// once, and the two can straddle a rounding boundary.
func ktSoftplusTol[T Float]() float64 {
	if _, ok := any(T(0)).(float32); ok {
		return 4e-6
	}
	return 1e-13
}

const ktSoftplusAbs = 0x1p-1074

var ktSoftplusWorst = map[string]float64{}

// ktCheckSoftplus runs the softplus link of act and gen on n raw outputs
// at offset off, filled by mode as ktLossValues does (with plant, if any,
// in the first and the last element), and compares them.
func ktCheckSoftplus[T Float](tb testing.TB, act, gen *kernelSet[T], n, off, mode int, r *rand.Rand, plant ...float64) {
	tb.Helper()
	what := fmt.Sprintf("%s softplus n=%d off=%d mode=%d", ktTypeName[T](), n, off, mode)
	big := 1e300
	if _, ok := any(T(0)).(float32); ok {
		big = 3e38
	}
	x := ktNewMat[T](r, off, 1, n, n)
	// Subnormal inputs too: 5e-324 and −1e-310 for float64, 1e-40 and
	// −1e-45 (rounded to −2⁻¹⁴⁹) for float32.
	ktLossValues(r, x.s(), 3, mode, []float64{-1e-300, 1e-20, 5e-324, -1e-310, 1e-40, -1e-45, -37, 37, -40, -700, -708.5, -740, -745.2, -746, -800, 40, 700, 1e6, big, -big})
	for _, v := range plant {
		if xs := x.s(); len(xs) > 0 {
			xs[0], xs[len(xs)-1] = T(v), T(v)
		}
	}
	saved := x.clone()
	dst := ktNewMat[float64](r, (off+1)%4, 1, n, n)
	dstG := dst.clone()
	act.softplus(dst.s(), x.s())
	gen.softplus(dstG.s(), x.s())
	x.checkGuards(tb, what)
	x.checkUnchanged(tb, saved, what)
	dst.checkGuards(tb, what)
	for i, g := range dstG.s() {
		a := dst.s()[i]
		if !ktClose(a, g, max(ktSoftplusTol[T]()*math.Abs(g), ktSoftplusAbs)) {
			tb.Fatalf("%s: softplus(%v) = %v, generic %v", what, x.s()[i], a, g)
		}
		if g >= 0x1p-1022 && g <= math.MaxFloat64 {
			ktSoftplusWorst[ktTypeName[T]()] = max(ktSoftplusWorst[ktTypeName[T]()], math.Abs(a-g)/g)
		}
	}
}

func ktTestSoftplus[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(13, 14))
	for n := 0; n <= 70; n++ {
		for off := 0; off < 4; off++ {
			for mode := 0; mode < 3; mode++ {
				ktCheckSoftplus(t, act, gen, n, off, mode, r)
			}
		}
	}
	for _, n := range []int{256, 1000, 4099} {
		for mode := 0; mode < 3; mode++ {
			ktCheckSoftplus(t, act, gen, n, n%4, mode, r)
		}
	}
	t.Logf("worst relative difference of normal results: %.3g", ktSoftplusWorst[ktTypeName[T]()])
}

func TestKernelSoftplus(t *testing.T) {
	ktRun(t, ktTestSoftplus[float32], ktTestSoftplus[float64])
}

// --- the standardization of inputs ---------------------------------------

// ktCheckStandardize runs standardize of act and gen on rows rows of d
// features at offset off, x filled by mode (ktFill: with specials in
// modes 1 and 2, and in mode 1 rows scaled by up to 1e36, so that a
// float32 u can overflow), and compares them bit for bit: u and ok, and z
// where it is finite (a row with a NaN or ±Inf gives a z at least +Inf's
// bits in both, NaN payloads aside).
func ktCheckStandardize[T Float](tb testing.TB, act, gen *kernelSet[T], rows, d, off, mode int, r *rand.Rand) {
	tb.Helper()
	what := fmt.Sprintf("%s standardize rows=%d d=%d off=%d mode=%d", ktTypeName[T](), rows, d, off, mode)
	x := ktNewMat[T](r, off, rows, d, d)
	ktFill(r, x.s(), mode)
	if mode == 1 {
		for i := range rows {
			scale := math.Pow(10, float64(r.IntN(37)))
			for j := range d {
				x.set(i, j, T(float64(x.at(i, j))*scale))
			}
		}
	}
	mean, inv := ktNewMat[float64](r, (off+1)%4, 1, d, d), ktNewMat[float64](r, (off+2)%4, 1, d, d)
	for j := range d {
		inv.set(0, j, math.Exp(r.NormFloat64())) // positive, as 1/scale
	}
	saved, savedMean, savedInv := x.clone(), mean.clone(), inv.clone()
	u, z := ktNewMat[T](r, (off+3)%4, rows, d, d), ktNewMat[float64](r, off, 1, rows, rows)
	uG, zG := u.clone(), z.clone()
	ok := act.standardize(u.s(), x.s(), mean.s(), inv.s(), z.s())
	okG := gen.standardize(uG.s(), x.s(), mean.s(), inv.s(), zG.s())
	for _, m := range []*ktMat[float64]{mean, inv, z} {
		m.checkGuards(tb, what)
	}
	x.checkGuards(tb, what)
	u.checkGuards(tb, what)
	x.checkUnchanged(tb, saved, what)
	mean.checkUnchanged(tb, savedMean, what)
	inv.checkUnchanged(tb, savedInv, what)
	if ok != okG {
		tb.Fatalf("%s: ok = %v, generic %v", what, ok, okG)
	}
	for i, g := range uG.s() {
		if a := u.s()[i]; !ktSame(a, g) {
			tb.Fatalf("%s: u[%d] = %v, generic %v (x = %v)", what, i, a, g, x.s()[i])
		}
	}
	for i, g := range zG.s() {
		a := z.s()[i]
		if finite(g) && ktBits(a) != ktBits(g) || !finite(g) && !(math.Float64bits(a) >= absBitsInf && math.Float64bits(a) < signBit) {
			tb.Fatalf("%s: z[%d] = %v, generic %v", what, i, a, g)
		}
	}
}

func ktTestStandardize[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(15, 16))
	for d := 1; d <= 17; d++ {
		for rows := 0; rows <= 3; rows++ {
			for mode := 0; mode < 3; mode++ {
				ktCheckStandardize(t, act, gen, rows, d, (d+rows+mode)%4, mode, r)
			}
		}
	}
	for _, d := range []int{13, 90} {
		for mode := 0; mode < 3; mode++ {
			ktCheckStandardize(t, act, gen, 64, d, d%4, mode, r)
		}
	}
}

// TestKernelStandardize compares the standardization of inputs with the
// generic kernel: every row width from 1 to 17 (the AVX2 kernel's vectors
// of four and the AVX-512 kernel's of eight, whole and masked), the UCI
// and MSD inputs, 0 to 3 rows and 64.
func TestKernelStandardize(t *testing.T) {
	ktRun(t, ktTestStandardize[float32], ktTestStandardize[float64])
}

// ktTestDropoutMask compares dropoutMask with the generic kernel, bit for
// bit, from the same generator state: the mask and the dropped-out units
// act·mask, every length across the AVX-512 kernel's groups of 32 and its
// tail, at each offset, guards included, several rates, and the state the
// generator is left in, over several masks in a row (a length that is not
// a multiple of four leaves part of a draw unused); every other mask with
// dropOnly, where drop alone must match. act holds NaN and ±Inf too,
// whose products with a dropped unit's 0 are NaN.
func ktTestDropoutMask[T Float](t *testing.T, act *kernelSet[T]) {
	gen := genericKernelsFor[T]()
	r := rand.New(rand.NewPCG(17, 18))
	var lengths []int
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 1000, 4099)
	for _, p := range []float64{0.1, 0.5, 1e-9, 0.999999} {
		src := newSplitMix(r.Uint64(), r.Uint64())
		srcG := src
		for i, n := range lengths {
			dropOnly := i%2 == 1
			what := fmt.Sprintf("%s dropoutMask p=%v n=%d dropOnly=%v", ktTypeName[T](), p, n, dropOnly)
			m, a, d := ktNewMat[T](r, i%4, 1, n, n), ktNewMat[T](r, (i+1)%4, 1, n, n), ktNewMat[T](r, (i+2)%4, 1, n, n)
			ktFill(r, a.s(), 1) // one special value in sixteen
			mg, dg := m.clone(), d.clone()
			act.dropoutMask(&src, p, m.s(), a.s(), d.s(), dropOnly)
			gen.dropoutMask(&srcG, p, mg.s(), a.s(), dg.s(), false)
			m.checkGuards(t, what)
			d.checkGuards(t, what)
			for j, v := range m.s() {
				if !dropOnly && ktBits(v) != ktBits(mg.s()[j]) {
					t.Fatalf("%s: unit %d = %v, generic %v", what, j, v, mg.s()[j])
				}
				if !ktSame(d.s()[j], dg.s()[j]) {
					t.Fatalf("%s: dropped unit %d = %v, generic %v", what, j, d.s()[j], dg.s()[j])
				}
			}
			if src != srcG {
				t.Fatalf("%s: the generator is left at %v, generic %v", what, src, srcG)
			}
		}
	}
}

func TestKernelDropoutMask(t *testing.T) {
	ktRun(t, ktTestDropoutMask[float32], ktTestDropoutMask[float64])
}

// --- the whole model -------------------------------------------------------

// ktModelCase is a model and a training configuration for
// TestModelKernelsAgree, chosen to call every kernel: ReLU and tanh,
// dropout (mul, mulTo), a learned and a fixed α, each optimizer, weight
// decay (axpy) and clipping (sumSquares, scale), and widths and batches
// that are not multiples of any tile.
type ktModelCase struct {
	name string
	cfg  Config
	tc   TrainConfig
}

var ktModelCases = []ktModelCase{
	{"relu-dropout-adam", Config{Inputs: 13, Hidden: []int{50}, Dropout: 0.1, Seed: 1}, TrainConfig{BatchSize: 16, LearningRate: 3e-3, Seed: 2}},
	{"tanh-deep-rmsprop-decay", Config{Inputs: 7, Hidden: []int{19, 11}, Activation: Tanh, Seed: 3}, TrainConfig{Optimizer: RMSProp, BatchSize: 13, LearningRate: 1e-3, WeightDecay: 1e-3, Seed: 4}},
	{"relu-fixed-alpha-nesterov-clip", Config{Inputs: 5, Hidden: []int{33, 9}, FixedAlpha: 3, Dropout: 0.2, Seed: 5}, TrainConfig{Optimizer: Nesterov, BatchSize: 7, LearningRate: 1e-3, ClipNorm: 0.5, Seed: 6}},
	{"relu-sgd", Config{Inputs: 90, Hidden: []int{100}, Seed: 7}, TrainConfig{Optimizer: SGD, BatchSize: 32, LearningRate: 1e-3, Seed: 8}},
	// More MC samples than a Workspace's 64 rows, through two tanh layers.
	{"mlbayes-tanh-deep", Config{Inputs: 6, Hidden: []int{17, 9}, Activation: Tanh, Loss: LossMLBayes, Dropout: 0.3, MCSamples: 70, Seed: 9}, TrainConfig{BatchSize: 11, LearningRate: 1e-3, Seed: 10}},
	{"dpd-relu-nesterov", Config{Inputs: 4, Hidden: []int{21}, Loss: LossDPD, Seed: 11}, TrainConfig{Optimizer: Nesterov, BatchSize: 9, LearningRate: 1e-3, Seed: 12}},
}

// ktTrain trains a model of case c with kernel table k for steps
// minibatches and returns it with the losses Step reported.
func ktTrain[T Float](tb testing.TB, c ktModelCase, k *kernelSet[T], steps int) (*Model[T], []float64) {
	tb.Helper()
	m := mustModel[T](tb, c.cfg)
	m.k = k // NewTrainer's optimizer, and every pass, use the model's table
	tr := mustTrainer(tb, m, c.tc)
	x, y := randomBatch[T](11, 5*c.tc.BatchSize, c.cfg.Inputs)
	var losses []float64
	for s := 0; s < steps; s++ {
		b := s % 5
		n := c.tc.BatchSize - s%3 // batches of varying size
		loss, err := tr.Step(x[b*c.tc.BatchSize*c.cfg.Inputs:][:n*c.cfg.Inputs], y[b*c.tc.BatchSize:][:n])
		if err != nil {
			tb.Fatalf("step %d: %v", s, err)
		}
		losses = append(losses, loss)
	}
	return m, losses
}

func ktTestModel[T Float](t *testing.T, act *kernelSet[T]) {
	steps := 40
	if testing.Short() {
		steps = 10
	}
	gen := genericKernelsFor[T]()
	for _, c := range ktModelCases {
		t.Run(c.name, func(t *testing.T) {
			ma, la := ktTrain(t, c, act, steps)
			mg, lg := ktTrain(t, c, gen, steps)
			// Each path is bit-reproducible with itself.
			for _, k := range []*kernelSet[T]{act, gen} {
				m2, _ := ktTrain(t, c, k, steps)
				ref := ma
				if k == gen {
					ref = mg
				}
				for i := range ref.params {
					if ktBits(ref.params[i]) != ktBits(m2.params[i]) {
						t.Fatalf("%s kernels: a second run differs at parameter %d: %v vs %v", k.name, i, m2.params[i], ref.params[i])
					}
				}
			}
			worstLoss := 0.0
			for i := range la {
				worstLoss = max(worstLoss, math.Abs(la[i]-lg[i])/max(math.Abs(lg[i]), 1))
			}
			x, _ := randomBatch[T](12, 40, c.cfg.Inputs)
			pa, pg := make([]Prediction, 40), make([]Prediction, 40)
			if err := ma.PredictBatch(ma.NewWorkspace(), x, pa); err != nil {
				t.Fatal(err)
			}
			if err := mg.PredictBatch(mg.NewWorkspace(), x, pg); err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for i := range pa {
				for _, pair := range [][2]float64{
					{pa[i].Mean, pg[i].Mean}, {pa[i].Var, pg[i].Var}, {pa[i].VarCorrected, pg[i].VarCorrected},
					{pa[i].Alpha, pg[i].Alpha}, {pa[i].Beta, pg[i].Beta}, {pa[i].Nu, pg[i].Nu},
					{pa[i].VarAleatoric, pg[i].VarAleatoric}, {pa[i].VarEpistemic, pg[i].VarEpistemic},
				} {
					if pair[0] != pair[1] { // equal covers the comparators' α = +Inf
						// A NaN (or an Inf against a finite value) makes
						// the difference NaN, which max would carry and
						// the bound below would not catch: count it as
						// infinitely wrong.
						d := math.Abs(pair[0]-pair[1]) / max(math.Abs(pair[1]), 1)
						if math.IsNaN(d) {
							d = math.Inf(1)
						}
						worst = max(worst, d)
					}
				}
			}
			worstParam := 0.0
			for i := range ma.params {
				worstParam = max(worstParam, math.Abs(float64(ma.params[i])-float64(mg.params[i]))/max(math.Abs(float64(mg.params[i])), 1e-2))
			}
			t.Logf("%s vs generic after %d steps: predictions %.2g, parameters %.2g, losses %.2g (relative)", act.name, steps, worst, worstParam, worstLoss)
			// The two tables differ only in rounding: the layer kernels
			// reassociate and fuse their sums (each within (k+1)·u·Σ|terms|,
			// k ≤ 100 here), everything else is bit-exact. Forty steps
			// carry that through the network and the optimizer, whose
			// scale-free Adam and RMSProp steps can magnify a rounding
			// difference in a near-zero gradient. Measured on amd64: at most
			// ~5u in predictions and losses and ~75u in parameters (relative,
			// parameters floored at 1e-2), in float32 and float64 alike. The
			// bounds 2¹⁰u and 2¹²u keep a margin of 50× or more, and are still
			// orders of magnitude below what a wrong kernel does (a dropped
			// term or a stale tail element moves outputs by ≥ 1e-3).
			u := ktUnit[T]()
			if worst > 0x1p10*u || worstLoss > 0x1p10*u {
				t.Errorf("predictions differ by %.2g, losses by %.2g, > 2¹⁰u = %.2g", worst, worstLoss, 0x1p10*u)
			}
			if worstParam > 0x1p12*u {
				t.Errorf("parameters differ by %.2g > 2¹²u = %.2g", worstParam, 0x1p12*u)
			}
		})
	}
}

func TestModelKernelsAgree(t *testing.T) {
	ktRun(t, ktTestModel[float32], ktTestModel[float64])
}

// ktTestFusedSteps trains each ktModelCase, an ensemble of five and a
// batch of 70 rows (three of the AVX2 kernel's blocks) with the active
// kernel table and with the same table whose outputBackward is
// outputBackwardVia, the separate passes that the AVX2 kernel fuses (and
// that backward made before it), and requires the same parameters and
// losses bit for bit after every step.
func ktTestFusedSteps[T Float](t *testing.T, act *kernelSet[T]) {
	composed := *act
	composed.outputBackward = outputBackwardVia(&composed)
	for _, c := range ktStepCases() {
		ktSameTraining(t, c, act, &composed, "with the passes unfused")
	}
}

// ktStepCases are the ktModelCases, an ensemble of five and a batch of 70
// rows (three of the AVX2 kernel's blocks).
func ktStepCases() []ktModelCase {
	return append(slices.Clone(ktModelCases),
		ktModelCase{"ensemble-relu-adam", Config{Inputs: 13, Hidden: []int{50}, Members: 5, Seed: 13}, TrainConfig{BatchSize: 32, LearningRate: 1e-3, Seed: 14}},
		ktModelCase{"relu-dropout-batch70", Config{Inputs: 5, Hidden: []int{12}, Dropout: 0.2, Seed: 15}, TrainConfig{BatchSize: 70, LearningRate: 1e-3, Seed: 16}})
}

// ktSameTraining trains case c for 12 steps with the tables a and b and
// requires the same parameters and losses bit for bit; other says how b
// differs.
func ktSameTraining[T Float](t *testing.T, c ktModelCase, a, b *kernelSet[T], other string) {
	t.Helper()
	ma, la := ktTrain(t, c, a, 12)
	mb, lb := ktTrain(t, c, b, 12)
	for i := range ma.params {
		if !ktSame(ma.params[i], mb.params[i]) {
			t.Fatalf("%s: parameter %d = %v, %s %v", c.name, i, ma.params[i], other, mb.params[i])
		}
	}
	for i := range la {
		if math.Float64bits(la[i]) != math.Float64bits(lb[i]) {
			t.Fatalf("%s: step %d loss %v, %s %v", c.name, i, la[i], other, lb[i])
		}
	}
}

func TestModelFusedBackwardAgrees(t *testing.T) {
	ktRun(t, ktTestFusedSteps[float32], ktTestFusedSteps[float64])
}

// ktTestMaskUnread trains each of ktStepCases with the kernel table whose
// dropout kernel, where the trainer says dropOnly,
// fills the mask with NaN after drawing, and with the table whose kernel
// is told to write the mask every time, and requires the same parameters
// and losses bit for bit: under a ReLU with one target no pass reads the
// trainer's mask (outputBackwardVia's keep), so leaving it unwritten
// changes nothing.
func ktTestMaskUnread[T Float](t *testing.T, act *kernelSet[T]) {
	poisoned, written := *act, *act
	poisoned.dropoutMask = func(src *splitMix, p float64, mask, a, drop []T, dropOnly bool) {
		act.dropoutMask(src, p, mask, a, drop, dropOnly)
		if dropOnly {
			for i := range mask {
				mask[i] = T(math.NaN())
			}
		}
	}
	written.dropoutMask = func(src *splitMix, p float64, mask, a, drop []T, _ bool) {
		act.dropoutMask(src, p, mask, a, drop, false)
	}
	for _, c := range ktStepCases() {
		ktSameTraining(t, c, &poisoned, &written, "with the mask written")
	}
}

func TestModelDropoutMaskUnread(t *testing.T) {
	ktRun(t, ktTestMaskUnread[float32], ktTestMaskUnread[float64])
	t.Run("generic/float32", func(t *testing.T) { ktTestMaskUnread(t, genericKernelsFor[float32]()) })
	t.Run("generic/float64", func(t *testing.T) { ktTestMaskUnread(t, genericKernelsFor[float64]()) })
}

// --- fuzz targets, one per kernel family ---------------------------------

// FuzzKernelsMatmul compares the three layer kernels and the output layer
// (n read as the number of heads) on fuzzed shapes, offsets, leading
// dimensions and data, with NaN and ±Inf planted when specials is set.
func FuzzKernelsMatmul(f *testing.F) {
	for _, s := range [][3]uint8{{0, 0, 0}, {1, 1, 1}, {1, 64, 13}, {1, 63, 1}, {1, 65, 0}, {6, 16, 8}, {7, 17, 9},
		{5, 15, 7}, {3, 4, 8}, {4, 5, 9}, {2, 8, 4}, {6, 1, 70}, {13, 33, 31}, {12, 32, 16}, {1, 200, 13}} {
		f.Add(s[0], s[1], s[2], uint8(0), uint8(0), uint64(1), true, false)
		f.Add(s[0], s[1], s[2], uint8(3), uint8(5), uint64(2), false, true)
	}
	f.Fuzz(func(t *testing.T, m, n, k, off, pad uint8, seed uint64, relu, specials bool) {
		s := ktShape{m: int(m % 24), n: int(n) % 140, k: int(k) % 140, off: int(off % 4), padX: int(pad % 4), padY: int(pad / 4 % 8), relu: relu}
		ktFuzzLinear[float32](t, s, seed, specials)
		ktFuzzLinear[float64](t, s, seed, specials)
	})
}

func ktFuzzLinear[T Float](t *testing.T, s ktShape, seed uint64, specials bool) {
	r := rand.New(rand.NewPCG(seed, 9))
	var plant func(ops ...*ktMat[T])
	if specials {
		plant = func(ops ...*ktMat[T]) {
			for _, v := range ops {
				if v.rows > 0 && v.cols > 0 && r.IntN(2) == 0 {
					v.set(r.IntN(v.rows), r.IntN(v.cols), []T{T(math.NaN()), T(math.Inf(1)), T(math.Inf(-1)), 0}[r.IntN(4)])
				}
			}
		}
	}
	var plantLinear func(x, w, b, dy *ktMat[T])
	var plantOutput func(x, w, b *ktMat[T])
	if plant != nil {
		plantLinear = func(x, w, b, dy *ktMat[T]) { plant(x, w, b, dy) }
		plantOutput = func(x, w, b *ktMat[T]) { plant(x, w, b) }
	}
	for _, act := range ktTables[T]() {
		ktCheckLinear(t, act, genericKernelsFor[T](), s, r, plantLinear)
		ktCheckOutput(t, act, genericKernelsFor[T](), s, r, plantOutput)
		// The output layer's backward pass, read as s.m rows, s.n heads and
		// s.k inputs per head, its optional operands chosen by the padding.
		ktCheckOutputBackward(t, act, genericKernelsFor[T](), s.m, s.n, s.k, s.off, s.padX+4*(s.padY%4), r, plant)
	}
}

// ktFuzzVec runs the vector kernels of one family on a fuzzed length,
// offset, fill mode and data; scalars, if not nil, overrides the kernels'
// scalars (in order).
func ktFuzzVec[T Float](t *testing.T, names map[string]bool, n, off, mode int, seed uint64, scalars []float64) {
	r := rand.New(rand.NewPCG(seed, 10))
	for _, kv := range ktVecKernels[T]() {
		if !names[kv.name] {
			continue
		}
		s := ktScalars[T](r, kv.name, kv.scalars)
		for i := range s {
			if i < len(scalars) {
				s[i] = T(scalars[i])
			}
		}
		for _, act := range ktTables[T]() {
			ktCheckVec(t, act, genericKernelsFor[T](), kv, n, off, mode, r, s)
		}
	}
}

var (
	ktElementwiseNames = map[string]bool{"mul": true, "mulTo": true, "reluBackward": true, "tanhBackward": true,
		"tanh": true, "scale": true, "axpy": true, "sumSquares": true, "allFinite": true}
	ktOptimizerNames = map[string]bool{"sgd": true, "nesterov": true, "rmsprop": true, "adam": true}
)

// FuzzKernelsElementwise compares the element-wise kernels and the
// reductions on fuzzed lengths, offsets and data, and the standardization
// on rows of n mod 97 + 1 features (a few rows, as many as fit n).
func FuzzKernelsElementwise(f *testing.F) {
	for _, n := range []uint16{0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000} {
		f.Add(n, uint8(n%4), uint8(n%5), uint64(n), 1.5)
	}
	f.Fuzz(func(t *testing.T, n uint16, off, mode uint8, seed uint64, a float64) {
		ktFuzzVec[float32](t, ktElementwiseNames, int(n%4200), int(off%4), int(mode%5), seed, []float64{a})
		ktFuzzVec[float64](t, ktElementwiseNames, int(n%4200), int(off%4), int(mode%5), seed, []float64{a})
		d := int(n%97) + 1
		ktFuzzStandardize[float32](t, min(int(n)/d, 70), d, int(off%4), int(mode%3), seed)
		ktFuzzStandardize[float64](t, min(int(n)/d, 70), d, int(off%4), int(mode%3), seed)
	})
}

func ktFuzzStandardize[T Float](t *testing.T, rows, d, off, mode int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 11))
	for _, act := range ktTables[T]() {
		ktCheckStandardize(t, act, genericKernelsFor[T](), rows, d, off, mode, r)
	}
}

// FuzzKernelsOptimizer compares the optimizer steps on fuzzed lengths,
// data and hyperparameters (any values, not only valid ones: the steps must
// agree bit for bit on every input).
func FuzzKernelsOptimizer(f *testing.F) {
	for _, n := range []uint16{0, 1, 4, 7, 8, 9, 15, 16, 17, 33, 64, 65, 129} {
		f.Add(n, uint8(n%4), uint8(n%5), uint64(n), 1e-3, 0.9, 0.999, 1e-8)
	}
	f.Add(uint16(100), uint8(1), uint8(2), uint64(7), 0.0, 1.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, n uint16, off, mode uint8, seed uint64, s0, s1, s2, s3 float64) {
		sc := []float64{s0, s1, s2, s3}
		ktFuzzVec[float32](t, ktOptimizerNames, int(n%4200), int(off%4), int(mode%5), seed, sc)
		ktFuzzVec[float64](t, ktOptimizerNames, int(n%4200), int(off%4), int(mode%5), seed, sc)
	})
}

// FuzzKernelsGCPLoss compares the GCP loss kernel on fuzzed lengths, fill
// modes, α settings, scales, and raw values planted in the first and last
// samples, and the softplus link on the same lengths with each planted
// raw output of a softplus head.
func FuzzKernelsGCPLoss(f *testing.F) {
	for _, n := range []uint16{0, 1, 3, 4, 5, 7, 8, 9, 63, 64, 65, 130} {
		f.Add(n, uint8(n%4), uint8(n%3), uint64(n), 0.0, 0.1, 0.0, 0.0, 0.0, 0.0, 1.0)
	}
	f.Add(uint16(8), uint8(1), uint8(1), uint64(1), 1.5, 1.0, 0.0, 40.0, -745.0, -745.0, 1e300)
	f.Add(uint16(8), uint8(2), uint8(2), uint64(2), 0.0, 1.0, 1.0, 1e6, 700.0, -30.0, 1.0)
	f.Add(uint16(9), uint8(3), uint8(0), uint64(3), 1e-8, 1e-3, -1.0, 0.0, -40.0, 40.0, -1.0)
	f.Add(uint16(3), uint8(3), uint8(13), uint64(3), 0.0, 0.1, 0.0, 0.0, 0.0, 0.0, 65.0) // a subnormal β in the generic tail
	f.Fuzz(func(t *testing.T, n uint16, off, mode uint8, seed uint64, fixedAlpha, scale, zm, za, zb, zn, y float64) {
		if fixedAlpha < 0 || math.IsNaN(fixedAlpha) || math.IsInf(fixedAlpha, 0) {
			fixedAlpha = 0 // the model's Config allows 0 (learned) or a finite α > 0
		}
		r := rand.New(rand.NewPCG(seed, 11))
		nn, o, md := int(n%300), int(off%4), int(mode%3)
		for _, act := range ktTables[float32]() {
			ktCheckGCPLoss(t, act, genericKernelsFor[float32](), nn, o, md, fixedAlpha, scale, r, zm, za, zb, zn, y)
			for _, z := range []float64{za, zb, zn} {
				ktCheckSoftplus(t, act, genericKernelsFor[float32](), nn, o, md, r, z)
			}
		}
		for _, act := range ktTables[float64]() {
			ktCheckGCPLoss(t, act, genericKernelsFor[float64](), nn, o, md, fixedAlpha, scale, r, zm, za, zb, zn, y)
			for _, z := range []float64{za, zb, zn} {
				ktCheckSoftplus(t, act, genericKernelsFor[float64](), nn, o, md, r, z)
			}
		}
	})
}

// TestKeptBackward checks keptBackward on hand-worked units: kept and
// active (0 < x, +Inf too) scale by keep; dropped or inactive ones (x =
// ±0, negative, NaN) become +0, whatever dx held, -0, NaN or ±Inf.
func TestKeptBackward(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	x := []float64{2, inf, 1e-300, 0, math.Copysign(0, -1), -3, nan, 0, 0}
	dx := []float64{-1.5, 3, 4, 7, -2, 5, 6, nan, math.Inf(-1)}
	want := []float64{-3.75, 7.5, 10, 0, 0, 0, 0, 0, 0}
	keptBackward(dx, x, 2.5)
	for i := range dx {
		if math.Float64bits(dx[i]) != math.Float64bits(want[i]) {
			t.Errorf("unit %d (x = %v): %v, want %v", i, x[i], dx[i], want[i])
		}
	}
}
