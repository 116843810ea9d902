package gcp

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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

func TestSaveLoadFile(t *testing.T) {
	dir := t.TempDir()
	m32 := persistFitted[float32](t, persistConfigs[1])
	m64 := persistFitted[float64](t, persistConfigs[2])
	p32, p64 := filepath.Join(dir, "a.gcpm"), filepath.Join(dir, "b.gcpm")
	if err := SaveFile(p32, m32); err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(p64, m64); err != nil {
		t.Fatal(err)
	}
	got32, err := LoadFile[float32](p32)
	if err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(m32, got32); d != "" {
		t.Fatalf("LoadFile(SaveFile()) differs (-want +got):\n%s", d)
	}
	got64, err := LoadFile[float64](p64)
	if err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(m64, got64); d != "" {
		t.Fatalf("LoadFile(SaveFile()) differs (-want +got):\n%s", d)
	}
	filetest.Only(t, dir, "a.gcpm", "b.gcpm")
	skipOnWASI(t, "permission bits: os.Chmod only checks that the file exists, and every file stats as 0600")
	if fi, err := os.Stat(p32); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: %v, %v; want mode 0644", fi.Mode(), err)
	}

	// Replacing keeps the old file's permissions.
	if err := os.Chmod(p32, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(p32, got32); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p32); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced file: %v, %v; want mode 0600 kept", fi.Mode(), err)
	}
	filetest.Only(t, dir, "a.gcpm", "b.gcpm")
}

// skipOnWASI skips the rest of t under wasip1, whose file system lacks
// what, with the reason.
func skipOnWASI(t *testing.T, what string) {
	t.Helper()
	if runtime.GOOS == "wasip1" {
		t.Skipf("WASI has no %s", what)
	}
}

// TestSaveFileFailures checks that a failed save leaves the old file
// intact and nothing else behind.
func TestSaveFileFailures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.gcpm")
	old, err := New[float32](persistConfigs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(path, old); err != nil {
		t.Fatal(err)
	}
	oldBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// A model that cannot be encoded touches nothing.
	if err := SaveFile(path, &Model[float32]{}); !errors.Is(err, ErrConfig) {
		t.Errorf("zero Model: SaveFile error %v, want ErrConfig", err)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, oldBytes) {
		t.Errorf("a failed save changed the old file (err %v)", err)
	}
	filetest.Only(t, dir, "model.gcpm")

	// The rename fails when the target is a non-empty directory.
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(sub, old); err == nil {
		t.Error("SaveFile over a non-empty directory succeeded")
	}
	filetest.Only(t, dir, "model.gcpm", "sub")
	filetest.Only(t, sub, "keep")

	// A missing directory fails before anything is written.
	if err := SaveFile(filepath.Join(dir, "missing", "model.gcpm"), old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: SaveFile error %v, want fs.ErrNotExist", err)
	}
	filetest.Only(t, dir, "model.gcpm", "sub")
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadFile[float32](filepath.Join(dir, "missing.gcpm")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: error %v, want fs.ErrNotExist", err)
	}
	if _, err := LoadFile[float32](dir); err == nil {
		t.Error("LoadFile of a directory succeeded")
	}
	empty := filepath.Join(dir, "empty.gcpm")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile[float32](empty); !errors.Is(err, ErrTruncated) {
		t.Errorf("empty file: error %v, want ErrTruncated", err)
	}
}

// TestSaveFileThroughSymlink saves over a symbolic link: the file it points
// to is replaced and the link stays a link.
func TestSaveFileThroughSymlink(t *testing.T) {
	skipOnWASI(t, "portable symbolic links: a runtime may refuse path_symlink")
	dir := t.TempDir()
	target, link := filepath.Join(dir, "real.gcpm"), filepath.Join(dir, "link.gcpm")
	old, err := New[float32](Config{Inputs: 2, Hidden: []int{3}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(target, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	m, err := New[float32](Config{Inputs: 2, Hidden: []int{3}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(link, m); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a regular file (%v)", err)
	}
	got, err := LoadFile[float32](target)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.params, m.params) {
		t.Error("the link's target does not hold the new model")
	}
}

// TestSaveFileNotRegular checks that SaveFile refuses an existing path
// that is not a regular file, here a directory, before writing anything.
// regression: SaveFile renamed its file over whatever was at the path (issue 11).
func TestSaveFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}})
	if err := SaveFile(sub, m); !errors.Is(err, ErrNotRegular) {
		t.Errorf("SaveFile(directory) = %v, want ErrNotRegular", err)
	}
	filetest.Only(t, dir, "sub")
	filetest.Only(t, sub)
}

// TestSaveFileDanglingSymlink saves through a link whose target does not
// exist yet: the model must land in the link's target, relative to the
// link's directory, through a chain of two links, and the links stay.
// regression: a dangling link was replaced by a regular file (issue 11).
func TestSaveFileDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	skipOnWASI(t, "portable symbolic links: a runtime may refuse path_symlink")
	link, mid := filepath.Join(dir, "link.gcpm"), filepath.Join(dir, "mid.gcpm")
	if err := os.Symlink("mid.gcpm", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("models", "real.gcpm"), mid); err != nil {
		t.Fatal(err)
	}
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}, Seed: 3})
	if err := SaveFile(link, m); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link (%v)", l, err)
		}
	}
	got, err := LoadFile[float32](filepath.Join(dir, "models", "real.gcpm"))
	if err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(m, got); d != "" {
		t.Errorf("the link's target differs (-want +got):\n%s", d)
	}
	filetest.Only(t, dir, "link.gcpm", "mid.gcpm", "models")
}

// TestSaveFileContext checks that a save whose context is done, before it
// starts, between two chunks or while the complete file is flushed to
// disk, leaves the old file as it was and no temporary file.
// regression: a cancelled save left its temporary file or replaced the old one (issues 11, 26).
func TestSaveFileContext(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gcpm")
	old := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}, Seed: 1})
	if err := SaveFile(path, old); err != nil {
		t.Fatal(err)
	}
	oldBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A model of two chunks and more (8 MiB as float32), cancelled after
	// its first chunk:
	// the second check of the context stops it.
	big := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{1024, 512}})
	b, err := big.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{
		{"cancelled before", ctx},
		{"cancelled during", &cancelAfter{Context: context.Background(), checks: 1}},
		{"cancelled during the flush", &flushCancelContext{Context: context.Background(), dir: dir, size: int64(len(b))}},
	} {
		if err := SaveFileContext(c.ctx, path, big); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: SaveFileContext = %v, want context.Canceled", c.name, err)
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, oldBytes) {
			t.Errorf("%s: the old file changed (%v)", c.name, err)
		}
		filetest.Only(t, dir, "m.gcpm")
		if f, ok := c.ctx.(*flushCancelContext); ok && !f.armed {
			t.Error("the context never saw the temporary file complete")
		}
	}
}

// cancelAfter is a context whose Err turns to context.Canceled after it
// was asked checks times.
type cancelAfter struct {
	context.Context
	checks int
}

func (c *cancelAfter) Err() error {
	if c.checks == 0 {
		return context.Canceled
	}
	c.checks--
	return nil
}

// flushCancelContext is a context whose Err reports context.Canceled from
// the first call after one that found a temporary file of size bytes in
// dir: a cancel that arrives after the whole file is written, as a
// SIGINT during the flush would.
type flushCancelContext struct {
	context.Context
	dir          string
	size         int64
	armed, fired bool
}

func (c *flushCancelContext) Err() error {
	if c.armed {
		c.fired = true
	}
	if c.fired {
		return context.Canceled
	}
	entries, _ := os.ReadDir(c.dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.Contains(e.Name(), ".tmp") && fi.Size() == c.size {
			c.armed = true
		}
	}
	return nil
}
