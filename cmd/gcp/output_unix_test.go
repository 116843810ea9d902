//go:build linux || darwin

package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/filetest"
)

// TestTrainOutputFIFO checks that gcp train refuses a FIFO or a device as
// -o before training, and leaves it as it was. A FIFO stands in for the
// device, so that the test cannot harm the machine it runs on.
// regression: as root, "gcp train -o /dev/null" replaced /dev/null with a model (issue 11).
func TestTrainOutputFIFO(t *testing.T) {
	dir := t.TempDir()
	data := writeSynthetic(t, dir, "d.csv", 1, 20, false)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO on this system: %v", err)
	}
	// 10⁶ epochs would take minutes: the refusal must come first.
	_, _, err := gcpRun("train", "-data", data, "-o", fifo, "-epochs", "1000000", "-force")
	if !errors.Is(err, gcp.ErrNotRegular) {
		t.Errorf("train -o FIFO = %v, want gcp.ErrNotRegular", err)
	}
	if fi, err := os.Stat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the FIFO is now %v (%v)", fi.Mode(), err)
	}
}

// TestSaveModelInterrupted checks that saveModel stops on SIGINT with no
// temporary file left and the old model in place: the test sends one as
// soon as the temporary file appears. It subscribes to SIGINT itself, so
// that a signal that arrives after the save cannot end the test binary; a
// save that finished before the signal is tried again.
// regression: Ctrl-C during a save left a hidden temporary file as large as the model (issue 11).
func TestSaveModelInterrupted(t *testing.T) {
	catchSIGINT(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gcpm")
	small, err := gcp.New[float32](gcp.Config{Inputs: 1, Hidden: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := gcp.SaveFile(path, small); err != nil {
		t.Fatal(err)
	}
	old := filetest.Read(t, path)
	// 4·2048² parameters: a 67 MB file, many 4 MiB chunks.
	big, err := gcp.New[float32](gcp.Config{Inputs: 1, Hidden: []int{2048, 2048}})
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 1; ; attempt++ {
		done := make(chan error, 1)
		go func() {
			ctx, stop := interruptContext()
			defer stop()
			done <- saveModel(ctx, atomicfile.Target{Path: path, Kind: atomicfile.Model}, big)
		}()
		err := interruptWhenTemp(t, dir, done)
		filetest.Only(t, dir, "m.gcpm")
		if err != nil {
			if !strings.Contains(err.Error(), "interrupted") {
				t.Fatalf("saveModel = %v, want an interruption", err)
			}
			if filetest.Read(t, path) != old {
				t.Fatal("the interrupted save changed the old model")
			}
			return
		}
		if attempt == 3 {
			t.Fatal("three saves finished before SIGINT arrived")
		}
		if err := gcp.SaveFile(path, small); err != nil {
			t.Fatal(err)
		}
	}
}

// interruptWhenTemp sends SIGINT to the process as soon as dir holds a
// temporary file of a save, and returns the save's result from done.
func interruptWhenTemp(t *testing.T, dir string, done chan error) error {
	for {
		select {
		case err := <-done:
			return err
		default:
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp") {
				if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
					t.Fatal(err)
				}
				return <-done
			}
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestPlotOutputFIFO checks that gcp plot refuses a FIFO as -o at once,
// forced or not, and the FIFO stays a FIFO. If plot blocks, the test fails
// and reads the FIFO so that it can end.
// regression: "mkfifo f.png; gcp plot -o f.png" reported "wrote" and exited 0 (N6 of issue 26).
func TestPlotOutputFIFO(t *testing.T) {
	dir := t.TempDir()
	data, model := smallModel(t, dir)
	fifo := filepath.Join(dir, "f.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO on this system: %v", err)
	}
	for _, force := range []string{"-force=false", "-force"} {
		done := make(chan error, 1)
		go func() {
			_, _, err := gcpRun("plot", "-model", model, "-data", data, "-o", fifo, force)
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("plot -o FIFO %s blocked for 5 s", force)
			if f, err := os.Open(fifo); err == nil { // let the writer finish
				io.Copy(io.Discard, f)
				f.Close()
			}
			err = <-done
		}
		if !errors.Is(err, gcp.ErrNotRegular) {
			t.Errorf("plot -o FIFO %s = %v, want gcp.ErrNotRegular", force, err)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the FIFO is now %v (%v)", fi.Mode(), err)
	}
}

// TestTrainInterrupted checks that gcp train (the automatic recipe, plain
// Fit with -validation 0, and a comparator of package bayes) and gcp
// splits stop on SIGINT within an epoch, return an error saying they were
// interrupted (main prints it on stderr and exits 2), and leave -o as it
// was. The test sends SIGINT every 20 ms until the command returns, having
// subscribed to SIGINT itself, so that a signal that arrives before the
// command listens cannot end the test binary.
// regression: training could not be cancelled (N10 of issue 26).
func TestTrainInterrupted(t *testing.T) {
	catchSIGINT(t)
	dir := t.TempDir()
	data, model := smallModel(t, dir)
	old := filetest.Read(t, model)
	// Zero flags, the automatic recipe, take 20 rows and more.
	large := writeSynthetic(t, dir, "large.csv", 1, 200, false)
	for _, args := range [][]string{
		{"train", "-data", large, "-o", model, "-epochs", "100000"},
		{"train", "-data", data, "-o", model, "-epochs", "100000", "-validation", "0"},
		{"train", "-data", data, "-o", model, "-epochs", "1000000", "-method", "svgd"},
		{"splits", "-data", large, "-splits", writeSplitFile(t, dir), "-epochs", "100000"},
	} {
		done := make(chan error, 1)
		go func() {
			_, _, err := gcpRun(args...)
			done <- err
		}()
		var err error
	wait:
		for {
			select {
			case err = <-done:
				break wait
			case <-time.After(20 * time.Millisecond):
				if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), "interrupted while") {
			t.Errorf("%v interrupted = %v, want an error saying so", args, err)
		}
		if filetest.Read(t, model) != old {
			t.Errorf("%v interrupted changed -o", args)
		}
		filetest.Only(t, dir, "d.csv", "large.csv", "m.gcpm", "splits.txt")
	}
}

// catchSIGINT subscribes the test binary to SIGINT for the rest of its
// life, so that a signal a test sends to its own process while the code
// under test does not listen (before or after a save or a training)
// cannot end the binary. The subscription is never stopped: a signal sent
// with kill(2) to the process may be delivered to one of its threads
// later, on a loaded machine after the test has ended, and with no
// subscription left then the runtime ends the process ("signal:
// interrupt", seen once in cmd/gcp's tests on a busy 2-core machine).
// The code under test subscribes too (signal.NotifyContext), and every
// subscriber gets each signal, so it still sees its interrupt.
func catchSIGINT(*testing.T) { sigintSink() }

// sigintSink subscribes, once, a channel that a goroutine drains.
var sigintSink = sync.OnceFunc(func() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		for range sig {
		}
	}()
})
