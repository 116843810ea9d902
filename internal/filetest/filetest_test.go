package filetest

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records whether it failed, so that the
// checks can be seen to fail.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

// TestOnly checks that Only accepts a directory holding exactly the
// names, in any order, and fails on a missing or an extra entry.
func TestOnly(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		names []string
		fail  bool
	}{{[]string{"b", "a"}, false}, {[]string{"a"}, true}, {[]string{"a", "b", "c"}, true}, {nil, true}} {
		r := &recorder{TB: t}
		Only(r, dir, c.names...)
		if r.failed != c.fail {
			t.Errorf("Only(%q) failed %v, want %v", c.names, r.failed, c.fail)
		}
	}
	if got := Read(t, filepath.Join(dir, "b")); got != "b" {
		t.Errorf("Read = %q, want %q", got, "b")
	}
}
