package main

import (
	"context"
	"encoding"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gcpnet/gcp/internal/atomicfile"
)

// output returns the target a command writes its -o file through, of
// kind, after checking that it may and can write it, so that it fails
// before the work rather than after: it refuses out in a missing
// directory, a directory, a path that is not a regular file (a device
// such as /dev/null, a FIFO), one of the command's inputs however it is
// reached (a symbolic or a hard link; even with force), a path whose
// directory does not take a new file, and, unless force is set, an
// existing file of another kind. A dangling symbolic link is fine: the
// file is written where it points.
func output(out string, kind atomicfile.Kind, force bool, inputs ...string) (atomicfile.Target, error) {
	t := atomicfile.Target{Path: out, Kind: kind, Force: force, Inputs: inputs}
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return t, fmt.Errorf("-o %s: no directory %s", out, filepath.Dir(out))
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return t, fmt.Errorf("-o %s is a directory; name the file", out)
	}
	if err := t.Check(); err != nil {
		return t, outputError(t, err)
	}
	return t, nil
}

// outputError says why the target t was not written: err, with the
// remedy where there is one.
func outputError(t atomicfile.Target, err error) error {
	if errors.Is(err, atomicfile.ErrForeign) {
		return fmt.Errorf("-o %s: %w; give -force to overwrite it", t.Path, err)
	}
	return fmt.Errorf("-o %s: %w", t.Path, err)
}

// saveModel writes model to t as gcp.SaveFile does, stopped by ctx, the
// command's interruptContext: a SIGINT or SIGTERM at any moment of the
// save before the rename stops it, the temporary file, which would
// otherwise stay behind as large as the model, is removed, the file is
// left as it was, and saveModel returns an error saying so.
func saveModel(ctx context.Context, t atomicfile.Target, model encoding.BinaryMarshaler) error {
	err := t.WriteMarshaled(ctx, model)
	if err != nil && ctx.Err() == nil {
		return outputError(t, err)
	}
	return interrupted(ctx, err, "saving", t.Path)
}
