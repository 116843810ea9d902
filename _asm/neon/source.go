package main

import (
	"embed"
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"runtime"
	"strings"
)

// sources is the generator's own source: the comments of simd_arm64.s are
// Go comments here, beside the calls that write what they describe, and
// the writer reads them from the line it is called from (see asm).
//
//go:embed *.go
var sources embed.FS

// fileComments holds the // comments of one source file by line, each as
// written after its //: own are the comments alone on their line,
// trailing those that end a line of code.
type fileComments struct {
	own, trailing map[int]string
}

var commentsByFile = map[string]*fileComments{}

// commentsOf returns the comments of the source file named file (a path,
// as the runtime reports it; its base name is looked up in sources).
func commentsOf(file string) *fileComments {
	base := path.Base(strings.ReplaceAll(file, `\`, "/"))
	if c, ok := commentsByFile[base]; ok {
		return c
	}
	src, err := sources.ReadFile(base)
	if err != nil {
		panic(fmt.Sprintf("neon: the writer is called from %s, which is not embedded: %v", file, err))
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, base, src, parser.ParseComments)
	if err != nil {
		panic(err)
	}
	lines := strings.Split(string(src), "\n")
	c := &fileComments{own: map[int]string{}, trailing: map[int]string{}}
	for _, g := range f.Comments {
		for _, cm := range g.List {
			text, ok := strings.CutPrefix(cm.Text, "//")
			if !ok {
				continue // a /* */ comment is the generator's own
			}
			p := fset.Position(cm.Slash)
			if strings.TrimSpace(lines[p.Line-1][:p.Column-1]) == "" {
				c.own[p.Line] = text
			} else {
				c.trailing[p.Line] = text
			}
		}
	}
	commentsByFile[base] = c
	return c
}

// site is a line of the generator's source that calls the writer.
type site struct {
	file string
	line int
}

// callSite returns the innermost caller outside the writer: the line of a
// kernel (or of a helper of kernels) that asked for what is being written.
func callSite() site {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if !isWriter(f.Function) {
			return site{f.File, f.Line}
		}
		if !more {
			panic("neon: no caller outside the writer")
		}
	}
}

// writers are the functions that write for their caller: the methods of
// the types named with a final dot, and the functions named.
var writers = []string{"(*asm).", "elem.", "(*defines).", "(*table).", "each"}

// isWriter reports whether function, a name as the runtime reports it
// (main.(*asm).op, or with the package's path in a test), is one of the
// writers.
func isWriter(function string) bool {
	function = function[strings.LastIndexByte(function, '/')+1:]
	function = function[strings.IndexByte(function, '.')+1:]
	for _, w := range writers {
		if function == w || strings.HasSuffix(w, ".") && strings.HasPrefix(function, w) {
			return true
		}
	}
	return false
}

// above returns the comments alone on the lines right above s, in order.
func (s site) above() []string {
	c := commentsOf(s.file)
	var lines []string
	for l := s.line - 1; ; l-- {
		text, ok := c.own[l]
		if !ok {
			break
		}
		lines = append(lines, text)
	}
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return lines
}

// trailing returns the comment at the end of s, or "".
func (s site) trailing() string { return commentsOf(s.file).trailing[s.line] }
