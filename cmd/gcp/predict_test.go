package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// streamCases are the runs of testdata/stream/generate.sh: the name of
// their expected outputs and the command line.
var streamCases = []struct {
	name string
	args []string
}{
	{"predict_mixed", []string{"predict", "-model", "mixed.gcpm", "-data", "test_mixed.csv", "-reorder"}},
	{"predict_mixed_id", []string{"predict", "-model", "mixed.gcpm", "-data", "test_mixed.csv", "-id", "row", "-levels", "0.5,0.975"}},
	{"predict_mixed_noid", []string{"predict", "-model", "mixed.gcpm", "-data", "test_mixed_noid.csv"}},
	{"predict_num32", []string{"predict", "-model", "num32.gcpm", "-data", "test_num.csv"}},
	{"predict_num32_x", []string{"predict", "-model", "num32.gcpm", "-data", "test_num_x.csv", "-levels", "0.9"}},
	{"eval_mixed", []string{"eval", "-model", "mixed.gcpm", "-data", "test_mixed.csv", "-reorder"}},
	{"eval_num32", []string{"eval", "-model", "num32.gcpm", "-data", "test_num.csv"}},
	{"predict_multi", []string{"predict", "-model", "multi.gcpm", "-data", "test_multi.csv"}},
	{"predict_multi_semi", []string{"predict", "-model", "multi.gcpm", "-data", "test_multi_semi.csv", "-levels", "0.5,0.975"}},
	{"eval_multi", []string{"eval", "-model", "multi.gcpm", "-data", "test_multi.csv"}},
}

// TestPredictEvalOutputUnchanged checks that predict and eval, which
// read their data a chunk at a time, write what they wrote when they
// held the whole file (the outputs of the command at f025608, which
// generate.sh wrote), on stdout and stderr, for chunks of 1, 7 and the
// default number of rows, and from the standard input (-data -), which
// only the file's name in messages tells apart: the same text, and the
// same numbers up to the rounding by which kernel tables differ
// (sameUpToRounding; the files were written on AVX-512 kernels, and the
// purego, arm64, 386 and s390x legs run others). The
// tables have a text column with levels the model does not know, missing
// cells of each kind, a quoted id with a comma, an empty line, values
// outside the training range, missing targets, a float32 model and a
// file with semicolons and decimal commas; and for a model of two
// targets (an ensemble of two, a text column, a numeric column with a
// missing-value indicator), a file whose columns stand in another order
// than the model's, with the targets in it, levels never seen, missing
// cells of each kind, quoted fields, an empty line and a value far
// outside the training range.
func TestPredictEvalOutputUnchanged(t *testing.T) {
	dir := filepath.Join("testdata", "stream")
	defer func(n int) { chunkRows = n }(chunkRows)
	for _, c := range streamCases {
		wantOut, err := os.ReadFile(filepath.Join(dir, c.name+".out"))
		if err != nil {
			t.Fatal(err)
		}
		wantErr, err := os.ReadFile(filepath.Join(dir, c.name+".err"))
		if err != nil {
			t.Fatal(err)
		}
		args := make([]string, len(c.args))
		var data string
		for i, a := range c.args {
			args[i] = a
			if strings.HasSuffix(a, ".gcpm") || strings.HasSuffix(a, ".csv") {
				args[i] = filepath.Join(dir, a)
			}
			if strings.HasSuffix(a, ".csv") {
				data = args[i]
			}
		}
		for _, n := range []int{1, 7, 4096} {
			chunkRows = n
			stdout, stderr, err := gcpRun(args...)
			if err != nil || !sameUpToRounding(stdout, string(wantOut)) || !sameUpToRounding(stderr, string(wantErr)) {
				t.Errorf("%s, chunks of %d rows: %v\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", c.name, n, err, stdout, wantOut, stderr, wantErr)
			}
		}
		f, err := os.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		stdin = struct{ io.Reader }{f} // no Seek: read as a pipe is
		for i, a := range args {
			if a == data {
				args[i] = "-"
			}
		}
		stdout, stderr, err := gcpRun(args...)
		f.Close()
		stdin = os.Stdin
		if want := strings.ReplaceAll(string(wantErr), data, stdinName); err != nil || !sameUpToRounding(stdout, string(wantOut)) || !sameUpToRounding(stderr, want) {
			t.Errorf("%s from the standard input: %v\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", c.name, err, stdout, wantOut, stderr, want)
		}
	}
}

// numberToken matches a number as the command writes one.
var numberToken = regexp.MustCompile(`[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?Inf|NaN`)

// roundingTolerance is how far, relatively, a number written by
// predict or eval may move between kernel tables: a model computes the
// same on every table up to rounding (TestModelKernelsAgree), which for
// a float32 model is a few float32 units (1.2e-7 each) through the
// layers and the predictive's quantiles; 1e-5 leaves room for that and
// still catches a row shifted or encoded otherwise, whose numbers move
// by far more.
const roundingTolerance = 1e-5

// sameUpToRounding reports whether got is want with its numbers moved by
// rounding at most: the text between numbers equal, and each number
// within roundingTolerance of want's, relatively, or within one unit of
// the last digit of a figure of four digits or more (one printed to a
// few digits flips its last one where the value lies near a boundary).
func sameUpToRounding(got, want string) bool {
	g, w := numberToken.FindAllStringIndex(got, -1), numberToken.FindAllStringIndex(want, -1)
	if len(g) != len(w) {
		return false
	}
	gEnd, wEnd := 0, 0
	for i := range g {
		if got[gEnd:g[i][0]] != want[wEnd:w[i][0]] {
			return false
		}
		gs, ws := got[g[i][0]:g[i][1]], want[w[i][0]:w[i][1]]
		if gs != ws && !closeNumbers(gs, ws) {
			return false
		}
		gEnd, wEnd = g[i][1], w[i][1]
	}
	return got[gEnd:] == want[wEnd:]
}

// closeNumbers reports whether the numbers written as a and b are within
// roundingTolerance of each other, relatively, or, where b has four
// significant digits or more, one unit of its last printed digit apart.
func closeNumbers(a, b string) bool {
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	if errX != nil || errY != nil || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return false // equal spellings were compared before
	}
	d := math.Abs(x - y)
	if d <= roundingTolerance*math.Max(math.Abs(x), math.Abs(y)) {
		return true
	}
	mantissa, exp := b, 0
	if i := strings.IndexAny(b, "eE"); i >= 0 {
		mantissa = b[:i]
		exp, _ = strconv.Atoi(b[i+1:])
	}
	decimals := 0
	if i := strings.IndexByte(mantissa, '.'); i >= 0 {
		decimals = len(mantissa) - i - 1
	}
	if significant := len(strings.TrimLeft(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, mantissa), "0")); significant < 4 {
		return false // a short figure such as 1.5 may be exact: a flip is a change
	}
	return d <= 1.01*math.Pow(10, float64(exp-decimals))
}

// TestSameUpToRounding checks the comparison TestPredictEvalOutputUnchanged
// makes: rounding passes, and a changed word, a missing number, a number
// moved by more than rounding or an infinity of the other sign fail.
func TestSameUpToRounding(t *testing.T) {
	for _, c := range []struct {
		got, want string
		same      bool
	}{
		{"mean,lo\n0.7143792350475349,-Inf\n", "mean,lo\n0.7143792350475353,-Inf\n", true},
		{"RMSE 2.4567\n", "RMSE 2.4568\n", true},     // the last printed digit flips
		{"cov95 0.951\n", "cov95 0.953\n", false},    // two units of it
		{"a 1.5e-07\n", "a 1.50001e-07\n", true},     // 7e-6 relative
		{"a 1.5,2\n", "a 1.6,2\n", false},            // a number moved
		{"a 1.5\n", "a 1.5,2\n", false},              // one missing
		{"mean 1\n", "mode 1\n", false},              // the text
		{"lo +Inf\n", "lo -Inf\n", false},            // the sign of an infinity
		{"row 7 of x1,3\n", "row 7 of x1,3\n", true}, // identical
	} {
		if got := sameUpToRounding(c.got, c.want); got != c.same {
			t.Errorf("sameUpToRounding(%q, %q) = %t, want %t", c.got, c.want, got, c.same)
		}
	}
}

// streamFile returns the path of a file of testdata/stream.
func streamFile(name string) string { return filepath.Join("testdata", "stream", name) }

// TestPredictIDFeature checks that -id may name one of the model's
// features: the column is then written first as it is in the file and
// stays an input, so that every line is the field, a comma and the line
// predict writes without -id.
// regression: such an -id was refused, the column taken out as no input.
func TestPredictIDFeature(t *testing.T) {
	plain, _, err := gcpRun("predict", "-model", streamFile("mixed.gcpm"), "-data", streamFile("test_mixed_noid.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := gcpRun("predict", "-model", streamFile("mixed.gcpm"), "-data", streamFile("test_mixed_noid.csv"), "-id", "x1")
	if err != nil {
		t.Fatalf("predict -id x1: %v", err)
	}
	f, err := os.Open(streamFile("test_mixed_noid.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i, line := range strings.SplitAfter(plain, "\n") {
		if line != "" {
			want.WriteString(records[i][1] + "," + line) // x1 is the second column
		}
	}
	if got != want.String() {
		t.Errorf("predict -id x1:\n%s\nwant:\n%s", got, want.String())
	}
}

// TestPredictLevelsTooLong checks that a level of thousands of digits is
// refused at once, its text shortened in the message.
// regression: a level of 20,000 digits took 41 s to name its columns.
func TestPredictLevelsTooLong(t *testing.T) {
	level := "0.9" + strings.Repeat("0", 20000) + "1" // 0.9 as a float64
	_, _, err := gcpRun("predict", "-model", streamFile("num32.gcpm"), "-data", streamFile("test_num_x.csv"), "-levels", "0.5,"+level)
	if err == nil || !strings.Contains(err.Error(), "longer than 24 characters") || len(err.Error()) > 300 {
		t.Errorf("-levels of 20,000 digits: %v", err)
	}
	if _, err := parseLevels("0.95000000000000000001"); err != nil { // 22 characters
		t.Errorf("a level of 22 characters: %v", err)
	}
}

// TestEvalOneRow checks that eval on a file of one row with a target
// says that it needs two.
// regression: it said only "too few points".
func TestEvalOneRow(t *testing.T) {
	data := filepath.Join(t.TempDir(), "one.csv")
	if err := os.WriteFile(data, []byte("a;b;t\n0,5;1;0,7\n0,2;2;NA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := gcpRun("eval", "-model", streamFile("num32.gcpm"), "-data", data)
	if err == nil || !strings.Contains(err.Error(), "1 row with a target; eval needs at least 2") {
		t.Errorf("eval on one row: %v", err)
	}
}

// errFull is the error of a fullWriter.
var errFull = errors.New("the output is full")

// fullWriter takes lines up to lines, then fails with errFull.
type fullWriter struct{ lines int }

func (w *fullWriter) Write(b []byte) (int, error) {
	if w.lines -= bytes.Count(b, []byte("\n")); w.lines < 0 {
		return 0, errFull
	}
	return len(b), nil
}

// TestPredictStreamsStandardInput checks that predict -data - reads the
// standard input as it comes and writes each row's line as it goes, as
// CSV and as JSON Lines, and for a model of several targets: on an
// endless input it writes 20,000 lines, having read about as many rows (a
// chunk and a buffer more), and stops at the output's error.
// regression: -data - was "open -: no such file or directory", and
// predict held every row of a file before writing the first line; so did
// it for a model of several targets until that read its data as a stream.
func TestPredictStreamsStandardInput(t *testing.T) {
	defer func() { stdin = os.Stdin }()
	for _, c := range []struct{ model, format, header, row string }{
		{"num32.gcpm", "csv", "a;b\n", "0,5;1,25\n"},
		{"num32.gcpm", "json", "a;b\n", "0,5;1,25\n"},
		{"multi.gcpm", "csv", "x2,city,x1\n", "0.25,Lyon,1.5\n"},
	} {
		r, w := io.Pipe()
		written := make(chan int)
		go func() {
			n, _ := io.WriteString(w, c.header)
			block := strings.Repeat(c.row, 1000)
			for {
				k, err := io.WriteString(w, block)
				if n += k; err != nil {
					written <- n
					return
				}
			}
		}()
		stdin = r
		err := predict([]string{"-model", streamFile(c.model), "-data", "-", "-format", c.format}, &fullWriter{lines: 20000}, io.Discard)
		r.CloseWithError(io.EOF)
		n := <-written
		// 20,000 rows of 9 to 14 bytes, a chunk of 4096 and the 1024 read
		// ahead, and the readers' buffers (tens of kilobytes): at most
		// about 400 kB.
		if !errors.Is(err, errFull) || n > 1<<20 {
			t.Errorf("predict -model %s -format %s on an endless input: %v, having read %d bytes; want errFull after about 400 kB", c.model, c.format, err, n)
		}
	}
}

// TestPredictJSONLinesMatchCSV checks that predict -format json, reading
// the standard input a few rows at a time, writes one JSON object per
// row whose keys are the CSV's column names and whose values are the CSV
// row's: the -id field as a string (one holds a comma and is quoted in
// the CSV), the numbers as JSON numbers, and the ±Inf ends of a level
// never seen as the strings "Infinity" and "-Infinity", which must occur;
// and for a float32 model, the same float32 digits.
func TestPredictJSONLinesMatchCSV(t *testing.T) {
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 7
	for _, c := range []struct {
		model, data string
		args        []string
		wantInf     bool
	}{
		{"mixed.gcpm", "test_mixed.csv", []string{"-id", "row", "-levels", "0.5,0.975"}, true},
		{"num32.gcpm", "test_num.csv", nil, false},
	} {
		args := append([]string{"predict", "-model", streamFile(c.model), "-data", streamFile(c.data)}, c.args...)
		csvOut, _, err := gcpRun(args...)
		if err != nil {
			t.Fatal(err)
		}
		records, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		header, rows := records[0], records[1:]
		f, err := os.Open(streamFile(c.data))
		if err != nil {
			t.Fatal(err)
		}
		stdin = struct{ io.Reader }{f} // read as a pipe is
		args[4] = "-"
		jsonOut, _, err := gcpRun(append(args, "-format", "json")...)
		f.Close()
		stdin = os.Stdin
		if err != nil {
			t.Fatalf("%s -format json: %v", c.model, err)
		}
		lines := strings.Split(strings.TrimSuffix(jsonOut, "\n"), "\n")
		if len(lines) != len(rows) {
			t.Fatalf("%s: %d JSON lines, want %d, the CSV's rows", c.model, len(lines), len(rows))
		}
		infs := 0
		for i, line := range lines {
			d := json.NewDecoder(strings.NewReader(line))
			d.UseNumber()
			var obj map[string]any
			if err := d.Decode(&obj); err != nil {
				t.Fatalf("%s line %d: %v: %s", c.model, i+1, err, line)
			}
			if len(obj) != len(header) {
				t.Errorf("%s line %d: %d keys, want %d: %s", c.model, i+1, len(obj), len(header), line)
			}
			for k, name := range header {
				want := rows[i][k]
				switch v := obj[name].(type) {
				case json.Number:
					if got, err := strconv.ParseFloat(string(v), 64); err != nil || got != mustFloat(t, want) {
						t.Errorf("%s line %d, %s: %v, want %s", c.model, i+1, name, v, want)
					}
				case string:
					if name == "row" {
						if v != want {
							t.Errorf("%s line %d, id: %q, want %q", c.model, i+1, v, want)
						}
						continue
					}
					got, err := strconv.ParseFloat(v, 64)
					if err != nil || !math.IsInf(got, 0) || got != mustFloat(t, want) {
						t.Errorf("%s line %d, %s: %q, want a string only for ±Inf, %s", c.model, i+1, name, v, want)
					}
					infs++
				default:
					t.Errorf("%s line %d, %s: %v (%T), want %s", c.model, i+1, name, v, v, want)
				}
			}
		}
		if c.wantInf != (infs > 0) {
			t.Errorf("%s: %d infinite values; want some: %t", c.model, infs, c.wantInf)
		}
	}
}

// mustFloat parses a CSV number of predict's.
func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPredictFormatUnknown checks that a -format predict does not write
// is refused with errFormat before any row is read.
func TestPredictFormatUnknown(t *testing.T) {
	stdout, _, err := gcpRun("predict", "-model", streamFile("num32.gcpm"), "-data", streamFile("test_num.csv"), "-format", "xml")
	if !errors.Is(err, errFormat) || stdout != "" {
		t.Errorf("-format xml: %v, stdout %q; want errFormat and nothing written", err, stdout)
	}
}
