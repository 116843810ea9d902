package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAPIRecordCurrent fails while api/v0.1.0.txt and the recorded packages'
// exported API differ: a change to the API must come with the record's.
func TestAPIRecordCurrent(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the package")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, File))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	t.Logf("%d exported names (%d lines)", count(want), len(want))
	if slices.Equal(got, want) {
		return
	}
	for _, l := range want {
		if !slices.Contains(got, l) {
			t.Errorf("not in %s: %s", File, l)
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) {
			t.Errorf("in %s but not in the code: %s", File, l)
		}
	}
	t.Errorf("the exported API and %s differ: run `go run ./internal/apigen -w` from the repository root", File)
}

// TestPackagesCoverModule fails when the module has an importable
// package (not internal, not a command) that Packages neither records nor
// leaves out on purpose: a new public package must come with its record.
func TestPackagesCoverModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages")
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Name}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/gcpnet/gcp"
	var public []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, name, _ := strings.Cut(line, " ")
		if name == "main" || strings.Contains(path+"/", "/internal/") {
			continue
		}
		public = append(public, "."+strings.TrimPrefix(path, module))
	}
	listed := slices.Concat(Packages, unrecorded)
	slices.Sort(public)
	slices.Sort(listed)
	if !slices.Equal(public, listed) {
		t.Errorf("the module's importable packages are %q; Packages and unrecorded list %q", public, listed)
	}
	if !slices.Contains(public, "./table") {
		t.Errorf("package table is not among the module's importable packages %q", public)
	}
}

// TestDescribe records a small package whose every kind of exported name
// is written out by hand, and one of each unexported kind that must not
// appear.
func TestDescribe(t *testing.T) {
	const src = `package p

import "io"

const C, c = 1.5, 2
const D T = 3
var V, v io.Reader
type T int
func (T) M(a, b int, s ...string) (int, error) { return 0, nil }
func (*T) m() {}
type S[E any] struct { F []E; g int; T }
func (s *S[E]) Get() E { var e E; return e }
type I interface { N() bool; n() }
type A = T
type u struct{ X int }
func (u) Y() {}
func F[E io.Reader](E, ...[]byte) {}
func f() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Skip("no export data for io:", err)
	}
	want := []string{
		"pkg example.com/p, const C untyped float = 3/2",
		"pkg example.com/p, const D T = 3",
		"pkg example.com/p, func F[E io.Reader](E, ...[]byte)",
		"pkg example.com/p, method (*S[E]) Get() E",
		"pkg example.com/p, method (T) M(int, int, ...string) (int, error)",
		"pkg example.com/p, type A = T",
		"pkg example.com/p, type I interface",
		"pkg example.com/p, type I interface, N() bool",
		"pkg example.com/p, type S[E any] struct",
		"pkg example.com/p, type S[E any] struct, F []E",
		"pkg example.com/p, type S[E any] struct, T T",
		"pkg example.com/p, type T int",
		"pkg example.com/p, var V io.Reader",
	}
	got := describe(pkg)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// C, D, F, A, I, S, T, V and the two methods: 10 names.
	if n := count(got); n != 10 {
		t.Errorf("count %d, want 10", n)
	}
}
