package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
)

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	bar := newProgressBar(&buf, 4)
	for e := 1; e <= 4; e++ {
		if !bar.update(gcp.EpochStats{Epoch: e, TrainNLL: 1.5}) {
			t.Fatal("update returned false, which would stop training")
		}
	}
	bar.finish()
	out := buf.String()
	// The first epoch and the last are always drawn; those between only
	// if 100 ms have passed, which the test does not control.
	for _, want := range []string{"\r[=======                       ] epoch 1/4  -log p 1.5  ",
		"\r[==============================] epoch 4/4  -log p 1.5  took "} {
		if !strings.Contains(out, want) {
			t.Errorf("progress output %q lacks %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\x1b[K\n") {
		t.Errorf("progress output %q does not end its line", out)
	}

	var quiet *progressBar
	if !quiet.update(gcp.EpochStats{Epoch: 1}) {
		t.Error("a nil bar's update returned false")
	}
	quiet.finish()
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("a regular file or a buffer counts as a terminal")
	}
}

// TestFitProgress feeds fitProgress the rounds of an ensemble's fit: each
// phase gets a line of its own that ends by saying how long it took (the
// ensemble's too, which early stopping ends before its total), and the
// summary names every phase with how far it went.
func TestFitProgress(t *testing.T) {
	var buf bytes.Buffer
	f := newFitProgress(&buf)
	for _, r := range []gcp.AutoProgress{
		{Phase: gcp.PhaseSearch, Done: 1, Total: 3, Round: 1, Candidates: 16, Epochs: 11, BestValNLL: 1.5},
		{Phase: gcp.PhaseSearch, Done: 3, Total: 3, Round: 3, Candidates: 2, Epochs: 100, BestValNLL: 1.25},
		{Phase: gcp.PhaseEnsemble, Done: 1, Total: 100, Epochs: 1, BestValNLL: 2},
		{Phase: gcp.PhaseEnsemble, Done: 40, Total: 100, Epochs: 40, BestValNLL: 1},
		{Phase: gcp.PhaseCalibration, Done: 150, Total: 150},
	} {
		f.update(r)
	}
	f.end()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want one per phase:\n%q", len(lines), buf.String())
	}
	for i, want := range []string{"search round 3/3  2 candidates, 100 epochs, best held-out NLL 1.25  took ",
		"ensemble epoch 40/100  best held-out NLL 1  took ",
		"calibration fold epoch 150/150  5 fold models, each to predict the rows it does not train on  took "} {
		last := lines[i][strings.LastIndex(lines[i], "\r")+1:]
		if !strings.Contains(last, want) {
			t.Errorf("line %d ends as %q, want %q", i+1, last, want)
		}
	}
	sum := f.summary()
	for _, want := range []string{"search ", " (3 rounds), ensemble ", " (40 epochs, the calibration folds training behind it), calibration ", " (150 fold epochs)"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary %q lacks %q", sum, want)
		}
	}
	// Without a calibration phase (AutoFit's calibration split) the
	// ensemble's span names no folds.
	split := newFitProgress(nil)
	split.update(gcp.AutoProgress{Phase: gcp.PhaseSearch, Done: 3, Total: 3})
	split.update(gcp.AutoProgress{Phase: gcp.PhaseEnsemble, Done: 100, Total: 100})
	split.end()
	if sum := split.summary(); !strings.HasSuffix(sum, " (100 epochs)") {
		t.Errorf("summary without folds %q, want it to end in \" (100 epochs)\"", sum)
	}
	// Off a terminal nothing is drawn, and the spans are still kept.
	quiet := newFitProgress(nil)
	quiet.update(gcp.AutoProgress{Phase: gcp.PhaseSearch, Done: 3, Total: 3})
	quiet.end()
	if !strings.HasPrefix(quiet.summary(), "search ") {
		t.Errorf("a fitProgress off a terminal sums up %q", quiet.summary())
	}
	// The transforms compared side by side, then the kept one's ensemble
	// and folds: the comparison's time together, with what each ran,
	// then the kept transform's phases after its name.
	both := newFitProgress(nil)
	for _, tr := range []gcp.TargetTransform{gcp.TransformNone, gcp.TransformLog} {
		both.update(gcp.AutoProgress{Phase: gcp.PhaseSearch, Done: 3, Total: 3, Transform: tr})
		both.update(gcp.AutoProgress{Phase: gcp.PhaseCalibration, Done: 150, Total: 150, Transform: tr})
	}
	both.update(gcp.AutoProgress{Phase: gcp.PhaseEnsemble, Done: 100, Total: 100, Transform: gcp.TransformLog})
	both.update(gcp.AutoProgress{Phase: gcp.PhaseCalibration, Done: 500, Total: 500, Transform: gcp.TransformLog})
	both.end()
	sum = both.summary()
	if !strings.HasPrefix(sum, "target transforms none and log searched side by side ") ||
		!strings.Contains(sum, " (none: 3 rounds, 150 fold epochs; log: 3 rounds, 150 fold epochs); target transform log: ensemble ") ||
		!strings.Contains(sum, " (100 epochs, the calibration folds training behind it), calibration ") ||
		!strings.HasSuffix(sum, " (500 fold epochs)") {
		t.Errorf("summary of two transforms' runs %q", sum)
	}
	// regression: where the kept transform's ensemble diverged and the
	// recipe fell back to the other's, the other's phases were named the
	// kept one's.
	fell := newFitProgress(nil)
	for _, tr := range []gcp.TargetTransform{gcp.TransformNone, gcp.TransformLog} {
		fell.update(gcp.AutoProgress{Phase: gcp.PhaseSearch, Done: 3, Total: 3, Transform: tr})
	}
	fell.update(gcp.AutoProgress{Phase: gcp.PhaseEnsemble, Done: 12, Total: 100, Transform: gcp.TransformNone})
	fell.update(gcp.AutoProgress{Phase: gcp.PhaseEnsemble, Done: 100, Total: 100, Transform: gcp.TransformLog})
	fell.update(gcp.AutoProgress{Phase: gcp.PhaseCalibration, Done: 500, Total: 500, Transform: gcp.TransformLog})
	fell.end()
	sum = fell.summary()
	if !strings.Contains(sum, "; target transform none: ensemble ") ||
		!strings.Contains(sum, " (12 epochs, the calibration folds training behind it); target transform log: ensemble ") ||
		!strings.Contains(sum, " (100 epochs, the calibration folds training behind it), calibration ") {
		t.Errorf("summary of a fall-back to the other transform %q", sum)
	}
	// Several targets with the copula law fitted too: the joint network's
	// phases with their times, then each marginal's one-target recipe,
	// which trained beside it, target by target, without.
	laws := newFitProgress(nil)
	for m := range 3 {
		laws.update(gcp.AutoProgress{Phase: gcp.PhaseSearch, Done: 3, Total: 3, Marginal: m})
		laws.update(gcp.AutoProgress{Phase: gcp.PhaseCalibration, Done: 150 + m, Total: 150 + m, Marginal: m})
	}
	laws.end()
	sum = laws.summary()
	if !strings.HasPrefix(sum, "search ") || !strings.Contains(sum, " (150 fold epochs); the one-target recipes of the copula's marginals, beside it: target 1: search 3 of 3, calibration 151 of 151; target 2: search 3 of 3, calibration 152 of 152") {
		t.Errorf("summary of the laws' runs %q", sum)
	}
}
