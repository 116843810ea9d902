package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestTrainingErrorHints checks the hints gcp train adds to a failed
// fit: a divergence names both cures (a smaller step, and the log of
// columns of very large values, which the recipe's own slower rates do
// not reach), too few rows names -validation 0, and every error keeps
// its sentinel for errors.Is.
func TestTrainingErrorHints(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("the ensemble of x: %w", gcp.ErrDiverged), "(try a smaller -lr, or the logarithm of columns whose values span orders of magnitude)"},
		{fmt.Errorf("3 rows: %w", gcp.ErrTooFewRows), "; -validation 0 trains on every row"},
		{gcp.ErrShape, "training: " + gcp.ErrShape.Error()},
	} {
		got := trainingError(tc.err)
		if !errors.Is(got, tc.err) || !strings.HasPrefix(got.Error(), "training: ") || !strings.Contains(got.Error(), tc.want) {
			t.Errorf("trainingError(%v) = %v, want it to wrap the error and say %q", tc.err, got, tc.want)
		}
	}
}
