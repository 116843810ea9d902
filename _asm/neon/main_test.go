package main

import (
	"os"
	"strings"
	"testing"
)

// TestGenerate regenerates simd_arm64.s as CI does (from _asm, with -out
// ../simd_arm64.s) and requires the committed file, byte for byte: the
// committed file is the one that TestNEONWords disassembles and that the
// package's differential tests run against the generic kernels under
// qemu, so a generator that writes anything else has changed a kernel.
func TestGenerate(t *testing.T) {
	t.Chdir("..")
	const out = "../simd_arm64.s"
	got, err := generate(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("%s:%d: the generator writes\n\t%q\nthe file has\n\t%q", out, i+1, g[i], w[i])
		}
	}
	t.Fatalf("the generator writes %d lines, %s has %d", len(g), out, len(w))
}
