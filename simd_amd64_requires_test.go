//go:build gc && !purego

package gcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAVX2Requires audits the dispatch conditions against the generated
// assembly: avo writes above every TEXT of simd_amd64.s the CPU features
// its instructions need ("// Requires: AVX, AVX2, FMA3"), and each feature
// must be implied by the condition under which init installs the kernel,
// useAVX512 for the kernels named …AVX512 and useAVX2FMA for the others
// (simd_amd64.go), or be part of the amd64 baseline. A kernel that starts
// using, say, BMI2, or an AVX-512 subset the condition does not test,
// fails here until the condition checks that feature too.
func TestAVX2Requires(t *testing.T) {
	src, err := os.ReadFile("simd_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	// The cpu.X86 fields each dispatch condition tests, with those of the
	// conditions it refers to.
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "simd_amd64.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	conds := map[string]map[string]bool{}
	refs := map[string][]string{}
	ast.Inspect(file, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "use") {
			return true
		}
		name := vs.Names[0].Name
		conds[name] = map[string]bool{}
		ast.Inspect(vs.Values[0], func(n ast.Node) bool {
			switch e := n.(type) {
			case *ast.SelectorExpr:
				if strings.HasPrefix(e.Sel.Name, "Has") {
					conds[name][e.Sel.Name] = true
				}
			case *ast.Ident:
				if strings.HasPrefix(e.Name, "use") {
					refs[name] = append(refs[name], e.Name)
				}
			}
			return true
		})
		if _, ok := vs.Values[0].(*ast.BinaryExpr); !ok {
			t.Errorf("%s is not a conjunction", name)
		}
		return false
	})
	for name, rs := range refs {
		for _, r := range rs {
			for f := range conds[r] {
				conds[name][f] = true
			}
		}
	}

	// Each feature avo reports, and what implies it. x/sys/cpu sets
	// HasAVX2 only when the OS saves the YMM state (XGETBV), and the
	// AVX-512 fields only when it saves the ZMM and opmask state; AVX2
	// includes AVX.
	implied := map[string][]string{
		"AVX":      {"HasAVX", "HasAVX2"},
		"AVX2":     {"HasAVX2"},
		"FMA3":     {"HasFMA"},
		"AVX512F":  {"HasAVX512F"},
		"AVX512VL": {"HasAVX512VL"},
		"AVX512DQ": {"HasAVX512DQ"},
		"AVX512BW": {"HasAVX512BW"},
		"CMOV":     nil, // amd64 baseline
		"SSE2":     nil, // amd64 baseline
	}
	text := regexp.MustCompile(`(?m)^// Requires: (.*)\nTEXT ·(\w+)\(SB\)`)
	kernels := 0
	for _, m := range text.FindAllStringSubmatch(string(src), -1) {
		kernels++
		cond := "useAVX2FMA"
		if strings.HasSuffix(m[2], "AVX512") {
			cond = "useAVX512"
		}
		checked, ok := conds[cond]
		if !ok {
			t.Fatalf("no %s in simd_amd64.go", cond)
		}
		for _, f := range strings.Split(m[1], ", ") {
			fields, known := implied[f]
			if !known {
				t.Errorf("%s (needed by %s): no rule says which cpu.X86 field implies it", f, m[2])
				continue
			}
			ok := fields == nil
			for _, field := range fields {
				ok = ok || checked[field]
			}
			if !ok {
				t.Errorf("%s (needed by %s) is not implied by %s, which tests %v", f, m[2], cond, checked)
			}
		}
	}
	if kernels == 0 {
		t.Fatal("no // Requires: line in simd_amd64.s")
	}
	t.Logf("%d kernels; dispatch conditions %v", kernels, conds)
}

// TestKernelsLeaveCleanState audits every kernel of simd_amd64.s for what
// makes the Go code after it slow on Intel, where AMD's cores do not
// care: the Go compiler's scalar float64 code uses legacy SSE encodings,
// and an SSE instruction that runs while the upper half of a YMM or ZMM
// register is dirty pays a state transition (tens of cycles on Haswell and
// Broadwell) or a false dependency on the whole register (Skylake and
// later) on every instruction. So every RET must follow VZEROUPPER,
// which cleans registers 0–15, and a kernel that writes any of ZMM16–31,
// which VZEROUPPER leaves as they are, must zero each whole (VPXORD)
// before every RET; and no kernel may use a legacy SSE encoding itself.
func TestKernelsLeaveCleanState(t *testing.T) {
	src, err := os.ReadFile("simd_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	high := regexp.MustCompile(`\b[XYZ](1[6-9]|2[0-9]|3[01])\b`)
	vector := regexp.MustCompile(`\b[XYZ]\d+\b`)
	funcs := strings.Split(string(src), "\nTEXT ")[1:]
	if len(funcs) == 0 {
		t.Fatal("no TEXT in simd_amd64.s")
	}
	rets := 0
	for _, f := range funcs {
		name := f[:strings.IndexByte(f, '(')]
		var ins []string
		for _, line := range strings.Split(f, "\n")[1:] {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasSuffix(line, ":") || strings.HasPrefix(line, "//") {
				continue
			}
			ins = append(ins, line)
		}
		used := map[string]bool{}
		for _, in := range ins {
			op := strings.Fields(in)[0]
			if vector.MatchString(in) && !strings.HasPrefix(op, "V") && !strings.HasPrefix(op, "K") {
				t.Errorf("%s: %q is a legacy SSE encoding", name, in)
			}
			for _, r := range high.FindAllString(in, -1) {
				used[r[1:]] = true
			}
		}
		for i, in := range ins {
			if in != "RET" {
				continue
			}
			rets++
			zeroed := map[string]bool{}
			j := i - 1
			for ; j >= 0 && strings.HasPrefix(ins[j], "VPXORD"); j-- {
				f := strings.FieldsFunc(ins[j][len("VPXORD"):], func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
				if len(f) == 3 && f[0] == f[1] && f[1] == f[2] && f[0][0] == 'Z' {
					zeroed[f[0][1:]] = true
				}
			}
			if j < 0 || ins[j] != "VZEROUPPER" {
				t.Errorf("%s: a RET without VZEROUPPER before it", name)
			}
			for r := range used {
				if !zeroed[r] {
					t.Errorf("%s: writes register %s (ZMM%s), not zeroed before a RET", name, r, r)
				}
			}
		}
	}
	t.Logf("%d kernels, %d RETs", len(funcs), rets)
}
