package longtest

import "testing"

// TestSkipFollowsEnv runs Skip in a subtest under each setting of the
// variable: only "1" lets the test go on.
func TestSkipFollowsEnv(t *testing.T) {
	for _, c := range []struct {
		value   string
		skipped bool
	}{{"", true}, {"0", true}, {"true", true}, {"1", false}} {
		t.Setenv(Env, c.value)
		ran := false
		t.Run("GCP_LONG="+c.value, func(t *testing.T) {
			Skip(t)
			ran = true
		})
		if ran == c.skipped {
			t.Errorf("%s=%q: ran %t, want %t", Env, c.value, ran, !c.skipped)
		}
	}
}
