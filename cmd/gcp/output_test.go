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

// TestTrainOutputSafety keeps the probe's reproductions of defect 5 of
// issue 11: "gcp train -data v.csv -o v.csv" overwrote the training data
// with the model, and so did -o naming any existing file that is not a
// model. Both must be refused before training, leaving the file as it
// was; -force allows the second, never the first.
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

// TestTrainOutputLinks is defect 12 of issue 11 in the command: -o naming
// a dangling symbolic link replaced the link with a regular file. The
// model must go where the link points, and the link stay. A link to the
// training data is the training data (defect 5).
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

// TestTrainFloat32Underflow is defect 6 of issue 11: -float32 silently
// flushed small values to 0. A feature of about 1e-300 vanished (RMSE
// 0.998 against 0.004 in float64), and targets of about 1e-200 all became
// 0. A column whose largest magnitude is below float32's smallest normal
// number must be refused, naming the column, as overflow is; a column
// whose tiny values sit beside ordinary ones loses nothing to the flush
// once standardized and must train.
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

// TestTrainRefusesBadHeaderFirst reproduces N3 of issue 26: a header name
// over 1024 bytes, or an empty one, was refused only after the whole
// training (9.4 s in the probe), when the model was given the names. It
// must be refused before training, naming the file's header: with 10⁵
// epochs, training first would take 20 s. splits refuses it the same
// way. regression: N3 of issue 26.
func TestTrainRefusesBadHeaderFirst(t *testing.T) {
	dir := t.TempDir()
	for _, header := range []string{strings.Repeat("x", 1025) + ",y", ",y"} {
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
			if !errors.Is(err, gcp.ErrConfig) || !strings.Contains(err.Error(), "the header") {
				t.Errorf("%s with the header %.20q… = %v, want gcp.ErrConfig naming the header", args[0], header, err)
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
