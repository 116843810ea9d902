// Package filetest holds the checks that the tests of several packages
// make on the files they write: the root package's saves, the atomic
// writer under them (internal/atomicfile) and the gcp command.
package filetest

import (
	"os"
	"slices"
	"testing"
)

// Only fails t unless dir holds exactly the entries names, in any order:
// a refused, failed or cancelled save must leave no temporary file
// behind.
func Only(t testing.TB, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := slices.Clone(names)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

// Read returns the contents of the file at path, and stops t if it
// cannot be read.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
