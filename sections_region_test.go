package gcp

import (
	"bytes"
	"errors"
	"math"
	"os"
	"slices"
	"testing"
)

// goldenRegionPath is the golden file of a version-7 model with a
// calibrated joint region: version 7's golden model (goldenTargetsModel)
// with the region's scale 1.7, degrees of freedom 4.5 and the conformal
// calibration of four rows at distances 0.5, 1, 2 and 3.
const goldenRegionPath = "testdata/model_v7_region_float64.gcpm"

// withRegion sets on m the calibrated joint region of goldenRegionPath.
func withRegion[T Float](m *Model[T]) *Model[T] {
	m.corrScale = 1.7
	m.ext.region = &jointRegion{nu: 4.5, conformal: thinScores([]float64{0.5, 1, 2, 3})}
	return m
}

// regionSeed returns FuzzUnmarshal's seed of the joint-region section: a
// new model of two targets with withRegion's region.
func regionSeed[T Float](t testing.TB) *Model[T] {
	return withRegion(mustModel[T](t, Config{Inputs: 1, Hidden: []int{1}, Targets: 2, Seed: 10}))
}

// TestGoldenRegion checks the joint-region section's golden file byte
// for byte against the model it was made from, and that it loads into
// predictions of that region: RegionScale 1.7, RegionNu 4.5, and the
// conformal radius at 0.5 the ⌈5·0.5⌉ = 3rd distance, 2. -update-golden
// rewrites it (see testdata/golden.md).
func TestGoldenRegion(t *testing.T) {
	want := checkGoldenFile(t, withRegion(goldenTargetsModel(t)), goldenRegionPath)
	var m Model[float64]
	if err := m.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	p := predictedAt(t, &m, []float64{0.3, 0.1})
	if r, err := p.ConformalRadius(0.5); p.RegionScale() != 1.7 || p.RegionNu() != 4.5 || r != 2 || err != nil {
		t.Errorf("loaded: scale %v, ν %v, conformal radius %v (%v); want 1.7, 4.5, 2", p.RegionScale(), p.RegionNu(), r, err)
	}
	if b2, err := m.MarshalBinary(); err != nil || !bytes.Equal(b2, want) {
		t.Errorf("the loaded model re-encodes to other bytes (err %v)", err)
	}
}

// TestGoldenTargetsKeepsTheGaussianRegion: version 7's golden file,
// written before the joint-region section existed, loads to a model whose
// calibrated region is the Gaussian of scale 1 (RegionNu +Inf, inside iff
// the squared distance is at most χ²₂(p) = −2 ln(1 − p)) and has no
// conformal region (ErrNoConformal), as it had.
func TestGoldenTargetsKeepsTheGaussianRegion(t *testing.T) {
	b, err := os.ReadFile(goldenTargetsPath)
	if err != nil {
		t.Fatal(err)
	}
	var m Model[float64]
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if m.ext.region != nil {
		t.Fatalf("region %+v, want none", m.ext.region)
	}
	p := predictedAt(t, &m, []float64{0.3, 0.1})
	if !math.IsInf(p.RegionNu(), 1) || p.RegionScale() != 1 {
		t.Errorf("RegionNu %v, RegionScale %v, want +Inf and 1", p.RegionNu(), p.RegionScale())
	}
	if _, err := p.ConformalInside([]float64{0, 0}, 0.5); !errors.Is(err, ErrNoConformal) {
		t.Errorf("ConformalInside: %v, want ErrNoConformal", err)
	}
	for _, level := range []float64{0.5, 0.9, 0.95} {
		r2 := -2 * math.Log(1-level)
		for _, f := range []float64{0.999, 1.001} { // either side of the boundary, beyond the radius solve's 1e-14
			y := []float64{p.Mean(0), p.Mean(1)}
			y[0] += f * math.Sqrt(r2) / p.Mahalanobis([]float64{p.Mean(0) + 1, p.Mean(1)})
			if in, err := p.CalibratedInside(y, level); err != nil || in != (f < 1) {
				t.Errorf("level %v, distance² %v·χ²: inside %v (%v)", level, f*f, in, err)
			}
		}
	}
}

// TestRegionSectionRejects checks that a damaged joint-region section
// (the CRCs fixed, so that the section is what fails) is ErrFormat: a
// degrees of freedom of 0, −1 or NaN, a conformal calibration cut short
// or out of order; and that a one-target model with the section is
// refused.
func TestRegionSectionRejects(t *testing.T) {
	b := regionSeed[float64](t).encode()
	// The section is the last: 8 bytes of ν, then 8 of the row count and
	// 4 distances.
	payload := len(b) - crcLen - (8 + 8 + 8*4)
	patch := func(off int, v uint64) []byte {
		c := slices.Clone(b)
		le.PutUint64(c[payload+off:], v)
		return persistFixCRCs(c)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"ν = 0", patch(0, 0)},
		{"ν = −1", patch(0, math.Float64bits(-1))},
		{"ν NaN", patch(0, math.Float64bits(math.NaN()))},
		{"five rows claimed", patch(8, 5)},
		{"distances out of order", patch(16, math.Float64bits(2.5))},
	} {
		var got Model[float64]
		if err := got.UnmarshalBinary(c.data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", c.name, err)
		}
	}
	one := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{1}, Seed: 3})
	one.ext.region = &jointRegion{nu: 3}
	var got Model[float64]
	if err := got.UnmarshalBinary(one.encode()); !errors.Is(err, ErrFormat) {
		t.Errorf("a one-target model with a joint region: %v, want ErrFormat", err)
	}
}
