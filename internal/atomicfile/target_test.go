package atomicfile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/filetest"
)

// writeFile writes text to the file name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckPaths checks what Check refuses and accepts: a directory is
// not a regular file, a missing directory cannot take the file, a new
// file can be created; and that it leaves nothing behind.
func TestCheckPaths(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (Target{Path: sub, Kind: Model}).Check(); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Check(directory) = %v, want ErrNotRegular", err)
	}
	if err := (Target{Path: filepath.Join(dir, "missing", "m.gcpm"), Kind: Model}).Check(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Check in a missing directory = %v, want fs.ErrNotExist", err)
	}
	if err := (Target{Path: filepath.Join(dir, "m.gcpm"), Kind: Model}).Check(); err != nil {
		t.Errorf("Check of a new file: %v", err)
	}
	filetest.Only(t, dir, "sub")
	filetest.Only(t, sub)
}

// TestTargetRefusesInputs checks that an input reached through a
// symbolic link, a hard link or its own name is refused as a target, with
// or without Force, and left as it was.
// regression: gcp plot turned its data file into a PNG through a link (N1 of issue 26).
func TestTargetRefusesInputs(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", "x,y\n1,2\n")
	png := writeFile(t, dir, "m.png", MagicPNG+"an input that is also a PNG")
	sym, hard := filepath.Join(dir, "sym.png"), filepath.Join(dir, "hard.png")
	if err := os.Symlink(data, sym); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if err := os.Link(data, hard); err != nil {
		t.Skipf("no hard links: %v", err)
	}
	for _, c := range []struct{ out, input string }{{sym, data}, {hard, data}, {data, data}, {png, png}, {data, hard}} {
		for _, force := range []bool{false, true} {
			tg := Target{Path: c.out, Kind: PNG, Force: force, Inputs: []string{"missing.csv", c.input}}
			if err := tg.Check(); !errors.Is(err, ErrInput) {
				t.Errorf("Check(-o %s, input %s, force %v) = %v, want ErrInput", filepath.Base(c.out), filepath.Base(c.input), force, err)
			}
			if err := tg.Write(context.Background(), writeText("overwritten")); !errors.Is(err, ErrInput) {
				t.Errorf("Write(-o %s, input %s, force %v) = %v, want ErrInput", filepath.Base(c.out), filepath.Base(c.input), force, err)
			}
		}
	}
	if got := filetest.Read(t, data); got != "x,y\n1,2\n" {
		t.Errorf("the input is now %q", got)
	}
	filetest.Only(t, dir, "d.csv", "m.png", "sym.png", "hard.png")
}

// TestTargetKind checks that a file is replaced only by its own kind: a
// model over a model of any of the three formats, a PNG over a PNG, and
// either over an empty file; another regular file only with Force.
// regression: N1 of issue 26 (an existing file that is not a PNG).
func TestTargetKind(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"gcpm": MagicGCPM + "rest", "pbp": MagicPBP + "rest", "svgd": MagicSVGD + "rest",
		"png": MagicPNG + "rest", "empty": "", "text": "x,y\n1,2\n", "short": "GCP",
	}
	for _, c := range []struct {
		kind Kind
		ok   []string
	}{
		{Model, []string{"gcpm", "pbp", "svgd", "empty"}},
		{PNG, []string{"png", "empty"}},
	} {
		for name, text := range files {
			path := writeFile(t, dir, name, text)
			for _, force := range []bool{false, true} {
				err := (Target{Path: path, Kind: c.kind, Force: force}).Check()
				switch want := force || slices.Contains(c.ok, name); {
				case want && err != nil:
					t.Errorf("%s over %s (force %v): %v", c.kind.Name, name, force, err)
				case !want && !errors.Is(err, ErrForeign):
					t.Errorf("%s over %s (force %v) = %v, want ErrForeign", c.kind.Name, name, force, err)
				}
			}
			if err := (Target{Path: path, Kind: c.kind}).Write(context.Background(), writeText("new")); err == nil {
				if !slices.Contains(c.ok, name) {
					t.Errorf("%s written over %s", c.kind.Name, name)
				}
			} else if got := filetest.Read(t, path); got != text {
				t.Errorf("a refused %s changed %s to %q", c.kind.Name, name, got)
			}
		}
	}
}

// TestFollowLoop checks that a loop of symbolic links is an error, not a
// hang.
func TestFollowLoop(t *testing.T) {
	if runtime.GOOS == "wasip1" {
		t.Skip("WASI has no portable symbolic links")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink(b, a); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if err := os.Symlink(a, b); err != nil {
		t.Fatal(err)
	}
	if err := (Target{Path: a, Kind: Model}).Check(); err == nil {
		t.Error("Check through a loop of links succeeded")
	}
}
