package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/gcpnet/gcp"
)

// loadFile is a data file for BenchmarkLoad to load besides its own, so
// that the peak memory of gcp train's loading of any file can be measured
// with the test binary under /usr/bin/time:
//
//	go test -c -o gcp.test ./cmd/gcp
//	/usr/bin/time -v ./gcp.test -test.run '^$' -test.bench 'Load/file/float64' -test.benchtime 1x -loadfile msd.csv
var loadFile = flag.String("loadfile", "", "a CSV file for BenchmarkLoad to load too")

// writeWide writes n rows of d numeric features, a text column of three
// levels if text, and a target to a CSV file in dir, each number with
// the digits a float32 has, as bench/msdshape writes them.
func writeWide(tb testing.TB, dir string, n, d int, text bool) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("wide%dx%d.csv", n, d))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for j := range d {
		fmt.Fprintf(w, "x%d,", j+1)
	}
	if text {
		w.WriteString("city,")
	}
	w.WriteString("y\n")
	r := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	var buf []byte
	for range n {
		buf = buf[:0]
		for range d {
			buf = strconv.AppendFloat(buf, r.NormFloat64()*100, 'g', -1, 32)
			buf = append(buf, ',')
		}
		if text {
			buf = append(buf, cities[r.IntN(len(cities))]...)
			buf = append(buf, ',')
		}
		buf = strconv.AppendFloat(buf, r.NormFloat64(), 'g', -1, 32)
		w.Write(append(buf, '\n'))
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// load reads the data file at path and encodes its rows as gcp train does
// before AutoFit gets them: the table, the encoding learned from every
// row, and the encoded rows as T.
func load[T gcp.Float](tb testing.TB, path string) (trainingData, []T) {
	var f dialectFlags
	f.sep, f.decimal = new(string), new(string)
	tab, err := f.readTable(path)
	if err != nil {
		tb.Fatal(err)
	}
	td, err := prepareTraining(tab, "", nil, "auto")
	if err != nil {
		tb.Fatal(err)
	}
	return td, asFloat[T](td.x)
}

// heap returns the bytes the heap holds after a collection, and the bytes
// allocated so far.
func heap() (live, allocated uint64) {
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return s.HeapAlloc, s.TotalAlloc
}

// TestLoadMemory checks what loading a data file keeps in memory per
// row, against what the design holds: the table, 8 bytes a number and 4
// a field of text (its code; each level once), and the encoded rows, 8
// bytes an input, beside the targets and the rows' indices, 8 bytes
// each. 16 bytes a row more are allowed for what is not per row (the
// header, the levels, the encoding), spread over the rows. A copy of the fields' text, or their string headers (16 bytes a
// field), would break the bound at once; so would a second copy of the
// encoded rows.
func TestLoadMemory(t *testing.T) {
	const n = 20000
	dir := t.TempDir()
	for _, tc := range []struct {
		d    int
		text bool
	}{{2, false}, {30, false}, {10, true}} {
		path := writeWide(t, dir, n, tc.d, tc.text)
		before, _ := heap()
		td, x := load[float64](t, path)
		after, _ := heap()
		inputs := tc.d
		tableRow := 8 * (tc.d + 1)
		if tc.text {
			inputs, tableRow = tc.d+len(cities), tableRow+4
		}
		bound := tableRow + 8*inputs + 2*8 + 16
		perRow := float64(after-before) / n
		if perRow > float64(bound) || td.enc.Inputs() != inputs || &x[0] != &td.x[0] {
			t.Errorf("%d features (text %v): %.1f bytes a row kept, want at most %d; %d inputs, want %d; the float64 rows shared: %v",
				tc.d, tc.text, perRow, bound, td.enc.Inputs(), inputs, &x[0] == &td.x[0])
		}
		runtime.KeepAlive(td)
	}
}

// BenchmarkLoad measures the loading of gcp train (loadFile's too, if
// given): reading the data file and encoding its rows as float64, which
// AutoFit takes as they are, and as float32, a copy. It reports the
// bytes allocated per row, and kept per row (after a collection, with
// the table and the rows still held), and what is kept as a multiple of
// the data's numbers as float64.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	for _, d := range []int{2, 90} {
		files[fmt.Sprintf("rows=20000,features=%d", d)] = writeWide(b, dir, 20000, d, false)
	}
	if *loadFile != "" {
		files["file"] = *loadFile
	}
	for name, path := range files {
		b.Run(name+"/float64", func(b *testing.B) { benchLoad[float64](b, path) })
		b.Run(name+"/float32", func(b *testing.B) { benchLoad[float32](b, path) })
	}
}

func benchLoad[T gcp.Float](b *testing.B, path string) {
	b.ReportAllocs()
	var live, allocated, rows, fields float64
	for range b.N {
		live0, alloc0 := heap()
		td, x := load[T](b, path)
		live1, alloc1 := heap()
		live, allocated = float64(live1-live0), float64(alloc1-alloc0)
		rows, fields = float64(td.tab.Rows()), float64(td.tab.Rows()*len(td.tab.Header))
		runtime.KeepAlive(x)
	}
	b.ReportMetric(allocated/rows, "B/row")
	b.ReportMetric(live/rows, "kept-B/row")
	b.ReportMetric(live/(8*fields), "kept/data")
}

// TestPredictLevelsThatAreNumbers checks that gcp predict reads the
// levels of a model's text column as the file writes them, where every
// field of the column in the file to predict is a number ("007" and
// "7.0" are two levels, both the number 7), and passes an -id column of
// numbers through as written: the reader keeps both as text. The
// predictions are those of the rows as records of text (PredictRecord).
func TestPredictLevelsThatAreNumbers(t *testing.T) {
	dir := t.TempDir()
	effect := map[string]float64{"007": -1, "7.0": 1, "x": 3}
	train := drawRows(21, 22, 60, func(r *rand.Rand, i int) tableRow {
		zip := []string{"007", "7.0", "x"}[i%3]
		a := r.Float64()
		return tableRow{[]string{zip, number(a, '.')}, effect[zip] + a + 0.1*r.NormFloat64()}
	})
	header := []string{"zip", "a", "y"}
	data := writeTable(t, dir, "train.csv", ",", '.', header, train)
	model := filepath.Join(dir, "m.gcpm")
	if _, stderr, err := gcpRun("train", "-data", data, "-o", model, "-validation", "0", "-epochs", "5", "-members", "1"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	test := filepath.Join(dir, "test.csv")
	if err := os.WriteFile(test, []byte("id,zip,a\n0012,007,0.5\n13.50,7.0,0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := gcpRun("predict", "-model", model, "-data", test, "-id", "id")
	if err != nil || stderr != "" {
		t.Fatalf("predict: %v, stderr %q (want no warning of unknown levels)", err, stderr)
	}
	_, rows := readPredict(t, stdout)
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ id, zip string }{{"0012", "007"}, {"13.50", "7.0"}} {
		p, notes, err := m.PredictRecord(m.NewWorkspace(), gcp.MapRecord{"zip": want.zip, "a": "0.5"})
		if err != nil || notes.Unseen != 0 {
			t.Fatalf("PredictRecord(%s): %v, %+v", want.zip, err, notes)
		}
		// The model trained in float32, the default: predict writes
		// the shortest text of the same float32.
		if rows[i]["id"] != want.id || rows[i]["mean"] != strconv.FormatFloat(p.Mean, 'g', -1, 32) {
			t.Errorf("row %d: id %s, mean %s; want %s, %v", i+1, rows[i]["id"], rows[i]["mean"], want.id, p.Mean)
		}
	}
}
