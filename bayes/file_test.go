package bayes

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestSaveFile saves a PBP and then an SVGD to the same path, a model of
// one kind replacing the other, and finds each's bytes there; a
// file that is not a model is refused with gcp.ErrForeignFile and kept,
// and a cancelled context leaves the old file.
func TestSaveFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gcpm")
	pbp, svgd := goldenModel(t), svgdSmall(t)
	if err := SaveFile(path, pbp); err != nil {
		t.Fatal(err)
	}
	fileHolds(t, path, mustMarshal(t, pbp))
	if err := SaveFile(path, svgd); err != nil {
		t.Fatal(err)
	}
	want, err := svgd.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	fileHolds(t, path, want)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SaveFileContext(ctx, path, pbp); !errors.Is(err, context.Canceled) {
		t.Errorf("SaveFileContext with a cancelled context = %v, want context.Canceled", err)
	}
	fileHolds(t, path, want)

	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(notes, pbp); !errors.Is(err, gcp.ErrForeignFile) {
		t.Errorf("SaveFile over notes = %v, want gcp.ErrForeignFile", err)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "notes" {
		t.Errorf("the notes are now %q (%v)", b, err)
	}
}

// fileHolds fails t unless the file at path holds exactly want.
func fileHolds(t *testing.T, path string, want []byte) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, want) {
		t.Errorf("%s does not hold the model saved (%v)", path, err)
	}
}
