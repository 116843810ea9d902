//go:build !unix

package atomicfile

import "os"

// openFlags opens a file for reading. Outside Unix the file system holds
// no FIFO that could block the open.
const openFlags = os.O_RDONLY
