// Package atomicfile is the one path by which the module writes a file:
// the models of the root package and of package bayes, and the gcp
// command's models and PNG images. A Target writes atomically (a
// temporary file in the same directory, flushed to disk, renamed over the
// path, the directory flushed), so that a reader sees the old file or the
// new one and a crash leaves the old one; and it never replaces a file
// that is not its own: a path that is not a regular file (a directory, a
// device, a FIFO), a file of another kind (unless forced), or one of the
// command's input files, however it is reached (a symbolic or a hard
// link).
package atomicfile

import "errors"

// The errors of a Target, matchable with errors.Is; the returned error
// wraps one and names the path. The root package's init sets the first
// two to its gcp.ErrNotRegular and gcp.ErrForeignFile, which it documents.
var (
	// ErrNotRegular reports a path that exists and is not a regular file
	// (or a link to one), such as a directory, a device or a FIFO.
	ErrNotRegular = errors.New("gcp: path exists and is not a regular file")
	// ErrForeign reports a path that holds a regular file of another
	// kind than the one to write: a save would lose it.
	ErrForeign = errors.New("gcp: path holds a file of another kind, which a save would lose")
	// ErrInput reports a path that is one of the target's input files.
	ErrInput = errors.New("gcp: path is an input file, which a save would overwrite")
)
