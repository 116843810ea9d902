//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// openFlags opens a file for reading without waiting for a writer: a
// FIFO that no process writes to would otherwise block the open.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
