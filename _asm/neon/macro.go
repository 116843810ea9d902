package main

import (
	"reflect"
	"runtime"
	"strings"
	"unicode"
)

// funcName returns the name of the function or method fn.
func funcName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	name = strings.TrimSuffix(name, "-fm") // a method value
	return name[strings.LastIndexByte(name, '.')+1:]
}

// macroName is the name of the macro that the Go function name writes:
// glSoftplusExp writes GL_SOFTPLUS_EXP.
func macroName(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// Param returns a macro's label parameter: its parts, joined.
func (a *asm) Param(parts ...string) label { return label(strings.Join(parts, "")) }

// vparam returns a macro's vector-register parameter.
func vparam(name string) vreg { return vreg{param: name} }

// Macro writes the #define of the macro whose body the method or function
// body writes when called with the element type and params, preceded by
// its doc comment (Doc, and the comment above the call). Its name is the
// Go function's in upper case, words joined with _, and the family's
// suffix.
func (a *asm) Macro(body any, params ...operand) {
	key := funcName(body) + a.t.suffix
	name := macroName(funcName(body)) + a.t.suffix
	docs := a.takeDocs(callSite())
	a.para()
	for i, d := range docs {
		if i > 0 {
			a.comments([]string{""})
		}
		a.comments(d)
	}
	a.lines = append(a.lines, &line{kind: rawLine, code: "#define " + use(name, params) + " \\"})
	args := []reflect.Value{reflect.ValueOf(a), reflect.ValueOf(a.t)}
	for _, x := range params {
		args = append(args, reflect.ValueOf(x))
	}
	a.macro = true
	reflect.ValueOf(body).Call(args)
	a.macro = false
	a.lines[len(a.lines)-1].cont = false
	a.macros[key] = name
}

// Invoke writes the use of the macro that body writes (Macro), with args.
func (a *asm) Invoke(body any, args ...operand) *line {
	name, ok := a.macros[funcName(body)+a.t.suffix]
	if !ok {
		if name, ok = a.macros[funcName(body)]; !ok {
			panic("neon: macro " + funcName(body) + " used before its #define")
		}
	}
	return a.op(a.t.arr, use(name, args))
}

// use writes name(args), or name when there are none, the arguments as
// they are: a vector register without an arrangement.
func use(name string, args []operand) string {
	if len(args) == 0 {
		return name
	}
	s := make([]string, len(args))
	for i, x := range args {
		if v, ok := x.(vreg); ok {
			s[i] = v.name()
		} else {
			s[i] = x.asm(arrangement{})
		}
	}
	return name + "(" + strings.Join(s, ", ") + ")"
}
