package gcp

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"
)

// goldenLoggedPath is the golden file of a version-7 model of two
// targets whose first is under the log transform: goldenRegionPath's
// model with the target-transforms section (tag 6) of bytes 1 and 0.
const goldenLoggedPath = "testdata/model_v7_logged_float64.gcpm"

// withLogged sets the log transform on target 0 of m's two targets.
func withLogged[T Float](t testing.TB, m *Model[T]) *Model[T] {
	t.Helper()
	if err := m.SetTargetTransforms([]TargetTransform{TransformLog, TransformNone}); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGoldenLogged checks the target-transforms section's golden file
// byte for byte against the model it was made from, that it loads with
// the transforms and re-encodes the same, and that the loaded model's
// density is the untransformed model's at (ln y₀, y₁) less ln y₀ (the
// Jacobian), the two predictions made by the same network: equal up to
// the rounding of the one subtraction. -update-golden rewrites it (see
// testdata/golden.md).
func TestGoldenLogged(t *testing.T) {
	want := checkGoldenFile(t, withLogged(t, withRegion(goldenTargetsModel(t))), goldenLoggedPath)
	var m Model[float64]
	if err := m.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	if got := m.TargetTransforms(); !slices.Equal(got, []TargetTransform{TransformLog, TransformNone}) {
		t.Fatalf("loaded transforms %v", got)
	}
	if b2, err := m.MarshalBinary(); err != nil || !bytes.Equal(b2, want) {
		t.Errorf("the loaded model re-encodes to other bytes (err %v)", err)
	}
	x, y := []float64{0.3, 0.1}, []float64{2.5, -1}
	p := predictedAt(t, &m, x)
	z := predictedAt(t, withRegion(goldenTargetsModel(t)), x)
	if got, want := p.LogPDF(y), z.LogPDF([]float64{math.Log(y[0]), y[1]})-math.Log(y[0]); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogPDF %v, want %v", got, want)
	}
}

// TestTransformsSectionRejects checks that a damaged target-transforms
// section (the CRCs fixed) gives ErrFormat, that a model with no logged
// target writes no section (the bytes of a model that never had one),
// and that the section is the last, of tag 6.
func TestTransformsSectionRejects(t *testing.T) {
	plain := withRegion(goldenTargetsModel(t))
	want, err := plain.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m := withLogged(t, withRegion(goldenTargetsModel(t)))
	if err := m.SetTargetTransforms([]TargetTransform{TransformNone, TransformNone}); err != nil {
		t.Fatal(err)
	}
	if b, err := m.MarshalBinary(); err != nil || !bytes.Equal(b, want) {
		t.Errorf("no logged target: %d bytes unlike the plain model's %d (err %v)", len(b), len(want), err)
	}
	b, err := withLogged(t, m).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	payload := len(b) - crcLen - 2 // the section is the last
	for name, bytes := range map[string][2]byte{"none logged": {0, 0}, "transform 2": {2, 0}} {
		c := slices.Clone(b)
		copy(c[payload:], bytes[:])
		var got Model[float64]
		if err := got.UnmarshalBinary(persistFixCRCs(c)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	if k := le.Uint16(b[payload-sectionHeaderLen:]); k != sectionTransforms {
		t.Errorf("the last section is of kind %d, want %d", k, sectionTransforms)
	}
}

// transformsSeed returns FuzzUnmarshal's seed of the target-transforms
// section: regionSeed's model with target 0 logged.
func transformsSeed[T Float](t testing.TB) *Model[T] {
	return withLogged(t, regionSeed[T](t))
}
