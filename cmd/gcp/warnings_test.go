package main

import (
	"os"
	"path/filepath"
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
