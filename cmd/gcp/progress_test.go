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
