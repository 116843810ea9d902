package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/longtest"
)

// TestTrainCountFeaturesNeedNoFallback trains with zero flags on the
// training rows of split 2 of the oes97 benchmark
// (bench/multi_benchmark.py: 300 rows, 263 features of counts spanning
// orders of magnitude, 16 targets), whose robust z-scores reach 2600. The
// model bounds its standardized inputs, so the ensemble of the settings
// the search chose trains without falling back on slower ones.
// regression: a fresh member's joint density of some row underflowed to
// zero, and every ensemble diverged until the search's next best
// settings at a slower rate.
func TestTrainCountFeaturesNeedNoFallback(t *testing.T) {
	longtest.Skip(t)
	data, err := os.ReadFile("../../data/multi/oes97.csv")
	if err != nil {
		t.Fatal(err)
	}
	splits, err := os.ReadFile("../../data/multi/splits/oes97_test_idx.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	test := map[int]bool{}
	for _, v := range strings.Split(strings.Split(string(splits), "\n")[2], ",") {
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			t.Fatal(err)
		}
		test[i] = true
	}
	train := []string{lines[0]}
	for i, l := range lines[1:] {
		if !test[i] {
			train = append(train, l)
		}
	}
	dir := t.TempDir()
	path, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "m.gcpm")
	if err := os.WriteFile(path, []byte(strings.Join(train, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	header := strings.Split(lines[0], ",")
	targets := strings.Join(header[len(header)-16:], ",")
	// The joint network's ensemble is what diverged: -law joint trains it
	// alone, not beside the sixteen one-target recipes.
	_, stderr, err := gcpRun("train", "-data", path, "-target", targets, "-law", "joint", "-o", model)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	if strings.Contains(stderr, "diverged") || strings.Contains(stderr, "fell back") {
		t.Errorf("the ensemble fell back:\n%s", stderr)
	}
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatalf("no model written: %v", err)
	}
	if m.InputBound() != 50 {
		t.Errorf("the model's input bound is %v, want 50", m.InputBound())
	}
}

// TestSummaryNamesTheFallback: where the ensemble of the search's winner
// diverged, train's summary names each diverged setting in turn and says
// that it fell back, now that no benchmark set makes it (see
// TestTrainCountFeaturesNeedNoFallback).
func TestSummaryNamesTheFallback(t *testing.T) {
	diverged := []string{"learning rate 0.003, dropout 0.1, hidden [50], scale weighting 0.5", "learning rate 0.001, dropout 0, hidden [50], scale weighting 0.5"}
	var b strings.Builder
	fitResult{auto: gcp.AutoResult{Diverged: diverged, LearningRate: 1e-3, Hidden: []int{50}}, members: 5, rows: 300}.summarize(&b, "gcp", "m.gcpm", time.Second)
	want := "the ensemble of " + diverged[0] + " diverged (a step would have made it non-finite; the search's single network had not)\n" +
		"the ensemble of " + diverged[1] + " diverged (a step would have made it non-finite; the search's single network had not)\n" +
		"fell back in turn to the search's next best settings"
	if !strings.Contains(b.String(), want) {
		t.Errorf("summary:\n%s\nwant it to contain\n%s", b.String(), want)
	}
	b.Reset()
	fitResult{auto: gcp.AutoResult{LearningRate: 1e-3, Hidden: []int{50}}, members: 5, rows: 300}.summarize(&b, "gcp", "m.gcpm", time.Second)
	if strings.Contains(b.String(), "diverged") || strings.Contains(b.String(), "fell back") {
		t.Errorf("summary without a fallback:\n%s", b.String())
	}
}
