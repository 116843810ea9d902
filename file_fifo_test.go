//go:build linux || darwin

package gcp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gcpnet/gcp/internal/filetest"
)

// TestSaveFileOverFIFO checks that SaveFile refuses a FIFO or a device
// with ErrNotRegular and leaves it a FIFO, directly and through a link. A
// FIFO stands in for the device, so that the test cannot harm the machine.
// regression: as root, "gcp train -o /dev/null" replaced /dev/null with a model (issue 11).
func TestSaveFileOverFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo, link := filepath.Join(dir, "fifo"), filepath.Join(dir, "link")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO on this system: %v", err)
	}
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}})
	for _, p := range []string{fifo, link} {
		if err := SaveFile(p, m); !errors.Is(err, ErrNotRegular) {
			t.Errorf("SaveFile(%s) = %v, want ErrNotRegular", p, err)
		}
		if fi, err := os.Stat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
			t.Fatalf("the FIFO is now %v (%v)", fi.Mode(), err)
		}
	}
	filetest.Only(t, dir, "fifo", "link")
}
