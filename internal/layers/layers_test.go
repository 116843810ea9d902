package layers

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/srcpkg"
)

// TestArchitectureLayers holds the root package to docs/architecture.md,
// in the amd64 and the arm64 build (their kernel files differ): no file
// refers to a file of a later layer unless the page keeps that reference
// with its reason, within a layer none to a file listed after it, and no
// files refer to each other in a cycle. Every file the table lists exists.
func TestArchitectureLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the package")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	table, err := ParseDoc(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range table.Layers {
		for _, f := range l.Files {
			if _, err := os.Stat(filepath.Join(root, f)); err != nil {
				t.Errorf("layer %q lists %s: %v", l.Name, f, err)
			}
		}
	}
	for _, goarch := range []string{"amd64", "arm64"} {
		p, err := srcpkg.Load(root, ".", "GOOS=linux", "GOARCH="+goarch)
		if err != nil {
			t.Fatal(err)
		}
		refs := References(p)
		r := Check(table, p, refs)
		largest := 0
		for _, c := range r.Cycles {
			largest = max(largest, len(c))
		}
		t.Logf("%s: %d files, %d file-to-file references, %d upward (%d of %d pairs of layers), %d cycles (largest %d files)",
			goarch, len(p.Names), r.Edges, len(r.Upward), r.Pairs, len(table.Layers)*(len(table.Layers)-1)/2, len(r.Cycles), largest)
		for _, e := range r.Upward {
			t.Logf("%s: upward: %s (%s)", goarch, e, strings.Join(refs[e], ", "))
		}
		for _, pr := range r.Problems {
			t.Errorf("%s: %s", goarch, pr)
		}
	}
}

const sampleDoc = "# x\n\n## The layers, bottom up\n\n" +
	"| layer | what | files |\n|---|---|---|\n" +
	"| low | l | `a.go`, `b.go` (b) |\n" +
	"| high | h | `c.go`, `internal/x` |\n" +
	"| command | c | `cmd/gcp/` |\n\n" +
	"## Upward references kept\n\n- `a.go` → `c.go`: a reason\n\n## After\n\n- `b.go` → `c.go`: not read\n"

// TestParseDoc reads the layers and kept references of a small page:
// rows without a root file are no layers, and only the kept section's
// bullets count.
func TestParseDoc(t *testing.T) {
	table, err := ParseDoc([]byte(sampleDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := []Layer{{"low", []string{"a.go", "b.go"}}, {"high", []string{"c.go"}}}
	if !reflect.DeepEqual(table.Layers, want) {
		t.Errorf("layers %v, want %v", table.Layers, want)
	}
	if len(table.Kept) != 1 || table.Kept[Edge{"a.go", "c.go"}] != ": a reason" {
		t.Errorf("kept %v, want a.go → c.go only", table.Kept)
	}
	if _, err := ParseDoc([]byte(strings.Replace(sampleDoc, "`c.go`", "`a.go`", 1))); err == nil {
		t.Error("a file in two layers parsed")
	}
}

// TestCheckFindsEachProblem builds references by hand, one problem each,
// and checks that Check reports exactly those.
func TestCheckFindsEachProblem(t *testing.T) {
	table, err := ParseDoc([]byte(sampleDoc))
	if err != nil {
		t.Fatal(err)
	}
	p := &srcpkg.Package{Names: []string{"a.go", "b.go", "c.go", "d.go"}}
	refs := map[Edge][]string{
		{"c.go", "a.go"}: {"down"},  // fine
		{"a.go", "c.go"}: {"kept"},  // kept upward, but with c → a a cycle
		{"b.go", "c.go"}: {"up"},    // upward, not kept
		{"a.go", "b.go"}: {"order"}, // within a layer, to a file listed after
	}
	r := Check(table, p, refs)
	if r.Edges != 4 || len(r.Upward) != 2 || r.Pairs != 1 {
		t.Errorf("%d references, upward %v over %d pairs; want 4, a.go → c.go and b.go → c.go, 1", r.Edges, r.Upward, r.Pairs)
	}
	if want := [][]string{{"a.go", "b.go", "c.go"}}; !reflect.DeepEqual(r.Cycles, want) {
		t.Errorf("cycles %v, want %v", r.Cycles, want)
	}
	wantProblems := []string{
		"a.go refers to b.go",
		"cycle between 3 files",
		"d.go is in no layer",
		"upward reference b.go → c.go",
	}
	if len(r.Problems) != len(wantProblems) {
		t.Fatalf("problems %q, want %d", r.Problems, len(wantProblems))
	}
	for i, w := range wantProblems {
		if !strings.HasPrefix(r.Problems[i], w) {
			t.Errorf("problem %d is %q, want it to start %q", i, r.Problems[i], w)
		}
	}
	delete(refs, Edge{"a.go", "c.go"})
	if r := Check(table, p, refs); !strings.Contains(strings.Join(r.Problems, "\n"), "kept upward reference a.go → c.go is no longer") {
		t.Errorf("a kept reference that is gone is not reported: %q", r.Problems)
	}
}
