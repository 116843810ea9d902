package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// TestTrainPrecision: gcp train saves a float32 model by default and says
// so; a column of Unix timestamps makes it float64, named in the summary;
// -float64 and -float32 win over the guard. The element size at offset 10
// of the saved header (4 or 8 bytes, the model format's) tells the
// precision.
// regression: float64 was the default.
func TestTrainPrecision(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.csv")
	stamps := filepath.Join(dir, "stamps.csv")
	normal := func(_ int, r *rand.Rand) string { return fmt.Sprint(r.NormFloat64()) }
	stamp := func(i int, _ *rand.Rand) string { return fmt.Sprint(1_700_000_000 + 864*i) }
	for file, csv := range map[string]string{plain: precisionCSV(60, "b", normal), stamps: precisionCSV(60, "ts", stamp)} {
		if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, data, flag string
		size             byte
		line             string
	}{
		{"default", plain, "", 4, "trained in float32 (the default; -float64 for double precision)\n"},
		{"timestamps", stamps, "", 8, "trained in float64: column ts (values near 1.7e+09) varies by"},
		{"-float64", plain, "-float64", 8, "trained in float64 (-float64)\n"},
		{"-float32 on timestamps", stamps, "-float32", 4, "trained in float32 (-float32), though column ts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := filepath.Join(dir, tc.name+".gcpm")
			args := []string{"train", "-data", tc.data, "-o", model, "-validation", "0", "-epochs", "2", "-hidden", "4", "-members", "1"}
			if tc.flag != "" {
				args = append(args, tc.flag)
			}
			_, stderr, err := gcpRun(args...)
			if err != nil || !strings.Contains(stderr, "\n"+tc.line) {
				t.Fatalf("train %s: %v; the summary does not say %q:\n%s", tc.flag, err, tc.line, stderr)
			}
			if b, err := os.ReadFile(model); err != nil || len(b) <= 10 || b[10] != tc.size {
				t.Errorf("saved model: element size %v, want %d (%v)", b[min(10, len(b)-1)], tc.size, err)
			}
		})
	}
}
