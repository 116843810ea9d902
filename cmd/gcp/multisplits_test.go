package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/filetest"
)

// multiSplitFlags train a small network of targets a and b fast: one
// candidate, one member, 8 hidden units, 20 epochs.
var multiSplitFlags = []string{"-target", "a,b", "-members", "1", "-epochs", "20", "-hidden", "8", "-lr", "0.003", "-dropout", "0", "-law", "joint"}

// threeSplits writes a split file of three test splits of 12 rows each
// of a 120-row file into dir and returns its path and the splits.
func threeSplits(t *testing.T, dir string) (string, [][]int) {
	t.Helper()
	var tests [][]int
	var b strings.Builder
	for s := range 3 {
		var test []int
		var f []string
		for i := range 12 {
			test = append(test, 7*i+s) // spread through the file, disjoint
			f = append(f, strconv.Itoa(7*i+s))
		}
		tests = append(tests, test)
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	path := filepath.Join(dir, "idx.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, tests
}

// splitPairs returns the KEY VALUE pairs of each "split i: ..." line of
// gcp splits' stderr for several targets, as printed.
func splitPairs(t *testing.T, stderr string) []map[string]string {
	t.Helper()
	var out []map[string]string
	for _, line := range strings.Split(stderr, "\n") {
		rest, ok := strings.CutPrefix(line, fmt.Sprintf("split %d: ", len(out)))
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, " (lr ")
		m := map[string]string{}
		for _, p := range strings.Split(rest, ", ") {
			k, v, _ := strings.Cut(p, " ")
			m[k] = v
		}
		out = append(out, m)
	}
	return out
}

// TestSplitsSeveralTargetsMatchTrainEval: each split's figures of
// splits -target a,b are those that gcp train -target a,b with the same
// flags on the split's training rows, then gcp eval on its test rows,
// print, to the last digit; -json records carry eval's keys.
func TestSplitsSeveralTargetsMatchTrainEval(t *testing.T) {
	dir := t.TempDir()
	data := twoTargetCSV(t, dir, 120, 3)
	idx, tests := threeSplits(t, dir)
	_, stderr, err := gcpRun(append([]string{"splits", "-data", data, "-splits", idx}, multiSplitFlags...)...)
	if err != nil {
		t.Fatalf("splits: %v\n%s", err, stderr)
	}
	got := splitPairs(t, stderr)
	if len(got) != 3 {
		t.Fatalf("want 3 split lines in\n%s", stderr)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(filetest.Read(t, data), "\n"), "\n")
	header, rows := lines[0], lines[1:]
	for s, test := range tests {
		var train, held strings.Builder
		train.WriteString(header)
		held.WriteString(header)
		for i, r := range rows {
			if slices.Contains(test, i) {
				held.WriteString(r)
			} else {
				train.WriteString(r)
			}
		}
		trainCSV, testCSV, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv"), filepath.Join(dir, "m.gcpm")
		if err := errors.Join(os.WriteFile(trainCSV, []byte(train.String()), 0o644), os.WriteFile(testCSV, []byte(held.String()), 0o644)); err != nil {
			t.Fatal(err)
		}
		if _, stderr, err := gcpRun(append([]string{"train", "-data", trainCSV, "-o", model, "-force"}, multiSplitFlags...)...); err != nil {
			t.Fatalf("train: %v\n%s", err, stderr)
		}
		out, _, err := gcpRun("eval", "-model", model, "-data", testCSV)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			k, v, _ := strings.Cut(line, " ")
			want[k] = v
		}
		if len(want) < 18 || fmt.Sprint(got[s]) != fmt.Sprint(want) {
			t.Errorf("split %d: splits printed\n%v\ntrain then eval print\n%v", s, got[s], want)
		}
	}
	stdout, stderr, err := gcpRun(append([]string{"splits", "-data", data, "-splits", idx, "-n", "1", "-json"}, multiSplitFlags...)...)
	if err != nil {
		t.Fatalf("splits -json: %v\n%s", err, stderr)
	}
	recs := strings.Split(strings.TrimSpace(stdout), "\n")
	var rec, sum map[string]any
	if len(recs) != 2 || json.Unmarshal([]byte(recs[0]), &rec) != nil || json.Unmarshal([]byte(recs[1]), &sum) != nil {
		t.Fatalf("splits -json -n 1 printed\n%s", stdout)
	}
	for k, v := range got[0] {
		f, ok := rec[k].(float64)
		if k != "N" && (!ok || fmt.Sprintf("%.4f", f) != v && fmt.Sprintf("%.6g", f) != v) {
			t.Errorf("-json %s: %v, want %s as printed", k, rec[k], v)
		}
		if _, ok := sum[k]; !ok {
			t.Errorf("-json summary lacks %s: %s", k, recs[1])
		}
	}
}

// TestSplitsSeveralTargetsInnerReadsNoTestRow: with -inner, a test row's
// target poisoned (a = 1e6) changes nothing that gcp splits -target a,b
// prints, while scoring on the test rows it shows.
func TestSplitsSeveralTargetsInnerReadsNoTestRow(t *testing.T) {
	dir := t.TempDir()
	clean := twoTargetCSV(t, dir, 120, 5)
	idx, tests := threeSplits(t, dir)
	lines := strings.Split(filetest.Read(t, clean), "\n")
	f := strings.Split(lines[1+tests[0][0]], ",")
	f[2] = "1e6"
	lines[1+tests[0][0]] = strings.Join(f, ",")
	poisoned := filepath.Join(dir, "poisoned.csv")
	if err := os.WriteFile(poisoned, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(data string, flags ...string) []map[string]string {
		_, stderr, err := gcpRun(append(append([]string{"splits", "-data", data, "-splits", idx, "-n", "1"}, multiSplitFlags...), flags...)...)
		if err != nil {
			t.Fatalf("splits %s: %v\n%s", flags, err, stderr)
		}
		return splitPairs(t, stderr)
	}
	if a, b := run(clean, "-inner"), run(poisoned, "-inner"); len(a) != 1 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("-inner: the clean file gives\n%v\nthe poisoned one\n%v", a, b)
	}
	if a, b := run(clean), run(poisoned); a[0]["RMSE:a"] == b[0]["RMSE:a"] {
		t.Errorf("on the test rows the poisoned row leaves RMSE:a at %s: the test cannot see a read", a[0]["RMSE:a"])
	}
}

// TestSplitsSeveralTargetsRefusesFlags: flags that do not apply to
// several targets are refused as gcp train -target refuses them.
func TestSplitsSeveralTargetsRefusesFlags(t *testing.T) {
	dir := t.TempDir()
	data := twoTargetCSV(t, dir, 120, 3)
	idx, _ := threeSplits(t, dir)
	for _, flag := range [][]string{{"-method", "dpd"}, {"-validation", "0"}, {"-fixed-alpha", "2"}} {
		_, _, err := gcpRun(append([]string{"splits", "-data", data, "-splits", idx, "-target", "a,b"}, flag...)...)
		if !errors.Is(err, errMultiTarget) {
			t.Errorf("splits -target a,b %s: %v, want errMultiTarget", flag, err)
		}
	}
}
