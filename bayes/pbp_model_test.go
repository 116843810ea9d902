package bayes

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestPBPSineCoverageAndExtrapolation fits the default network (50 hidden
// units, 40 epochs) to 500 rows of sineData and checks, on 2000 new rows
// from the same distribution, that
//   - the RMSE is below 0.25, against the noise's 0.2: a fit that missed
//     the sine would be near its standard deviation, 0.7;
//   - the central 95% predictive interval covers between 91% and 98.5% of
//     them: the binomial standard error at 2000 rows is 0.5%, and the rest
//     of the margin is for PBP's approximations (its published test
//     log-likelihoods imply slightly wide intervals), so a predictive
//     variance off by a factor 2 either way fails;
//
// and, far outside the training range [−3, 3], at x = ±30, that the
// epistemic variance exceeds 100 times its largest value on the range
// and the noise variance: the model knows it is extrapolating.
func TestPBPSineCoverageAndExtrapolation(t *testing.T) {
	x, y := sineData(500, 1)
	m, err := FitPBP(PBPConfig{Inputs: 1, Seed: 1}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	tx, ty := sineData(2000, 2)
	var se float64
	covered := 0
	for i := range tx {
		p, err := m.Predict(ws, tx[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		se += (p.Mean - ty[i]) * (p.Mean - ty[i])
		lo, hi, err := p.Interval(0.95)
		if err != nil {
			t.Fatal(err)
		}
		if lo <= ty[i] && ty[i] <= hi {
			covered++
		}
	}
	rmse, cover := math.Sqrt(se/float64(len(tx))), float64(covered)/float64(len(tx))
	t.Logf("RMSE %.4f, 95%% coverage %.4f", rmse, cover)
	if rmse > 0.25 {
		t.Errorf("test RMSE %.4f, want below 0.25", rmse)
	}
	if cover < 0.91 || cover > 0.985 {
		t.Errorf("95%% interval covers %.4f of the test rows, want 0.91..0.985", cover)
	}
	var inside float64
	for xi := -3.0; xi <= 3; xi += 0.05 {
		p, err := m.Predict(ws, []float64{xi})
		if err != nil {
			t.Fatal(err)
		}
		inside = max(inside, p.VarEpistemic)
	}
	for _, xi := range []float64{-30, 30} {
		p, err := m.Predict(ws, []float64{xi})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("x = %g: epistemic variance %.4g (at most %.4g on the training range), aleatoric %.4g, Disagreement %.3g",
			xi, p.VarEpistemic, inside, p.VarAleatoric, p.Disagreement)
		if p.VarEpistemic < 100*inside || p.VarEpistemic < p.VarAleatoric {
			t.Errorf("x = %g: epistemic variance %.4g, want above 100 × %.4g and above the noise's %.4g", xi, p.VarEpistemic, inside, p.VarAleatoric)
		}
	}
}

// TestPBPFitIsReproducible checks that a seed gives a bit-identical model,
// that another seed gives another, and that Fit with n epochs followed by
// Train with k more leaves the same posterior as Fit with n+k.
func TestPBPFitIsReproducible(t *testing.T) {
	x, y := sineData(200, 3)
	cfg := PBPConfig{Inputs: 1, Hidden: []int{8, 6}, Epochs: 4, Seed: 5}
	a, err := FitPBP(cfg, x, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitPBP(cfg, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
		t.Error("two fits with the same seed differ")
	}
	cfg.Seed = 6
	if c, err := FitPBP(cfg, x, y); err != nil || bytes.Equal(mustMarshal(t, a), mustMarshal(t, c)) {
		t.Errorf("fits with seeds 5 and 6 are identical (error %v)", err)
	}
	cfg.Seed, cfg.Epochs = 5, 1
	d, err := FitPBP(cfg, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Train(x, y, 3); err != nil {
		t.Fatal(err)
	}
	if !slicesEqual(a.buf, d.buf) || a.noiseA != d.noiseA || a.noiseB != d.noiseB || a.priorA != d.priorA || a.priorB != d.priorB || a.epochs != d.epochs {
		t.Error("Fit with 1 epoch and Train with 3 more differs from Fit with 4")
	}
}

// slicesEqual reports whether a and b hold the same bits.
func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestPBPBadInput checks that every kind of bad configuration and data gets
// an error matching the right sentinel of package gcp, that Train leaves
// the model exactly as it was on error, and that nothing panics.
func TestPBPBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x, y := []float64{1, 2, 3, 4}, []float64{1, 2}
	for _, c := range []struct {
		name string
		cfg  PBPConfig
		x, y []float64
		want error
	}{
		{"no inputs", PBPConfig{}, x, y, gcp.ErrConfig},
		{"negative inputs", PBPConfig{Inputs: -2}, x, y, gcp.ErrConfig},
		{"zero width", PBPConfig{Inputs: 2, Hidden: []int{0}}, x, y, gcp.ErrConfig},
		{"too wide", PBPConfig{Inputs: 2, Hidden: []int{maxWidth + 1}}, x, y, gcp.ErrConfig},
		{"too deep", PBPConfig{Inputs: 2, Hidden: make([]int, maxDepth+1)}, x, y, gcp.ErrConfig},
		{"too many weights", PBPConfig{Inputs: 2, Hidden: []int{4096, 4096}}, x, y, gcp.ErrConfig},
		{"negative epochs", PBPConfig{Inputs: 2, Epochs: -1}, x, y, gcp.ErrConfig},
		{"no rows", PBPConfig{Inputs: 2}, nil, nil, gcp.ErrBatch},
		{"short x", PBPConfig{Inputs: 2}, x[:3], y, gcp.ErrShape},
		{"long x", PBPConfig{Inputs: 1}, x, y, gcp.ErrShape},
		{"NaN input", PBPConfig{Inputs: 2}, []float64{1, nan, 3, 4}, y, gcp.ErrNonFinite},
		{"Inf input", PBPConfig{Inputs: 2}, []float64{1, 2, -inf, 4}, y, gcp.ErrNonFinite},
		{"NaN target", PBPConfig{Inputs: 2}, x, []float64{nan, 2}, gcp.ErrNonFinite},
		{"Inf target", PBPConfig{Inputs: 2}, x, []float64{1, inf}, gcp.ErrNonFinite},
	} {
		if _, err := FitPBP(c.cfg, c.x, c.y); !errors.Is(err, c.want) {
			t.Errorf("Fit, %s: error %v, want %v", c.name, err, c.want)
		}
	}

	m, err := FitPBP(PBPConfig{Inputs: 2, Hidden: []int{3}, Epochs: 2}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	before := mustMarshal(t, m)
	for _, c := range []struct {
		name   string
		x, y   []float64
		epochs int
		want   error
	}{
		{"zero epochs", x, y, 0, gcp.ErrConfig},
		{"too many epochs", x, y, maxEpochs + 1, gcp.ErrConfig},
		{"no rows", nil, nil, 1, gcp.ErrBatch},
		{"short x", x[:3], y, 1, gcp.ErrShape},
		{"NaN in the last row", []float64{1, 2, 3, nan}, y, 1, gcp.ErrNonFinite},
		{"Inf target", x, []float64{1, -inf}, 1, gcp.ErrNonFinite},
	} {
		if err := m.Train(c.x, c.y, c.epochs); !errors.Is(err, c.want) {
			t.Errorf("Train, %s: error %v, want %v", c.name, err, c.want)
		}
		if !bytes.Equal(before, mustMarshal(t, m)) {
			t.Fatalf("Train, %s: the model changed", c.name)
		}
	}

	ws := m.NewWorkspace()
	other, err := FitPBP(PBPConfig{Inputs: 2, Hidden: []int{4}, Epochs: 1}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ws   *PBPWorkspace
		x    []float64
		want error
	}{
		{"short input", ws, []float64{1}, gcp.ErrShape},
		{"long input", ws, []float64{1, 2, 3}, gcp.ErrShape},
		{"nil workspace", nil, []float64{1, 2}, gcp.ErrShape},
		{"workspace of another shape", other.NewWorkspace(), []float64{1, 2}, gcp.ErrShape},
		{"NaN input", ws, []float64{nan, 2}, gcp.ErrNonFinite},
		{"Inf input", ws, []float64{1, -inf}, gcp.ErrNonFinite},
		{"input whose square overflows", ws, []float64{1e300, 1e300}, gcp.ErrNonFinite},
	} {
		if _, err := m.Predict(c.ws, c.x); !errors.Is(err, c.want) {
			t.Errorf("Predict, %s: error %v, want %v", c.name, err, c.want)
		}
	}
}

// stopAfter is a context whose Err reports context.Canceled from its
// (n+1)-th call on.
type stopAfter struct {
	context.Context
	n int
}

func (c *stopAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestFitContextStops checks that FitPBPContext and FitSVGDContext stop
// once their context is done, before training or after two epochs
// (iterations), with no model and an error matching context.Canceled, and
// that an uncancelled context gives FitPBP's and FitSVGD's model bit for
// bit.
func TestFitContextStops(t *testing.T) {
	x, y := lineData(40, 1)
	pcfg := PBPConfig{Inputs: 1, Hidden: []int{5}, Epochs: 4, Seed: 1}
	scfg := SVGDConfig{Inputs: 1, Hidden: []int{5}, Iterations: 20, Seed: 1}
	for _, n := range []int{0, 2} {
		if m, err := FitPBPContext(&stopAfter{context.Background(), n}, pcfg, x, y); m != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("FitPBPContext stopped after %d epochs: model %v, %v; want none and context.Canceled", n, m != nil, err)
		}
		if m, err := FitSVGDContext(&stopAfter{context.Background(), n}, scfg, x, y); m != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("FitSVGDContext stopped after %d iterations: model %v, %v; want none and context.Canceled", n, m != nil, err)
		}
	}
	p1, err1 := FitPBP(pcfg, x, y)
	p2, err2 := FitPBPContext(context.Background(), pcfg, x, y)
	s1, err3 := FitSVGD(scfg, x, y)
	s2, err4 := FitSVGDContext(context.Background(), scfg, x, y)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	b3, _ := s1.MarshalBinary()
	b4, _ := s2.MarshalBinary()
	if !bytes.Equal(mustMarshal(t, p1), mustMarshal(t, p2)) || !bytes.Equal(b3, b4) {
		t.Error("a context that is never done changes the model")
	}
}
