package gcp

// Regression tests for the defects an adversarial probe found (issue 11,
// "No silent garbage"): each keeps the probe's minimal reproduction.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/filetest"
)

// probeFit trains a fresh Model[T] of cfg on the row-major x and y for
// epochs epochs and returns it.
func probeFit[T Float](t *testing.T, cfg Config, x, y []float64, epochs int) *Model[T] {
	t.Helper()
	m := mustModel[T](t, cfg)
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 8, LearningRate: 1e-2})
	if _, err := tr.Fit(convertTo[T](x), convertTo[T](y), FitOptions[T]{Epochs: epochs, Seed: 1}); err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return m
}

// convertTo returns v converted to T.
func convertTo[T Float](v []float64) []T {
	out := make([]T, len(v))
	for i, f := range v {
		out[i] = T(f)
	}
	return out
}

// checkSane fails t unless p, a prediction returned with a nil error, has
// a finite mean, finite positive variances and a finite 95% interval
// around its mean: what Prediction promises.
func checkSane(t *testing.T, p Prediction) {
	t.Helper()
	lo, hi, err := p.Interval(0.95)
	// lo = Mean = hi is allowed: a variance of 1e-80 has a 95% half-width
	// far below half an ulp of the mean.
	if err != nil || !finite(p.Mean) || !positiveFinite(p.Var) || !positiveFinite(p.VarCorrected) ||
		!finite(lo) || !finite(hi) || !(lo <= p.Mean && p.Mean <= hi) {
		t.Fatalf("prediction %+v with 95%% interval [%v, %v] (%v): want a finite mean, variances and interval", p, lo, hi, err)
	}
}

// TestFitConstantColumn is defect 1: a column of 40 copies of 0.1 has a
// mean, sum/40, that is not exactly 0.1, and its standard deviation came
// out as 4e-17 instead of 0, so that the column was scaled by 1/4e-17 and
// an input of 0.10001 predicted a mean of 3.5e10 and a NaN interval with
// a nil error. A constant column must keep the scale 1 (robust.CenterScale).
func TestFitConstantColumn(t *testing.T) {
	const n = 40
	var x, y []float64
	for i := 0; i < n; i++ {
		v := float64(i) / n
		x = append(x, 0.1, v)
		y = append(y, v+0.01*math.Sin(float64(i)))
	}
	t.Run("float64", func(t *testing.T) { testFitConstantColumn[float64](t, x, y) })
	t.Run("float32", func(t *testing.T) { testFitConstantColumn[float32](t, x, y) })
}

func testFitConstantColumn[T Float](t *testing.T, x, y []float64) {
	m := probeFit[T](t, Config{Inputs: 2, Hidden: []int{8}, Seed: 1}, x, y, 100)
	if _, xs, _, _ := m.Standardization(); xs[0] != 1 {
		t.Errorf("constant column: scale %v, want 1", xs[0])
	}
	p, err := m.Predict(m.NewWorkspace(), []T{0.10001, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	checkSane(t, p)
	// y ≈ x1 on [0, 1): a mean beyond [−1, 2] is garbage, not a fit.
	if !(p.Mean > -1 && p.Mean < 2) {
		t.Errorf("mean %v at x1 = 0.5, want about 0.5", p.Mean)
	}
}

// TestFitExtremeColumns is defect 10: Fit reported ErrNonFinite on finite
// data. A feature with a subnormal spread got a subnormal scale, whose
// reciprocal is +Inf; a feature of ±1e308 overflowed the median's
// interpolation, −1e308 + ½·(1e308 − (−1e308)). Both must train. A
// feature spanning more than float64's range about its median cannot be
// standardized at all, and the error must say which feature and why.
func TestFitExtremeColumns(t *testing.T) {
	const n = 40
	for _, c := range []struct {
		name string
		x0   func(i int) float64
	}{
		{"subnormal-spread", func(i int) float64 { return float64(i) * 1e-310 }},
		{"plus-minus-1e308", func(i int) float64 { return float64(1-2*(i%2)) * 1e308 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var x, y []float64
			for i := 0; i < n; i++ {
				v := float64(i) / n
				x = append(x, c.x0(i), v)
				y = append(y, v)
			}
			m := probeFit[float64](t, Config{Inputs: 2, Hidden: []int{8}, Seed: 1}, x, y, 20)
			xm, xs, _, _ := m.Standardization()
			if !finite(xm[0]) || !positiveFinite(xs[0]) || !positiveFinite(1/xs[0]) {
				t.Errorf("feature 0: centre %v, scale %v: want finite, with a finite reciprocal", xm[0], xs[0])
			}
			p, err := m.Predict(m.NewWorkspace(), []float64{x[2], x[3]})
			if err != nil {
				t.Fatal(err)
			}
			checkSane(t, p)
		})
	}
	t.Run("wider-than-float64", func(t *testing.T) {
		var x, y []float64
		for i := 0; i < n; i++ {
			x = append(x, math.MaxFloat64)
			y = append(y, float64(i))
		}
		x[0] = -math.MaxFloat64 // 2·MaxFloat64 below the median
		m := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{4}})
		tr := mustTrainer(t, m, TrainConfig{})
		_, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 1})
		if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "feature 0") || m.standardized {
			t.Fatalf("Fit = %v, standardized %v: want ErrNonFinite naming feature 0, and no standardization", err, m.standardized)
		}
	})
}

// TestPredictExtrapolation is defect 2: a model trained on x in [0, 1]
// and asked about x = 1000 gave Var = 0, VarCorrected = NaN and a NaN
// interval with a nil error, because the softplus of the β head
// underflowed to 0. Far out, every prediction must be sane or an error.
func TestPredictExtrapolation(t *testing.T) {
	var x, y []float64
	for i := 0; i < 40; i++ {
		v := float64(i) / 39
		x = append(x, v)
		y = append(y, 2*v+0.1*math.Sin(7*v))
	}
	t.Run("float64", func(t *testing.T) { testPredictExtrapolation[float64](t, x, y) })
	t.Run("float32", func(t *testing.T) { testPredictExtrapolation[float32](t, x, y) })
}

func testPredictExtrapolation[T Float](t *testing.T, x, y []float64) {
	m := probeFit[T](t, Config{Inputs: 1, Seed: 1}, x, y, 100)
	ws := m.NewWorkspace()
	p, err := m.Predict(ws, []T{1000}) // the probe's reproduction
	if err != nil {
		t.Fatalf("x = 1000: %v", err)
	}
	checkSane(t, p)
	for _, v := range []float64{-1e30, -1e6, -1e3, 30, 1e4, 1e6, 1e30} {
		p, err := m.Predict(ws, []T{T(v)})
		if err != nil {
			if !errors.Is(err, ErrNonFinite) {
				t.Fatalf("x = %g: %v, want a prediction or ErrNonFinite", v, err)
			}
			continue
		}
		checkSane(t, p)
	}
}

// TestPredictUnderflowingLinks drives each softplus head of a model to a
// raw output of ±1e4 through its output bias, as far extrapolation does:
// softplus(−1e4) underflows to 0 and softplus(1e4) = 1e4. A β, ν or α−1
// of 0 must not reach the prediction (defect 2); a variance that
// overflows float64 in original units must be ErrNonFinite.
func TestPredictUnderflowingLinks(t *testing.T) {
	for _, loss := range []Loss{LossGCP, LossGaussianML, LossMLBayes} {
		cfg := Config{Inputs: 1, Hidden: []int{4}, Seed: 1, Loss: loss}
		if loss == LossMLBayes {
			cfg.Dropout, cfg.MCSamples = 0.5, 4
		}
		heads := cfg.memberHeads()
		overflows := 0
		// Every combination of −1e4 and +1e4 on the heads after m.
		for mask := 0; mask < 1<<(heads-1); mask++ {
			m := mustModel[float64](t, cfg)
			ly := m.lay.layers[len(m.lay.hidden)]
			for h := headBeta; h < heads; h++ {
				z := -1e4
				if mask>>(h-1)&1 == 1 {
					z = 1e4
				}
				clear(blockW(m.params, ly, h))
				blockB(m.params, ly, h)[0] = z
			}
			for _, yScale := range []float64{1, 0x1p-256, 0x1p256} {
				if err := m.SetStandardization([]float64{0}, []float64{1}, 0, yScale); err != nil {
					t.Fatal(err)
				}
				p, err := m.Predict(m.NewWorkspace(), []float64{0.5})
				if err != nil {
					if !errors.Is(err, ErrNonFinite) {
						t.Fatalf("%v, heads %b, yScale %g: %v", loss, mask, yScale, err)
					}
					overflows++
					continue
				}
				checkSane(t, p)
			}
		}
		// β = 1e4 with ν floored gives σ = 1e4·2²⁵⁶ in standardized
		// units, 1e4·2⁷⁶⁸ beyond float64 at yScale = 2²⁵⁶: the check of
		// the variances must have caught it.
		if loss == LossGCP && overflows == 0 {
			t.Errorf("%v: no combination overflowed, want ErrNonFinite for β = 1e4, ν = linkFloor, yScale = 2²⁵⁶", loss)
		}
	}
}

// TestTargetScaleRange is defect 7: a prediction's variance is β·yScale²
// in original units, which overflowed for targets of scale 1e200 and
// underflowed for 1e-200, giving NaN or Inf uncertainty with a nil error.
// A target scale outside [2⁻²⁵⁶, 2²⁵⁶] is refused by SetStandardization
// and by Fit; at the ends of that range predictions stay sane.
func TestTargetScaleRange(t *testing.T) {
	var x, y []float64
	for i := 0; i < 40; i++ {
		v := float64(i) / 40
		x = append(x, v)
		y = append(y, v+0.1*math.Sin(float64(i)))
	}
	// The targets' own robust scale is about 0.3, so 2^±260 puts theirs
	// outside the range for Fit as 2^±257 does for SetStandardization.
	for _, s := range []float64{1e-200, 1e200, 0x1p-260, 0x1p260} {
		m := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{4}})
		for _, ys := range []float64{s, s / 8, s * 8} {
			if err := m.SetStandardization([]float64{0}, []float64{1}, 0, ys); !errors.Is(err, ErrNonFinite) {
				t.Errorf("SetStandardization with yScale %g = %v, want ErrNonFinite", ys, err)
			}
		}
		ys := make([]float64, len(y))
		for i, v := range y {
			ys[i] = v * s
		}
		tr := mustTrainer(t, m, TrainConfig{})
		if _, err := tr.Fit(x, ys, FitOptions[float64]{Epochs: 1}); !errors.Is(err, ErrNonFinite) || m.standardized {
			t.Errorf("Fit on targets of scale %g = %v, standardized %v: want ErrNonFinite and no standardization", s, err, m.standardized)
		}
	}
	for _, s := range []float64{0x1p-256, 0x1p256} {
		ys := make([]float64, len(y))
		for i, v := range y {
			ys[i] = v * s
		}
		m := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{8}, Seed: 1})
		if err := m.SetStandardization([]float64{0.5}, []float64{0.3}, 0.5*s, s); err != nil {
			t.Fatal(err)
		}
		tr := mustTrainer(t, m, TrainConfig{BatchSize: 8, LearningRate: 1e-2})
		if _, err := tr.Fit(x, ys, FitOptions[float64]{Epochs: 30}); err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(m.NewWorkspace(), []float64{0.5})
		if err != nil {
			t.Fatal(err)
		}
		checkSane(t, p)
	}
}

// TestIntervalNearOne is defect 8: at level = 1 − 2⁻⁵³, the largest
// float64 below 1, the upper tail's probability 1 − (1 − level)/2 rounds
// to 1, so the upper bound came out as Quantile(1): +Inf for a
// NormalGamma and 0 (the ignored ErrProbability) for a Prediction, such
// as [93.1, 0] from an ML model. The bounds must be the two tails'
// quantiles, here at 2⁻⁵⁴ and 1 − 2⁻⁵⁴. The references are mpmath's: for
// 2α = 2 degrees of freedom the Student-t quantile is
// (2p−1)/√(2p(1−p)) in closed form, times the scale √(σ/α) = √2; for the
// Gaussian √2·erfinv(2p−1). The tolerances are 1e-13 relative, about 500
// ulps, the accuracy the quantile tests accept far in the tails.
func TestIntervalNearOne(t *testing.T) {
	level := math.Nextafter(1, 0)
	check := func(name string, lo, hi float64, err error, want float64) {
		t.Helper()
		if err != nil || math.Abs(lo+want) > 1e-13*want || math.Abs(hi-want) > 1e-13*want {
			t.Errorf("%s: Interval(1 − 2⁻⁵³) = [%v, %v] (%v), want ±%v", name, lo, hi, err, want)
		}
	}
	const studentT, gauss = 134217727.9999999888241291046142575540061, 8.29236107581359553823415231377928942719
	ng := NormalGamma{M: 0, Nu: 1, Alpha: 1, Beta: 1}
	lo, hi, err := ng.Interval(level)
	check("NormalGamma", lo, hi, err, studentT)
	lo, hi, err = Prediction{Loss: LossGCP, Nu: 1, Alpha: 1, Beta: 1}.Interval(level)
	check("GCP Prediction", lo, hi, err, studentT)
	lo, hi, err = Prediction{Loss: LossGaussianML, Var: 1, VarCorrected: 1, Alpha: math.Inf(1)}.Interval(level)
	check("ML Prediction", lo, hi, err, gauss)
}

// TestMCMaskBound is defect 3: an ML_Bayes model holds MCSamples dropout
// masks of the last hidden layer's width, which no limit covered, so a
// 24.7 KB file (Hidden {1024}, MCSamples 4096) made the loader allocate
// 200 MB. Config bounds the masks at maxMCMask elements, and loading that
// file must be cheap and fail with ErrConfig. The file is built here, a
// valid model with MCSamples 64 whose stored MCSamples is set to 4096 and
// whose CRCs are fixed; it was FuzzUnmarshal's largest corpus entry, 100
// times the size of its seeds, too large for the engine to minimize what
// it mutates from it.
func TestMCMaskBound(t *testing.T) {
	cfg := Config{Inputs: 1, Hidden: []int{1024}, Loss: LossMLBayes, Dropout: 0.5, MCSamples: 4096}
	if _, err := New[float32](cfg); !errors.Is(err, ErrConfig) {
		t.Errorf("New with %d mask elements = %v, want ErrConfig", 4096*2*1024, err)
	}
	ok := cfg
	ok.Hidden, ok.MCSamples = []int{maxMCMask / 2 / 64}, 64 // exactly maxMCMask
	if _, err := New[float32](ok); err != nil {
		t.Errorf("New with maxMCMask mask elements: %v", err)
	}
	ok.Hidden, ok.MCSamples = []int{1024}, 64
	data := mustModel[float32](t, ok).encode()
	le.PutUint32(data[headerLen+4*len(ok.Hidden)+35:], 4096) // MCSamples, at the offset fuzzMCMask reads
	data = persistFixCRCs(data)
	var m Model[float64]
	var err error
	// The bound of FuzzUnmarshal for a model without masks.
	if alloc := persistAllocated(func() { err = m.UnmarshalBinary(data) }); alloc > 20*uint64(len(data))+64<<10 {
		t.Errorf("loading %d bytes allocated %d", len(data), alloc)
	}
	if !errors.Is(err, ErrConfig) {
		t.Errorf("UnmarshalBinary = %v, want ErrConfig", err)
	}
}

// TestNilReceivers is defect 11: Predict, NewWorkspace, Clone, NumParams,
// Config, UnmarshalBinary and Step panicked on a nil *Model or *Trainer,
// while MarshalBinary and NewTrainer returned ErrConfig. Every exported
// method, found by reflection so that a new one is covered too, is called
// on a nil receiver with zero arguments: none may panic, and every error
// it returns must match ErrConfig.
func TestNilReceivers(t *testing.T) {
	for _, recv := range []any{(*Model[float64])(nil), (*Model[float32])(nil), (*Trainer[float64])(nil), (*Trainer[float32])(nil)} {
		v := reflect.ValueOf(recv)
		for i := 0; i < v.NumMethod(); i++ {
			name := fmt.Sprintf("(%T).%s", recv, v.Type().Method(i).Name)
			method := v.Method(i)
			args := make([]reflect.Value, method.Type().NumIn())
			for j := range args {
				args[j] = reflect.Zero(method.Type().In(j))
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panics: %v", name, r)
					}
				}()
				out := method.Call(args)
				if n := len(out); n > 0 && out[n-1].Type() == reflect.TypeFor[error]() {
					if err, _ := out[n-1].Interface().(error); !errors.Is(err, ErrConfig) {
						t.Errorf("%s = %v, want ErrConfig", name, err)
					}
				}
			}()
		}
	}
	var m *Model[float64]
	if _, err := m.Predict(m.NewWorkspace(), []float64{1}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil Model: Predict with its own Workspace = %v, want ErrConfig", err)
	}
	if c := m.Clone(); c != nil || m.NumParams() != 0 {
		t.Errorf("nil Model: Clone %v, NumParams %d, want nil and 0", c, m.NumParams())
	}
}

// TestSaveFileNotRegular is defect 4 for a directory: SaveFile must refuse
// an existing path that is not a regular file before writing anything.
func TestSaveFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}})
	if err := SaveFile(sub, m); !errors.Is(err, ErrNotRegular) {
		t.Errorf("SaveFile(directory) = %v, want ErrNotRegular", err)
	}
	filetest.Only(t, dir, "sub")
	filetest.Only(t, sub)
}

// TestSaveFileDanglingSymlink is defect 12: when path was a symbolic link
// to a file that did not exist yet, SaveFile replaced the link with a
// regular file, though its doc says the link is kept. The model must land
// in the link's target, relative to the link's directory, through a chain
// of two links.
func TestSaveFileDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	skipOnWASI(t, "portable symbolic links: a runtime may refuse path_symlink")
	link, mid := filepath.Join(dir, "link.gcpm"), filepath.Join(dir, "mid.gcpm")
	if err := os.Symlink("mid.gcpm", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("models", "real.gcpm"), mid); err != nil {
		t.Fatal(err)
	}
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}, Seed: 3})
	if err := SaveFile(link, m); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link (%v)", l, err)
		}
	}
	got, err := LoadFile[float32](filepath.Join(dir, "models", "real.gcpm"))
	if err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(m, got); d != "" {
		t.Errorf("the link's target differs (-want +got):\n%s", d)
	}
	filetest.Only(t, dir, "link.gcpm", "mid.gcpm", "models")
}

// TestSaveFileContext is defect 9's library half: five Ctrl-Cs during
// saves left 550 MB of ".NAME.tmp*" files. A save whose context is done,
// before it starts, between two chunks or while the complete file is
// flushed to disk, must leave the old file as it was and no temporary
// file. regression: N9 of issue 26 (a cancel during the final flush was
// ignored: SaveFileContext checks its context again right before the
// rename).
func TestSaveFileContext(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gcpm")
	old := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{2}, Seed: 1})
	if err := SaveFile(path, old); err != nil {
		t.Fatal(err)
	}
	oldBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A model of two chunks and more (8 MiB as float32), cancelled after
	// its first chunk:
	// the second check of the context stops it.
	big := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{1024, 512}})
	b, err := big.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{
		{"cancelled before", ctx},
		{"cancelled during", &cancelAfter{Context: context.Background(), checks: 1}},
		{"cancelled during the flush", &flushCancelContext{Context: context.Background(), dir: dir, size: int64(len(b))}},
	} {
		if err := SaveFileContext(c.ctx, path, big); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: SaveFileContext = %v, want context.Canceled", c.name, err)
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, oldBytes) {
			t.Errorf("%s: the old file changed (%v)", c.name, err)
		}
		filetest.Only(t, dir, "m.gcpm")
		if f, ok := c.ctx.(*flushCancelContext); ok && !f.armed {
			t.Error("the context never saw the temporary file complete")
		}
	}
}

// cancelAfter is a context whose Err turns to context.Canceled after it
// was asked checks times.
type cancelAfter struct {
	context.Context
	checks int
}

func (c *cancelAfter) Err() error {
	if c.checks == 0 {
		return context.Canceled
	}
	c.checks--
	return nil
}

// flushCancelContext is a context whose Err reports context.Canceled from
// the first call after one that found a temporary file of size bytes in
// dir: a cancel that arrives after the whole file is written, as a
// SIGINT during the flush would.
type flushCancelContext struct {
	context.Context
	dir          string
	size         int64
	armed, fired bool
}

func (c *flushCancelContext) Err() error {
	if c.armed {
		c.fired = true
	}
	if c.fired {
		return context.Canceled
	}
	entries, _ := os.ReadDir(c.dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.Contains(e.Name(), ".tmp") && fi.Size() == c.size {
			c.armed = true
		}
	}
	return nil
}
