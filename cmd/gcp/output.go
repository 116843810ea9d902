package main

import (
	"bytes"
	"context"
	"encoding"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/gcpnet/gcp"
)

// checkOutput returns an error if train must not, or cannot, write its
// model to out, so that it fails before training rather than after: out
// in a missing directory, a directory, a path that gcp.SaveFile would
// refuse (a device such as /dev/null, a FIFO) or that cannot be created,
// the training data itself (even with force), or, unless force is set, an
// existing file that is not a saved model. A dangling symbolic link is
// fine: the model is written to the file it names.
func checkOutput(out, data string, force bool) error {
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-o %s: no directory %s", out, filepath.Dir(out))
	}
	fi, err := os.Stat(out)
	if err == nil && fi.IsDir() {
		return fmt.Errorf("-o %s is a directory; name the model file", out)
	}
	if err := gcp.CheckSaveFile(out); err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	if err != nil {
		return nil // a new file: nothing to lose
	}
	if dfi, err := os.Stat(data); err == nil && os.SameFile(fi, dfi) {
		return fmt.Errorf("-o %s is the training data %s, which the model would overwrite", out, data)
	}
	if !force && !isModel(out) {
		return fmt.Errorf("-o %s exists and is not a saved model; give -force to overwrite it", out)
	}
	return nil
}

// isModel reports whether the file at path starts as a saved model of
// any method does, or is empty; a file that cannot be read is not one.
// Its first bytes suffice: a model's loader reports gcp.ErrMagic from the
// magic alone.
func isModel(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	_, err = new(gcp.Model[float32]).ReadFrom(bytes.NewReader(head))
	if !errors.Is(err, gcp.ErrMagic) {
		return true
	}
	_, err = loadBayes(head)
	return !errors.Is(err, gcp.ErrMagic)
}

// saveModel writes model to path as gcp.SaveFile does, except that a
// SIGINT or SIGTERM during the save stops it: the temporary file, which
// would otherwise stay behind as large as the model, is removed, path is
// left as it was, and saveModel returns an error saying so. Outside the
// save the signals keep their default action, and a signal the process
// ignores (as a shell ignores SIGINT for a background job) stays ignored.
func saveModel(path string, model encoding.BinaryMarshaler) error {
	ctx := context.Background()
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			var stop context.CancelFunc
			ctx, stop = signal.NotifyContext(ctx, s)
			defer stop()
		}
	}
	err := gcp.SaveMarshaled(ctx, path, model)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return fmt.Errorf("interrupted: %s was left as it was", path)
	}
	return err
}
