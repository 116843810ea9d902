package main

import (
	"reflect"
	"testing"
)

// sourceSample is the input of TestComments: a comment of two lines
// above a call, a blank line that ends the comment before it, and a
// trailing comment.
func sourceSample() (above, blank, trailing site) {
	// not above: a blank line follows

	// first
	// second
	above = callSite()
	blank = callSite() // the end of the line
	trailing = blank
	return
}

func TestComments(t *testing.T) {
	above, blank, _ := sourceSample()
	if got, want := above.above(), []string{" first", " second"}; !reflect.DeepEqual(got, want) {
		t.Errorf("above = %q, want %q", got, want)
	}
	if got := blank.above(); len(got) != 0 {
		t.Errorf("above a line after code = %q", got)
	}
	if got, want := blank.trailing(), " the end of the line"; got != want {
		t.Errorf("trailing = %q, want %q", got, want)
	}
	if got := above.trailing(); got != "" {
		t.Errorf("trailing of a line without = %q", got)
	}
}

func TestIsWriter(t *testing.T) {
	for fn, want := range map[string]bool{
		"main.(*asm).op":                                    true,
		"main.(*asm).FMUL-fm":                               true,
		"github.com/gcpnet/gcp/_asm/neon.(*asm).op":         true,
		"main.elem.FMUL":                                    true,
		"main.(*table).Const":                               true,
		"main.each":                                         true,
		"main.eachOther":                                    false,
		"main.(*gcpRegs).gcpLossF64":                        false,
		"github.com/gcpnet/gcp/_asm/neon.mul.func1":         false,
		"github.com/gcpnet/gcp/_asm/neon.(*specials).glLog": false,
	} {
		if got := isWriter(fn); got != want {
			t.Errorf("isWriter(%s) = %v, want %v", fn, got, want)
		}
	}
}
