// Package srcpkg type-checks one package of this module from its source,
// for the checks that read the code rather than run it: the layering of
// the root package's files (package layers) and the record of its
// exported API (package apigen). It uses the standard library only: the
// go command lists the package's files and the export data of what it
// imports, go/parser and go/types do the rest.
package srcpkg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Package is a type-checked package: its non-test files, parsed with
// comments, and what go/types found in them.
type Package struct {
	Dir   string // the package's directory
	Fset  *token.FileSet
	Files []*ast.File // the non-test Go files of the current build, in the go command's order
	Names []string    // Files' base names, in the same order
	Types *types.Package
	Info  *types.Info
}

// listed is the part of `go list -json` that Load reads.
type listed struct {
	Dir        string
	ImportPath string
	Export     string
	GoFiles    []string
	CgoFiles   []string
	Standard   bool
}

// Load type-checks the package named by pattern (a directory such as
// "." or an import path), as the go command would build it for the
// current GOOS and GOARCH, with dir as the working directory and env
// ("GOARCH=arm64", ...) added to the go command's environment.
func Load(dir, pattern string, env ...string) (*Package, error) {
	// -deps lists the package after everything it imports; -export
	// builds their export data, which the importer reads.
	cmd := exec.Command("go", "list", "-deps", "-export", "-json=Dir,ImportPath,Export,GoFiles,CgoFiles,Standard", pattern)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v: %s", pattern, err, stderr.Bytes())
	}
	exports := map[string]string{}
	var target listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list %s: %v", pattern, err)
		}
		exports[p.ImportPath] = p.Export
		target = p // the named package comes last
	}
	if len(target.CgoFiles) > 0 {
		return nil, fmt.Errorf("%s: cgo files are not supported", target.ImportPath)
	}
	fset := token.NewFileSet()
	pkg := &Package{Dir: target.Dir, Fset: fset, Names: target.GoFiles}
	for _, name := range target.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(target.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkg.Files = append(pkg.Files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(file)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg.Info = &types.Info{
		Uses: map[*ast.Ident]types.Object{},
		Defs: map[*ast.Ident]types.Object{},
	}
	pkg.Types, err = conf.Check(target.ImportPath, fset, pkg.Files, pkg.Info)
	if err != nil {
		return nil, err
	}
	return pkg, nil
}

// FileOf is the base name of the file that declares obj, or "" when obj
// has no position (a universe object) or lies in another package.
func (p *Package) FileOf(obj types.Object) string {
	if obj == nil || obj.Pkg() != p.Types {
		return ""
	}
	return p.FileAt(obj.Pos())
}

// FileAt is the base name of the file that holds pos, or "" for no
// position.
func (p *Package) FileAt(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return filepath.Base(p.Fset.Position(pos).Filename)
}
