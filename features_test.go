package gcp

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestFeatureNames checks SetFeatureNames' validation: every bad input
// gets its sentinel and leaves the names as they were.
func TestFeatureNames(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2, Seed: 1})
	if f, target := m.FeatureNames(); f != nil || target != "" {
		t.Fatalf("a new model has names %q, %q", f, target)
	}
	if err := m.SetFeatureNames([]string{"a", "b"}, "y"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		features []string
		target   string
		want     error
	}{
		{"too few", []string{"a"}, "y", ErrShape},
		{"duplicate", []string{"a", "a"}, "y", ErrConfig},
		{"empty", []string{"a", ""}, "y", ErrConfig},
		{"invalid UTF-8", []string{"a", "\xff"}, "y", ErrConfig},
		{"too long", []string{"a", strings.Repeat("x", maxNameLen+1)}, "y", ErrConfig},
		{"target too long", []string{"a", "b"}, strings.Repeat("x", maxNameLen+1), ErrConfig},
	} {
		if err := m.SetFeatureNames(tc.features, tc.target); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		if f, target := m.FeatureNames(); !slices.Equal(f, []string{"a", "b"}) || target != "y" {
			t.Errorf("%s: names changed to %q, %q", tc.name, f, target)
		}
	}
	var nilModel *Model[float32]
	if err := nilModel.SetFeatureNames(nil, ""); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v, want ErrConfig", err)
	}
}
