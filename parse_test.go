package gcp

import (
	"errors"
	"math"
	"testing"
)

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		decimal byte
		v       float64
		missing bool
		err     error
	}{
		{" 1.5 ", '.', 1.5, false, nil},
		{"-2e-3", '.', -2e-3, false, nil},
		{"1,5", ',', 1.5, false, nil},
		{"-0,25e1", ',', -2.5, false, nil},
		{"1.5", ',', 0, false, ErrNotNumber},
		{"1,5", '.', 0, false, ErrNotNumber},
		{"1,2,3", ',', 0, false, ErrNotNumber},
		{"", '.', 0, true, nil},
		{"  ", ',', 0, true, nil},
		{"NA", '.', 0, true, nil},
		{"na", '.', 0, true, nil},
		{"NaN", '.', 0, true, nil},
		{"nan", ',', 0, true, nil},
		{"?", '.', 0, true, nil},
		{"N/A", '.', 0, false, ErrNotNumber},
		{"Madrid", '.', 0, false, ErrNotNumber},
		{"inf", '.', 0, false, ErrNonFinite},
		{"-Infinity", '.', 0, false, ErrNonFinite},
		{"1e400", '.', 0, false, ErrNonFinite},
	} {
		v, missing, err := ParseNumber(tc.in, tc.decimal)
		if v != tc.v || missing != tc.missing || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("ParseNumber(%q, %q) = %v, %v, %v; want %v, %v, %v", tc.in, tc.decimal, v, missing, err, tc.v, tc.missing, tc.err)
		}
	}
	if a := testing.AllocsPerRun(20, func() { sinkLoss, _, _ = ParseNumber(" 12.25 ", '.') }); a != 0 {
		t.Errorf("ParseNumber allocates %v times", a)
	}
	if v, _, _ := ParseNumber("0.1", '.'); v != 0.1 || math.Signbit(v) {
		t.Error("0.1")
	}
}
