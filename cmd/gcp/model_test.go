package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
)

// TestLoadModelBounded checks that predict, eval and plot read a -model
// file that is not a root-package model without reading it whole: a
// 256 MiB file of zeros (sparse, so it costs no disk) is refused with
// gcp.ErrMagic having allocated under 1 MiB, and /dev/zero within a second.
// regression: "gcp predict -model /dev/zero" grew without bound (N2 of issue 26).
func TestLoadModelBounded(t *testing.T) {
	zeros := filepath.Join(t.TempDir(), "zeros.gcpm")
	f, err := os.Create(zeros)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = loadModel(zeros)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, gcp.ErrMagic) {
		t.Errorf("loadModel of 256 MiB of zeros = %v, want gcp.ErrMagic", err)
	}
	// 1 MiB: the bufio.Reader's 4 KiB and the error text, with room for
	// what the runtime allocates meanwhile; reading the file would take
	// 256 MiB.
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Fatalf("loadModel of 256 MiB of zeros allocated %d bytes", got)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		return
	}
	done := make(chan error, 1)
	go func() {
		_, err := loadModel("/dev/zero")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, gcp.ErrMagic) {
			t.Errorf("loadModel(/dev/zero) = %v, want gcp.ErrMagic", err)
		}
	case <-time.After(time.Second):
		t.Fatal("loadModel(/dev/zero) took over a second")
	}
}

// TestLoadModelFormats checks that loadModel reads each of the three
// formats (a network, and the golden files of package bayes's PBP and
// SVGD) as the model its format's own reader gives, and refuses a file
// cut short (gcp.ErrTruncated) or with bytes after the model
// (gcp.ErrFormat).
func TestLoadModelFormats(t *testing.T) {
	dir := t.TempDir()
	_, network := smallModel(t, dir)
	for _, c := range []struct {
		path string
		want func(b []byte) (inputs int, err error)
	}{
		{network, func(b []byte) (int, error) {
			var m gcp.Model[float64]
			err := m.UnmarshalBinary(b)
			return m.Config().Inputs, err
		}},
		{"../../bayes/testdata/pbp_v1.gcpbp", func(b []byte) (int, error) {
			var m bayes.PBP
			err := m.UnmarshalBinary(b)
			return m.Config().Inputs, err
		}},
		{"../../bayes/testdata/svgd_v1.gcpsvgd", func(b []byte) (int, error) {
			var m bayes.SVGD
			err := m.UnmarshalBinary(b)
			return m.Config().Inputs, err
		}},
	} {
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		inputs, err := c.want(b)
		if err != nil {
			t.Fatal(err)
		}
		m, err := loadModel(c.path)
		if err != nil {
			t.Errorf("loadModel(%s): %v", c.path, err)
			continue
		}
		if m.inputs() != inputs {
			t.Errorf("loadModel(%s) has %d inputs, want %d", c.path, m.inputs(), inputs)
		}
		for _, bad := range []struct {
			b    []byte
			want error
		}{{b[:len(b)-1], gcp.ErrTruncated}, {append(b, 0), gcp.ErrFormat}} {
			path := filepath.Join(dir, "bad")
			if err := os.WriteFile(path, bad.b, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := loadModel(path); !errors.Is(err, bad.want) {
				t.Errorf("loadModel of %s with %d bytes of %d = %v, want %v", c.path, len(bad.b), len(b), err, bad.want)
			}
		}
	}
}
