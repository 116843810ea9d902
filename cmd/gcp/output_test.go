package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/filetest"
	"github.com/gcpnet/gcp/table"
)

// trainOnce runs "gcp train -validation 0" for one epoch on data,
// writing to out.
func trainOnce(data, out string, extra ...string) error {
	_, _, err := gcpRun(append([]string{"train", "-data", data, "-o", out, "-validation", "0", "-epochs", "1"}, extra...)...)
	return err
}

// unchanged fails t unless the file at path holds text.
func unchanged(t *testing.T, path, text string) {
	t.Helper()
	if got := filetest.Read(t, path); got != text {
		t.Errorf("%s changed", path)
	}
}

// TestTrainOutputSafety checks that gcp train's -o naming the training
// data, or an existing file that is not a model, is refused before
// training, leaving the file as it was; -force allows the second, never
// the first.
// regression: "gcp train -data v.csv -o v.csv" overwrote the data with the model (issue 11).
func TestTrainOutputSafety(t *testing.T) {
	dir := t.TempDir()
	data := writeSynthetic(t, dir, "v.csv", 1, 20, false)
	dataText := filetest.Read(t, data)
	for _, extra := range [][]string{nil, {"-force"}} {
		if err := trainOnce(data, data, extra...); !errors.Is(err, atomicfile.ErrInput) {
			t.Errorf("train -o the data %v = %v, want atomicfile.ErrInput", extra, err)
		}
		unchanged(t, data, dataText)
	}

	// A file that is not a model needs -force.
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("not a model\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := trainOnce(data, notes); err == nil || !strings.Contains(err.Error(), "-force") {
		t.Errorf("train -o notes.txt = %v, want an error asking for -force", err)
	}
	unchanged(t, notes, "not a model\n")
	if err := trainOnce(data, notes, "-force"); err != nil {
		t.Fatalf("train -o notes.txt -force: %v", err)
	}
	if _, err := gcp.LoadFile[float64](notes); err != nil {
		t.Errorf("-force wrote no model: %v", err)
	}
	// A model, and an empty file, are replaced without -force.
	empty := filepath.Join(dir, "empty.gcpm")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{notes, empty} {
		if err := trainOnce(data, out); err != nil {
			t.Errorf("train -o %s: %v", out, err)
		}
	}
}

// TestTrainOutputLinks checks that -o naming a dangling symbolic link
// writes the model where the link points, and the link stays; a link to
// the training data is the training data, and refused.
// regression: a dangling link was replaced by a regular file (issue 11).
func TestTrainOutputLinks(t *testing.T) {
	if runtime.GOOS == "wasip1" {
		t.Skip("WASI has no portable symbolic links: a runtime may refuse path_symlink")
	}
	dir := t.TempDir()
	data := writeSynthetic(t, dir, "v.csv", 1, 20, false)
	dataText := filetest.Read(t, data)
	dataLink := filepath.Join(dir, "data-link.gcpm")
	if err := os.Symlink(data, dataLink); err != nil {
		t.Fatal(err)
	}
	if err := trainOnce(data, dataLink, "-force"); !errors.Is(err, atomicfile.ErrInput) {
		t.Errorf("train -o a link to the data = %v, want atomicfile.ErrInput", err)
	}
	unchanged(t, data, dataText)

	if err := os.Mkdir(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.gcpm")
	if err := os.Symlink(filepath.Join("models", "m.gcpm"), link); err != nil {
		t.Fatal(err)
	}
	if err := trainOnce(data, link); err != nil {
		t.Fatalf("train -o dangling link: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("-o link is no longer a link (%v)", err)
	}
	if _, err := gcp.LoadFile[float64](filepath.Join(dir, "models", "m.gcpm")); err != nil {
		t.Errorf("the link's target holds no model: %v", err)
	}
}

// TestTrainFloat32Underflow checks that with -float32 a column whose
// largest magnitude is below float32's smallest normal number is refused,
// naming the column, as overflow is, and that a column whose tiny values
// sit beside ordinary ones, which loses nothing to the flush once
// standardized, trains.
// regression: -float32 flushed a feature of about 1e-300 and targets of 1e-200 to 0 (issue 11).
func TestTrainFloat32Underflow(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, row func(i int) string) string {
		var b strings.Builder
		b.WriteString("a,b,y\n")
		for i := 1; i <= 20; i++ {
			b.WriteString(row(i) + "\n")
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tinyX := write("tiny-x.csv", func(i int) string { return fmt.Sprintf("%de-300,%d,%d", i, i%3, i) })
	// Targets of 1e-60, not the probe's 1e-200, whose scale float64 models
	// refuse too (TestTargetScaleRange in the library).
	tinyY := write("tiny-y.csv", func(i int) string { return fmt.Sprintf("%d,%d,%de-60", i, i%3, i) })
	mixed := write("mixed.csv", func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("%d,%d,%d", i, i%3, i)
		}
		return fmt.Sprintf("%de-300,%d,%d", i, i%3, i)
	})
	model := filepath.Join(dir, "m.gcpm")
	for _, c := range []struct{ data, column string }{{tinyX, "column 1 (a)"}, {tinyY, "column 3 (y)"}} {
		_, _, err := gcpRun("train", "-data", c.data, "-o", model, "-epochs", "1", "-float32")
		if err == nil || !strings.Contains(err.Error(), c.column) || !strings.Contains(err.Error(), "-float64") {
			t.Errorf("train -float32 on %s = %v, want an error naming %s and suggesting -float64", filepath.Base(c.data), err, c.column)
		}
		if _, _, err := gcpRun("train", "-data", c.data, "-o", model, "-epochs", "1", "-validation", "0"); err != nil {
			t.Errorf("train -float64 on %s: %v", filepath.Base(c.data), err)
		}
	}
	if _, _, err := gcpRun("train", "-data", mixed, "-o", model, "-epochs", "1", "-float32", "-validation", "0"); err != nil {
		t.Errorf("train -float32 with 1e-300 beside 2..20: %v", err)
	}
}

// TestTrainRefusesBadHeaderFirst checks that a header name over 1024
// bytes, or an empty one, is refused before training, naming the file's
// header (with 10⁵ epochs, training first would take 20 s), by train and
// splits alike (the reader refuses the empty name, the library the long
// one).
// regression: a bad header name was refused only after the whole training (N3 of issue 26).
func TestTrainRefusesBadHeaderFirst(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		header string
		want   error
		text   string
	}{
		{strings.Repeat("x", 1025) + ",y", gcp.ErrConfig, "the header"},
		{",y", table.ErrHeader, "bad header"},
	} {
		header := tc.header
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := range 70 {
			fmt.Fprintf(&b, "%d,%d%s\n", i, i%7, strings.Repeat(",1", strings.Count(header, ",")-1))
		}
		data := filepath.Join(dir, "d.csv")
		if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"train", "-data", data, "-o", filepath.Join(dir, "m.gcpm"), "-epochs", "100000", "-validation", "0"},
			{"splits", "-data", data, "-splits", writeSplitFile(t, dir), "-epochs", "100000", "-validation", "0"},
		} {
			_, _, err := gcpRun(args...)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("%s with the header %.20q… = %v, want %v naming the header", args[0], header, err, tc.want)
			}
		}
	}
	filetest.Only(t, dir, "d.csv", "splits.txt")
}

// writeSplitFile writes a split file of one test split, rows 0 to 9, to
// dir and returns its path.
func writeSplitFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "splits.txt")
	if err := os.WriteFile(path, []byte("0,1,2,3,4,5,6,7,8,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
