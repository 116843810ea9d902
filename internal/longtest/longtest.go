// Package longtest gates the slow statistical checks of the tests: whole
// runs of the automatic recipe on thousands of rows, and gcp train with
// zero flags, which take tens of seconds each where the rest of the
// suite takes a minute. They run when the environment sets GCP_LONG=1,
// as the long leg of the CI does; a plain go test ./... skips them.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the slow checks on, with
// the value "1".
const Env = "GCP_LONG"

// Skip skips t unless Env is "1". go test caches a package's result
// together with the environment variables its tests read, so that
// setting GCP_LONG=1 runs them rather than replaying a run that skipped
// them.
func Skip(t testing.TB) {
	t.Helper()
	if os.Getenv(Env) != "1" {
		t.Skipf("a slow statistical check: set %s=1 to run it", Env)
	}
}
