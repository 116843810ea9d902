//go:build gc && !purego

package gcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestAVX2Requires audits the dispatch condition against the generated
// assembly: avo writes above every TEXT of simd_amd64.s the CPU features
// its instructions need ("// Requires: AVX, AVX2, FMA3"), and each feature
// must be implied by the condition under which init installs the kernels
// (useAVX2FMA in simd_amd64.go) or be part of the amd64 baseline. A kernel
// that starts using, say, AVX-512 or BMI2 fails here until the condition
// checks that feature too.
func TestAVX2Requires(t *testing.T) {
	src, err := os.ReadFile("simd_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{} // feature → kernels
	text := regexp.MustCompile(`(?m)^// Requires: (.*)\nTEXT ·(\w+)\(SB\)`)
	for _, m := range text.FindAllStringSubmatch(string(src), -1) {
		for _, f := range strings.Split(m[1], ", ") {
			required[f] = append(required[f], m[2])
		}
	}
	if len(required) == 0 {
		t.Fatal("no // Requires: line in simd_amd64.s")
	}

	// The cpu.X86 fields the dispatch condition tests.
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "simd_amd64.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "useAVX2FMA" {
			return true
		}
		ast.Inspect(vs.Values[0], func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Has") {
				checked[sel.Sel.Name] = true
			}
			return true
		})
		if _, ok := vs.Values[0].(*ast.BinaryExpr); !ok {
			t.Errorf("useAVX2FMA is not a conjunction of cpu.X86 fields")
		}
		return false
	})

	// Each feature avo reports, and what implies it. x/sys/cpu sets
	// HasAVX2 only when the OS saves the YMM state (XGETBV), and AVX2
	// includes AVX.
	implied := map[string][]string{
		"AVX":  {"HasAVX", "HasAVX2"},
		"AVX2": {"HasAVX2"},
		"FMA3": {"HasFMA"},
		"CMOV": nil, // amd64 baseline
		"SSE2": nil, // amd64 baseline
	}
	var features []string
	for f := range required {
		features = append(features, f)
	}
	sort.Strings(features)
	for _, f := range features {
		fields, known := implied[f]
		if !known {
			t.Errorf("%s (needed by %v): no rule says which cpu.X86 field implies it", f, required[f])
			continue
		}
		ok := fields == nil
		for _, field := range fields {
			ok = ok || checked[field]
		}
		if !ok {
			t.Errorf("%s (needed by %v) is not implied by useAVX2FMA, which tests %v", f, required[f], checked)
		}
	}
	t.Logf("features %v, dispatch tests %v", features, checked)
}
