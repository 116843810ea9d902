package atomicfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gcpnet/gcp/internal/filetest"
)

// writeText returns a write function of Write that writes text.
func writeText(text string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	}
}

// TestWriteFailureKeepsOld checks that a write that fails halfway leaves
// the old file intact and removes the temporary file.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "m.gcpm", MagicGCPM+"old model")
	boom := errors.New("disk full")
	err := Target{Path: path, Kind: Model}.Write(context.Background(), func(w io.Writer) error {
		if _, err := io.WriteString(w, MagicGCPM+" half a model"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("failing write: error %v, want %v", err, boom)
	}
	if got := filetest.Read(t, path); got != MagicGCPM+"old model" {
		t.Errorf("a failed write changed the old file to %q", got)
	}
	filetest.Only(t, dir, "m.gcpm")
}

// TestWriteCanceledMidway checks that a context cancelled while a large
// file is written stops the save at the next chunk with ctx's error, the
// old file intact and no temporary file left: the cancel comes from the
// file's first chunk, and one Write of four chunks stops after it.
func TestWriteCanceledMidway(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "m.gcpm", MagicGCPM+"old model")
	ctx, cancel := context.WithCancel(context.Background())
	var n int
	err := Target{Path: path, Kind: Model}.Write(ctx, func(w io.Writer) error {
		cw := w.(ctxWriter)
		cw.w = cancelWriter{cw.w, cancel}
		var err error
		n, err = cw.Write(make([]byte, 4*chunk))
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Write cancelled during its first chunk = %v, want context.Canceled", err)
	}
	if n != chunk {
		t.Errorf("%d bytes written after a cancel during the first %d", n, chunk)
	}
	if got := filetest.Read(t, path); got != MagicGCPM+"old model" {
		t.Errorf("a cancelled write changed the old file to %q", got)
	}
	filetest.Only(t, dir, "m.gcpm")
}

// cancelWriter writes to w and then calls cancel.
type cancelWriter struct {
	w      io.Writer
	cancel func()
}

func (c cancelWriter) Write(p []byte) (int, error) {
	defer c.cancel()
	return c.w.Write(p)
}

// TestWriteTargetChangedDuringSave checks that a file that turns into
// another kind while Write writes (a user's notes saved over the model
// meanwhile) is not replaced: Write checks the target again right before
// the rename.
func TestWriteTargetChangedDuringSave(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "m.gcpm", MagicGCPM+"old model")
	err := Target{Path: path, Kind: Model}.Write(context.Background(), func(w io.Writer) error {
		if err := os.WriteFile(path, []byte("notes"), 0o644); err != nil {
			return err
		}
		return writeText(MagicGCPM + "new model")(w)
	})
	if !errors.Is(err, ErrForeign) {
		t.Errorf("Write over a file that became notes = %v, want ErrForeign", err)
	}
	if got := filetest.Read(t, path); got != "notes" {
		t.Errorf("the notes are now %q", got)
	}
	filetest.Only(t, dir, "m.gcpm")
}

// TestWriteMarshaled checks that WriteMarshaled writes what MarshalBinary
// returns, keeps the permission bits of the file it replaces, and writes
// nothing when MarshalBinary fails.
func TestWriteMarshaled(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "m.gcpm", MagicPBP+"old")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	want := []byte(MagicSVGD + "new")
	if err := (Target{Path: path, Kind: Model}).WriteMarshaled(context.Background(), marshaler{b: want}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the file holds %q (%v), want %q", got, err, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the new file's mode is %v (%v), want 0600 as the old one's", fi.Mode(), err)
	}
	boom := errors.New("cannot encode")
	if err := (Target{Path: filepath.Join(dir, "new.gcpm"), Kind: Model}).WriteMarshaled(context.Background(), marshaler{err: boom}); !errors.Is(err, boom) {
		t.Errorf("WriteMarshaled of a failing model = %v, want %v", err, boom)
	}
	filetest.Only(t, dir, "m.gcpm")
}

// marshaler is an encoding.BinaryMarshaler that returns b and err.
type marshaler struct {
	b   []byte
	err error
}

func (m marshaler) MarshalBinary() ([]byte, error) { return m.b, m.err }
