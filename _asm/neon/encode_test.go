package main

import "testing"

// TestEncode checks the encoder on the examples of the ARM manual's
// tables and on each form it knows; TestNEONWords in the package checks
// every WORD of the generated file through the disassembler.
func TestEncode(t *testing.T) {
	for _, c := range []struct {
		mn   string
		want uint32
	}{
		{"FADD V0.4S, V1.4S, V2.4S", 0x4E22D420},
		{"FMUL V0.2D, V1.2D, V2.2D", 0x6E62DC20},
		{"FMUL V0.4S, V0.4S, V4.4S", 0x6E24DC00},
		{"FADD V16.4S, V16.4S, V17.4S", 0x4E31D610},
		{"FADDP V16.4S, V16.4S, V16.4S", 0x6E30D610},
		{"FADDP S16, V16.2S", 0x7E30DA10},
		{"FCMGT V1.2D, V1.2D, V0.2D", 0x6EE0E421},
		{"FSUB V5.2D, V5.2D, V3.2D", 0x4EE3D4A5},
	} {
		got, err := encode(c.mn)
		if err != nil || got != c.want {
			t.Errorf("encode(%q) = %#08x, %v; want %#08x", c.mn, got, err, c.want)
		}
	}
	for _, bad := range []string{"FADD V0.4S, V1.4S", "FFOO V0.4S, V1.4S, V2.4S", "FADD X0, V1.4S, V2.4S"} {
		if _, err := encode(bad); err == nil {
			t.Errorf("encode(%q): no error", bad)
		}
	}
}
