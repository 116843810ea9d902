package main

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestPredictGivenOrderEnsemble: -given names its targets "in any order"
// (predict's help), and TestPredictGivenJointClosedForm checks that
// -given c,b writes what -given b,c does, for a single network. For an
// ensemble (here the joint t of 3 members, float64, so that the output
// keeps every bit) the two orders reach the library's Conditional with
// the given indices in different orders, and its arithmetic is not
// symmetric in them: the outputs differ in the last bits.
func TestPredictGivenOrderEnsemble(t *testing.T) {
	dir := t.TempDir()
	data := featuresCSV(t, filepath.Join(dir, "train.csv"), 150, rand.New(rand.NewPCG(1, 3)), "a,b,c", threeTargets)
	model := filepath.Join(dir, "ens.gcpm")
	if _, stderr, err := gcpRun("train", "-data", data, "-target", "a,b,c", "-o", model, "-members", "3", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0", "-law", "joint", "-target-transform", "log", "-float64"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	test := featuresCSV(t, filepath.Join(dir, "test.csv"), 20, rand.New(rand.NewPCG(2, 3)), "a,b,c", threeTargets)
	ac, _, err := gcpRun("predict", "-model", model, "-data", test, "-given", "a,c")
	if err != nil {
		t.Fatal(err)
	}
	ca, _, err := gcpRun("predict", "-model", model, "-data", test, "-given", "c,a")
	if err != nil {
		t.Fatal(err)
	}
	if ac != ca {
		t.Errorf("-given a,c and -given c,a write different numbers:\n%s\n%s", firstDiff(ac, ca), firstDiff(ca, ac))
	}
}

// firstDiff returns the first line of a that differs from b's.
func firstDiff(a, b string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			s := i
			for s > 0 && a[s-1] != '\n' {
				s--
			}
			e := i
			for e < len(a) && a[e] != '\n' {
				e++
			}
			return a[s:e]
		}
	}
	return ""
}
