package gcp

import (
	"math"
	"strconv"
	"testing"
)

// logNormalRef is a row of testdata/lognormal_ref.csv (gen_lognormal.py):
// its kind, arguments and mpmath's value.
type logNormalRef struct {
	kind  string
	arg   [5]float64
	value float64
}

// loadLogNormalRefs reads testdata/lognormal_ref.csv.
func loadLogNormalRefs(t *testing.T) []logNormalRef {
	t.Helper()
	var out []logNormalRef
	for _, rec := range readRefCSV(t, "testdata/lognormal_ref.csv") {
		var r logNormalRef
		r.kind = rec[0]
		for k, s := range append(rec[1:6:6], rec[6]) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("lognormal_ref.csv: %v", err)
			}
			if k < 5 {
				r.arg[k] = v
			} else {
				r.value = v
			}
		}
		out = append(out, r)
	}
	return out
}

// closeRel reports whether got is want to within tol relative, equal
// where want is 0 or ±Inf.
func closeRel(got, want, tol float64) bool {
	if want == 0 || math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// TestTransformVarianceAtExtremes checks the log-normal variances of a
// log model's prediction, (e^v − 1)·e^(2m + v), against mpmath where e^v
// or e^(2m + v) alone leaves float64 but their product does not (a
// variance of 1e-300 at m = 400, of 750 at m = −700), and where the
// product itself over- or underflows. Tolerance 1e-12: the exponents, up
// to 1500, carry their rounding (1500·2⁻⁵³ ≈ 2e-13) into the value.
func TestTransformVarianceAtExtremes(t *testing.T) {
	// regression: e^(2m+v) overflowed or e^v − 1 did, and Var was +Inf.
	for _, r := range loadLogNormalRefs(t) {
		if r.kind != "var" {
			continue
		}
		m, v := r.arg[0], r.arg[1]
		p := Prediction{Loss: LossGaussianML, Mean: m, Var: v, VarCorrected: v, Alpha: math.Inf(1), Members: 1}
		transformBack(&p, TransformLog)
		if !closeRel(p.Var, r.value, 1e-12) || !closeRel(p.VarCorrected, r.value, 1e-12) {
			t.Errorf("m = %g, v = %g: Var %v, VarCorrected %v, want %v", m, v, p.Var, p.VarCorrected, r.value)
		}
	}
}
