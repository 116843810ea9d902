// Command apigen writes the record of the exported API of the module's
// recorded packages (Packages: the root package and package table),
// api/v0.1.0.txt, in the style of the Go project's own api files: one
// line per exported name, sorted, such as
//
//	pkg github.com/gcpnet/gcp, func New[T Float](Config) (*Model[T], error)
//	pkg github.com/gcpnet/gcp, method (*Model[T]) NumParams() int
//	pkg github.com/gcpnet/gcp, type Config struct, Hidden []int
//	pkg github.com/gcpnet/gcp/table, func ReadFile(string, Dialect, ...string) (*Table, error)
//
// Each exported constant, variable, function and type of the package has
// a line, as do each exported method of an exported type, each exported
// field of an exported struct type and each exported method of an
// exported interface type. The package's exported names are counted as
// issue 35 counted them: the package-level names and the methods, each
// once; fields and interface methods are recorded, and counted as part of
// their type. Run it from the repository root after changing the API:
//
//	go run ./internal/apigen -w
//
// Without -w it prints the record; its test fails while the file and the
// code differ.
package main

import (
	"flag"
	"fmt"
	"go/types"
	"os"
	"sort"
	"strings"

	"github.com/gcpnet/gcp/internal/srcpkg"
)

// File is the record, relative to the repository root.
const File = "api/v0.1.0.txt"

// Packages are the packages whose API File records, as directories
// relative to the repository root: every package of the module that a
// program imports, but the Bayesian comparators (package bayes), which
// exist to reproduce the paper's tables and promise no API.
var Packages = []string{".", "./table"}

// unrecorded are the packages of the module that a program may import
// but File does not record, each with its reason in Packages' doc.
var unrecorded = []string{"./bayes"}

func main() {
	write := flag.Bool("w", false, "write "+File+" instead of printing it")
	flag.Parse()
	lines, err := generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
	text := strings.Join(lines, "\n") + "\n"
	if !*write {
		fmt.Print(text)
		return
	}
	if err := os.WriteFile(File, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "apigen: %d exported names (%d lines) in %s\n", count(lines), len(lines), File)
}

// count is the number of exported names that lines record: every line but
// those of a struct's field or an interface's method.
func count(lines []string) int {
	n := 0
	for _, l := range lines {
		if !strings.Contains(l, " struct, ") && !strings.Contains(l, " interface, ") {
			n++
		}
	}
	return n
}

// generate returns the record's lines for the Packages of the module
// whose root is dir, sorted.
func generate(dir string) ([]string, error) {
	var lines []string
	for _, pattern := range Packages {
		p, err := srcpkg.Load(dir, pattern)
		if err != nil {
			return nil, err
		}
		lines = append(lines, describe(p.Types)...)
	}
	sort.Strings(lines)
	return lines, nil
}

// describe returns one line per exported name of pkg, sorted.
func describe(pkg *types.Package) []string {
	prefix := "pkg " + pkg.Path() + ", "
	qual := func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Name()
	}
	str := func(t types.Type) string { return types.TypeString(t, qual) }
	var lines []string
	add := func(s string) { lines = append(lines, prefix+s) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add(fmt.Sprintf("const %s %s = %s", name, str(obj.Type()), obj.Val().ExactString()))
		case *types.Var:
			add(fmt.Sprintf("var %s %s", name, str(obj.Type())))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			add("func " + name + typeParams(sig.TypeParams(), str) + signature(sig, str))
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok || obj.IsAlias() {
				add(fmt.Sprintf("type %s = %s", name, str(obj.Type())))
				continue
			}
			head := "type " + name + typeParams(named.TypeParams(), str)
			switch u := named.Underlying().(type) {
			case *types.Struct:
				add(head + " struct")
				for i := range u.NumFields() {
					if f := u.Field(i); f.Exported() {
						add(fmt.Sprintf("%s struct, %s %s", head, f.Name(), str(f.Type())))
					}
				}
			case *types.Interface:
				add(head + " interface")
				for i := range u.NumExplicitMethods() {
					if m := u.ExplicitMethod(i); m.Exported() {
						add(fmt.Sprintf("%s interface, %s%s", head, m.Name(), signature(m.Type().(*types.Signature), str)))
					}
				}
			default:
				add(head + " " + str(u))
			}
			for i := range named.NumMethods() {
				m := named.Method(i)
				if !m.Exported() {
					continue
				}
				sig := m.Type().(*types.Signature)
				recv := str(sig.Recv().Type())
				add(fmt.Sprintf("method (%s) %s%s", recv, m.Name(), signature(sig, str)))
			}
		}
	}
	sort.Strings(lines)
	return lines
}

// typeParams writes a type parameter list, [T Float], or nothing.
func typeParams(tps *types.TypeParamList, str func(types.Type) string) string {
	if tps.Len() == 0 {
		return ""
	}
	var parts []string
	for i := range tps.Len() {
		tp := tps.At(i)
		parts = append(parts, tp.Obj().Name()+" "+str(tp.Constraint()))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// signature writes a function's parameter and result types, without
// their names, as the Go project's api files do.
func signature(sig *types.Signature, str func(types.Type) string) string {
	params := tupleTypes(sig.Params(), sig.Variadic(), str)
	s := "(" + strings.Join(params, ", ") + ")"
	results := tupleTypes(sig.Results(), false, str)
	switch len(results) {
	case 0:
	case 1:
		s += " " + results[0]
	default:
		s += " (" + strings.Join(results, ", ") + ")"
	}
	return s
}

func tupleTypes(t *types.Tuple, variadic bool, str func(types.Type) string) []string {
	var out []string
	for i := range t.Len() {
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			out = append(out, "..."+str(typ.(*types.Slice).Elem()))
			continue
		}
		out = append(out, str(typ))
	}
	return out
}
