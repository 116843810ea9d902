package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestShorten checks shorten on texts of 40 runes and more, of one and
// of two bytes a rune.
func TestShorten(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{strings.Repeat("a", 40), strings.Repeat("a", 40)},
		{strings.Repeat("a", 41), strings.Repeat("a", 40) + "…"},
		{strings.Repeat("é", 40), strings.Repeat("é", 40)},
		{strings.Repeat("é", 50), strings.Repeat("é", 40) + "…"},
	} {
		if got := shorten(c.in); got != c.want {
			t.Errorf("shorten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWarningShortensField checks that a warning shows at most 40 runes
// of the field it names, then an ellipsis.
// regression: an unseen level of a megabyte was written whole to stderr.
func TestWarningShortensField(t *testing.T) {
	level := strings.Repeat("é", 1<<20)
	data := filepath.Join(t.TempDir(), "big_level.csv")
	if err := os.WriteFile(data, []byte("city,x1,x2\n"+level+",1,0.5\nParis,2,0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := gcpRun("predict", "-model", streamFile("mixed.gcpm"), "-data", data)
	want := `have a level the model does not know (first: ` + data + ` line 2, city = "` + strings.Repeat("é", 40) + `…")`
	if err != nil || !strings.Contains(stderr, want) || len(stderr) > 1000 {
		t.Errorf("a level of a megabyte: %v; stderr of %d bytes, want it to hold %q:\n%.1000s", err, len(stderr), want, stderr)
	}
}

// TestWarningRangeAtModelPrecision checks that the range a warning names
// is written at the model's precision: a float32 model's bounds are
// float32 numbers, whose shortest float32 digits are the data's.
// regression: 0.1 was written as 0.10000000149011612.
func TestWarningRangeAtModelPrecision(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 1; i <= 30; i++ {
		b.WriteString(strconv.Itoa(i%9+1) + "e-1," + strconv.Itoa(i%5) + "\n")
	}
	train, test, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv"), filepath.Join(dir, "m.gcpm")
	if err := os.WriteFile(train, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte("x,y\n5,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, precision := range []string{"-float32", "-float64"} {
		if _, stderr, err := gcpRun("train", "-data", train, "-o", model, "-force", precision, "-validation", "0", "-epochs", "2", "-members", "1"); err != nil {
			t.Fatalf("train %s: %v\n%s", precision, err, stderr)
		}
		_, stderr, err := gcpRun("predict", "-model", model, "-data", test)
		if want := "x = 5, trained on [0.1, 0.9])"; err != nil || !strings.Contains(stderr, want) {
			t.Errorf("predict with a %s model: %v; stderr %q, want it to hold %q", precision, err, stderr, want)
		}
	}
}
