package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestStubs checks the file selection and the ABI0 layout on hand-laid
// declarations: a float32 after a pointer packs at 4, a second one at the
// next 4, the bool result starts at the next multiple of 8, and without a
// result the frame ends with the last parameter.
func TestStubs(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"k_arm64.go": "package p\n\nfunc sgd(n int, p2, p *float32, lr, mu float32) bool\nfunc withBody() {}\n",
		"k_amd64.go": "package p\n\nfunc amd(n int)\n",
		"k_linux.go": "package p\n\nfunc scale(n int, x *float32, a float32)\n",
		"k_tag.go":   "//go:build arm64 && !purego\n\npackage p\n\nfunc loss(n int, x *float64, a float64, tmp *float64) float64\nfunc none()\n",
		"k_test.go":  "package p\n\nfunc test(n int)\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	files, err := stubFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	stubs, err := loadStubs(files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]stub{
		"sgd": {
			decl: "func sgd(n int, p2, p *float32, lr, mu float32) bool",
			args: []arg{{"n", "int", 0, 8}, {"p2", "*float32", 8, 8}, {"p", "*float32", 16, 8},
				{"lr", "float32", 24, 4}, {"mu", "float32", 28, 4}, {"ret", "bool", 32, 1}},
			params: 5,
			frame:  33,
		},
		"loss": {
			decl: "func loss(n int, x *float64, a float64, tmp *float64) float64",
			args: []arg{{"n", "int", 0, 8}, {"x", "*float64", 8, 8}, {"a", "float64", 16, 8},
				{"tmp", "*float64", 24, 8}, {"ret", "float64", 32, 8}},
			params: 4,
			frame:  40,
		},
		"none": {decl: "func none()"},
		"scale": {
			decl:   "func scale(n int, x *float32, a float32)",
			args:   []arg{{"n", "int", 0, 8}, {"x", "*float32", 8, 8}, {"a", "float32", 16, 4}},
			params: 3,
			frame:  20,
		},
	}
	if !reflect.DeepEqual(stubs, want) {
		t.Errorf("got %+v\nwant %+v", stubs, want)
	}
}

// TestStubLayoutPadding checks a float32 before an int: the int starts at
// the next multiple of 8.
func TestStubLayoutPadding(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "k.go")
	if err := os.WriteFile(file, []byte("package p\n\nfunc f(a float32, n int) (ret bool)\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := loadStubs([]string{file}); err == nil {
		t.Error("a named result: no error")
	}
	if err := os.WriteFile(file, []byte("package p\n\nfunc f(a float32, n int) bool\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	stubs, err := loadStubs([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stubs["f"].args, []arg{{"a", "float32", 0, 4}, {"n", "int", 8, 8}, {"ret", "bool", 16, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
