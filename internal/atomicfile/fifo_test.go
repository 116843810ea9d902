//go:build linux || darwin

package atomicfile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gcpnet/gcp/internal/filetest"
)

// mkfifo makes a FIFO called name in dir and returns its path, or skips t
// where the system has none.
func mkfifo(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFO on this system: %v", err)
	}
	return path
}

// TestTargetRefusesFIFO is what gcp plot lacked: "-o f.png" naming a FIFO
// that no process read reported "wrote" and exited 0, and a PNG over the
// pipe's 64 KB buffer blocked forever. A FIFO, directly or through a
// link, is refused by Check and Write, forced or not, without being
// opened, and stays a FIFO. regression: N6 of issue 26.
func TestTargetRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir, "f.png")
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range []string{fifo, link} {
			for _, force := range []bool{false, true} {
				tg := Target{Path: p, Kind: PNG, Force: force}
				if err := tg.Check(); !errors.Is(err, ErrNotRegular) {
					t.Errorf("Check(%s, force %v) = %v, want ErrNotRegular", filepath.Base(p), force, err)
				}
				if err := tg.Write(context.Background(), writeText(MagicPNG+"a large image")); !errors.Is(err, ErrNotRegular) {
					t.Errorf("Write(%s, force %v) = %v, want ErrNotRegular", filepath.Base(p), force, err)
				}
			}
		}
	}()
	waitOrUnblock(t, done, fifo)
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the FIFO is now %v (%v)", fi.Mode(), err)
	}
	filetest.Only(t, dir, "f.png", "link.png")
}

// TestKindNeverBlocksOnFIFO checks that the check of a file's kind does
// not hang on a FIFO that took the place of a regular file after it was
// looked at: it opens without blocking and reports the swap.
// regression: N6 of issue 26.
func TestKindNeverBlocksOnFIFO(t *testing.T) {
	dir := t.TempDir()
	regular := writeFile(t, dir, "r.png", MagicPNG)
	fi, err := os.Stat(regular)
	if err != nil {
		t.Fatal(err)
	}
	fifo := mkfifo(t, dir, "f.png")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := PNG.holds(fifo, fi); !errors.Is(err, ErrNotRegular) {
			t.Errorf("holds of a FIFO swapped for a regular file = %v, want ErrNotRegular", err)
		}
	}()
	waitOrUnblock(t, done, fifo)
}

// waitOrUnblock waits up to 5 s for done; if it is not closed by then,
// the test failed by blocking on fifo, which waitOrUnblock then opens
// from both ends so that the test can end.
func waitOrUnblock(t *testing.T, done chan struct{}, fifo string) {
	t.Helper()
	select {
	case <-done:
		return
	case <-time.After(5 * time.Second):
	}
	t.Errorf("blocked on the FIFO %s for 5 s", fifo)
	for _, flag := range []int{os.O_RDONLY | syscall.O_NONBLOCK, os.O_WRONLY | syscall.O_NONBLOCK} {
		if f, err := os.OpenFile(fifo, flag, 0); err == nil {
			defer f.Close()
		}
	}
	<-done
}
