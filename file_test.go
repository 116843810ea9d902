package gcp

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gcpnet/gcp/internal/filetest"
)

// TestSaveFileKeepsForeignFile checks that SaveFile replaces nothing but
// a saved model or an empty file: notes at the model's path are refused
// with ErrForeignFile and kept. regression: N1 of issue 26 (no file that
// is not ours is replaced).
func TestSaveFileKeepsForeignFile(t *testing.T) {
	dir := t.TempDir()
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}})
	notes := filepath.Join(dir, "notes.gcpm")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(notes, m); !errors.Is(err, ErrForeignFile) {
		t.Errorf("SaveFile over notes = %v, want ErrForeignFile", err)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "my notes\n" {
		t.Errorf("the notes are now %q (%v)", b, err)
	}
	empty := filepath.Join(dir, "empty.gcpm")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{empty, empty} { // an empty file, then the model written there
		if err := SaveFile(path, m); err != nil {
			t.Errorf("SaveFile over %s: %v", filepath.Base(path), err)
		}
	}
	filetest.Only(t, dir, "empty.gcpm", "notes.gcpm")
}
