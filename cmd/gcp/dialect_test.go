package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/dataset"
)

func TestDialectFlags(t *testing.T) {
	for _, tc := range []struct {
		sep, decimal string
		want         dataset.Dialect
		ok           bool
	}{
		{"", "", dataset.Dialect{}, true},
		{",", ".", dataset.Dialect{Sep: ',', Decimal: '.'}, true},
		{";", ",", dataset.Dialect{Sep: ';', Decimal: ','}, true},
		{"tab", "", dataset.Dialect{Sep: '\t'}, true},
		{"\t", "", dataset.Dialect{Sep: '\t'}, true},
		{`\t`, "", dataset.Dialect{Sep: '\t'}, true},
		{"|", "", dataset.Dialect{}, false},
		{";;", "", dataset.Dialect{}, false},
		{"", "'", dataset.Dialect{}, false},
		{"", ",,", dataset.Dialect{}, false},
	} {
		c := newCommand("t", "t", "")
		f := addDialectFlags(c)
		if err := c.fs.Parse([]string{"-sep", tc.sep, "-decimal", tc.decimal}); err != nil {
			t.Fatal(err)
		}
		got, err := f.dialect()
		if (err == nil) != tc.ok || err == nil && got != tc.want {
			t.Errorf("-sep %q -decimal %q: %+v, %v; want %+v (ok %v)", tc.sep, tc.decimal, got, err, tc.want, tc.ok)
		}
	}
}

// TestTrainTextFlag checks that a column of numbers with a stray token is
// an error naming it, and that -text reads the column as text, which the
// encoding then takes as categorical.
// regression: issue 32's H2 (the token made the column text in silence).
func TestTrainTextFlag(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("code,y\n")
	for i := range 100 {
		code := strconv.Itoa(1000 + i%4)
		if i == 40 {
			code = "A17"
		}
		fmt.Fprintf(&b, "%s,%d\n", code, i%4)
	}
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.gcpm")
	_, _, err := gcpRun("train", "-data", data, "-o", model, "-validation", "0", "-epochs", "1")
	if !errors.Is(err, dataset.ErrMixed) || !strings.HasPrefix(err.Error(), data+`: line 42, column 1 (code): a column of numbers holds a field that is not one: "A17" is not a number`) {
		t.Errorf("a stray token: %v, want dataset.ErrMixed on line 42", err)
	}
	_, stderr, err := gcpRun("train", "-data", data, "-o", model, "-validation", "0", "-epochs", "1", "-text", "other, code")
	if err != nil || !strings.Contains(stderr, "columns: code text, one-hot: 4 levels and an input for rare levels") {
		t.Errorf("-text code: %v\n%s", err, stderr)
	}
}

// TestTrainRefusesDevice checks that a character device is refused as
// -data before it is read. regression: issue 32's H4 (gcp train -data
// /dev/zero grew until the runtime died).
func TestTrainRefusesDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	_, _, err := gcpRun("train", "-data", "/dev/zero", "-o", filepath.Join(dir, "m.gcpm"))
	if !errors.Is(err, dataset.ErrNotFile) || err.Error() != "/dev/zero: not a regular file or a pipe: it is a character device" {
		t.Errorf("train -data /dev/zero: %v, want dataset.ErrNotFile", err)
	}
}
