package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
)

// stub is the Go declaration of an assembly function: the generator takes
// each kernel's signature from it, as avo's Implement does, so that the
// "// func" line, the argument offsets and the frame size of every TEXT
// follow the declaration.
type stub struct {
	decl   string // "func name(params) results", as declared
	args   []arg  // the parameters, then the results
	params int    // how many of args are parameters
	frame  int    // bytes of arguments and results
}

// arg is an argument or result of a stub, the operand name+off(FP).
type arg struct {
	name, typ string
	off, size int
}

// pointer reports whether the argument is a pointer.
func (x arg) pointer() bool { return strings.HasPrefix(x.typ, "*") }

func (x arg) asm(arrangement) string { return x.name + "+" + itoa(x.off) + "(FP)" }

// stubFiles lists the Go files of dir that the arm64 build compiles, less
// the tests.
func stubFiles(dir string) ([]string, error) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.Compiler, ctx.CgoEnabled = "linux", "arm64", "gc", false
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, name); err != nil {
			return nil, err
		} else if ok {
			files = append(files, filepath.Join(dir, name))
		}
	}
	return files, nil
}

// loadStubs returns the functions without a body that the files declare,
// by name.
func loadStubs(files []string) (map[string]stub, error) {
	stubs := map[string]stub{}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body != nil || fd.Recv != nil {
				continue
			}
			s, err := stubOf(fd)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", fset.Position(fd.Pos()), err)
			}
			stubs[fd.Name.Name] = s
		}
	}
	return stubs, nil
}

// stubOf lays out fd's arguments as the Go ABI0 does on arm64: each
// parameter at the next multiple of its size, the results from the next
// multiple of 8 after them.
func stubOf(fd *ast.FuncDecl) (stub, error) {
	var s stub
	off := 0
	place := func(fields *ast.FieldList, unnamed string) ([]string, error) {
		var text []string
		if fields == nil {
			return nil, nil
		}
		for _, fl := range fields.List {
			size, ok := argSizes[types.ExprString(fl.Type)]
			if !ok {
				if _, ptr := fl.Type.(*ast.StarExpr); !ptr {
					return nil, fmt.Errorf("%s: argument type %s", fd.Name.Name, types.ExprString(fl.Type))
				}
				size = 8
			}
			var names []string
			for _, n := range fl.Names {
				names = append(names, n.Name)
			}
			if len(names) == 0 {
				names = []string{unnamed}
			}
			for _, n := range names {
				off = (off + size - 1) / size * size
				s.args = append(s.args, arg{n, types.ExprString(fl.Type), off, size})
				off += size
			}
			if len(fl.Names) == 0 {
				text = append(text, types.ExprString(fl.Type))
			} else {
				text = append(text, strings.Join(names, ", ")+" "+types.ExprString(fl.Type))
			}
		}
		return text, nil
	}
	params, err := place(fd.Type.Params, "_")
	if err != nil {
		return s, err
	}
	s.params = len(s.args)
	if fd.Type.Results != nil {
		off = (off + 7) / 8 * 8
	}
	results, err := place(fd.Type.Results, "ret")
	if err != nil {
		return s, err
	}
	if r := fd.Type.Results; r != nil && (len(r.List) > 1 || len(r.List[0].Names) > 0) {
		return s, fmt.Errorf("%s: results other than one unnamed", fd.Name.Name)
	}
	s.frame = off
	s.decl = "func " + fd.Name.Name + "(" + strings.Join(params, ", ") + ")"
	if len(results) == 1 {
		s.decl += " " + results[0]
	}
	return s, nil
}

// argSizes are the sizes of the argument types on arm64, pointers aside.
var argSizes = map[string]int{"int": 8, "uint": 8, "uintptr": 8, "float64": 8, "float32": 4, "int32": 4, "uint32": 4, "bool": 1}

// buildLine returns the //go:build line of the Go file named file, or ""
// when it has none.
func buildLine(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); constraint.IsGoBuild(line) {
			return line, nil
		} else if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return "", sc.Err()
}
