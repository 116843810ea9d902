package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/isodate"
	"github.com/gcpnet/gcp/table"
)

func TestDialectFlags(t *testing.T) {
	for _, tc := range []struct {
		sep, decimal string
		want         table.Dialect
		ok           bool
	}{
		{"", "", table.Dialect{}, true},
		{",", ".", table.Dialect{Sep: ',', Decimal: '.'}, true},
		{";", ",", table.Dialect{Sep: ';', Decimal: ','}, true},
		{"tab", "", table.Dialect{Sep: '\t'}, true},
		{"\t", "", table.Dialect{Sep: '\t'}, true},
		{`\t`, "", table.Dialect{Sep: '\t'}, true},
		{"|", "", table.Dialect{}, false},
		{";;", "", table.Dialect{}, false},
		{"", "'", table.Dialect{}, false},
		{"", ",,", table.Dialect{}, false},
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
	if !errors.Is(err, table.ErrMixed) || !strings.HasPrefix(err.Error(), data+`: line 42, column 1 (code): a column of numbers holds a field that is not one: "A17" is not a number`) {
		t.Errorf("a stray token: %v, want table.ErrMixed on line 42", err)
	}
	_, stderr, err := gcpRun("train", "-data", data, "-o", model, "-validation", "0", "-epochs", "1", "-text", "other, code")
	if err != nil || !strings.Contains(stderr, "columns: code text, one-hot: 4 levels and an input for rare levels") {
		t.Errorf("-text code: %v\n%s", err, stderr)
	}
}

// TestDataRefusesDevice checks that a character device is refused as
// -data before it is read, by every command that reads data.
// regression: issue 32's H4 (gcp train -data /dev/zero grew until the
// runtime died; predict and eval read 16 MiB of it, 130 MB of memory,
// before the record limit stopped them).
func TestDataRefusesDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	_, model := smallModel(t, dir)
	for _, args := range [][]string{
		{"train", "-data", "/dev/zero", "-o", filepath.Join(dir, "new.gcpm")},
		{"predict", "-model", model, "-data", "/dev/zero"},
		{"eval", "-model", model, "-data", "/dev/zero"},
	} {
		_, _, err := gcpRun(args...)
		if !errors.Is(err, table.ErrNotFile) || err.Error() != "/dev/zero: not a regular file or a pipe: it is a character device" {
			t.Errorf("%v: %v, want table.ErrNotFile", args, err)
		}
	}
}

// dateFile writes a table of n rows, dates from first on (one a day),
// and a target that rises with the date, to path.
func dateFile(t *testing.T, path string, first, n int) {
	var b strings.Builder
	b.WriteString("sold,price\n")
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "%s,%g\n", isodate.Format(float64(19723+i)), 100+0.5*float64(i)+float64(i%3))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTrainReadsDates checks that gcp train reads a column of ISO dates
// as a date, says so, and that predict on later dates, none of them seen
// in training, encodes them without a warning of unknown levels (as 64
// one-hot levels did: issue 33); -dates off reads them as text as
// before, and slash dates are refused where they are.
func TestTrainReadsDates(t *testing.T) {
	dir := t.TempDir()
	train, later, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "later.csv"), filepath.Join(dir, "m.gcpm")
	dateFile(t, train, 0, 150)
	dateFile(t, later, 200, 50)
	_, stderr, err := gcpRun("train", "-data", train, "-o", model, "-validation", "0", "-epochs", "2", "-members", "1", "-hidden", "4", "-target-transform", "none")
	if err != nil || !strings.Contains(stderr, "columns: sold date: days since 1970-01-01, weekday, month") {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	stdout, stderr, err := gcpRun("predict", "-model", model, "-data", later)
	if err != nil || strings.Contains(stderr, "does not know") || strings.Count(stdout, "\n") != 51 {
		t.Errorf("predict on later dates: %v, %d lines\n%s", err, strings.Count(stdout, "\n"), stderr)
	}
	_, stderr, err = gcpRun("train", "-data", train, "-o", model, "-validation", "0", "-epochs", "1", "-members", "1", "-hidden", "4", "-dates", "off")
	if err != nil || !strings.Contains(stderr, "columns: sold text, one-hot") {
		t.Errorf("-dates off: %v\n%s", err, stderr)
	}
	slash := filepath.Join(dir, "slash.csv")
	if err := os.WriteFile(slash, []byte("sold,price\n17/03/2024,1\n18/03/2024,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = gcpRun("train", "-data", slash, "-o", model)
	if !errors.Is(err, table.ErrDateFormat) || !strings.HasPrefix(err.Error(), slash+`: line 2, column 1 (sold): a date not written as YYYY-MM-DD: "17/03/2024"`) {
		t.Errorf("slash dates: %v", err)
	}
}
