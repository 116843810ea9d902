//go:build unix

package table

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFileFIFO checks that a named pipe is read: it is a pipe, not a
// device (ReadFile refuses those).
func TestReadFileFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString("a,y\n1,2\n")
			f.Close()
		}
	}()
	if tab, err := ReadFile(fifo, Dialect{}); err != nil || tab.Rows() != 1 {
		t.Errorf("ReadFile of a named pipe: %v", err)
	}
}
