package gcp

import (
	"bytes"
	"errors"
	"math"
	"os"
	"slices"
	"testing"
)

// fittedMultiModel returns a model of cfg trained for two epochs of Fit on
// randomMultiBatch rows, so that its standardization is learned.
func fittedMultiModel[T Float](t *testing.T, cfg Config) *Model[T] {
	t.Helper()
	m := mustModel[T](t, cfg)
	x, y := randomMultiBatch[T](4, 64, cfg.Inputs, cfg.Targets)
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 16, Seed: 2})
	if _, err := tr.Fit(x, y, FitOptions[T]{Epochs: 2, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTargetsSaveAndLoad checks that a model of several targets saves as
// version 7 and loads, into either element type, to one that predicts
// exactly as it did (bit for bit in its own type, the float32 weights
// exactly in float64), with its per-target standardization and its loss,
// for the GCP model and the Gaussian comparator.
func TestTargetsSaveAndLoad(t *testing.T) {
	eachMultiLoss(t, Config{Inputs: 3, Hidden: []int{4}, Targets: 3, Members: 2, Seed: 1}, testTargetsSaveAndLoad)
}

func testTargetsSaveAndLoad(t *testing.T, cfg Config) {
	m := fittedMultiModel[float32](t, cfg)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v := le.Uint16(b[8:]); v != fileVersionTargets {
		t.Errorf("version %d, want %d", v, fileVersionTargets)
	}
	var back Model[float32]
	var wide Model[float64]
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := wide.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if back.Config().Targets != 3 || back.Config().Loss != cfg.Loss || wide.Config().Loss != cfg.Loss || !slices.Equal(back.params, m.params) ||
		!slices.Equal(back.ext.targets.means, m.ext.targets.means) || !slices.Equal(back.ext.targets.scales, m.ext.targets.scales) {
		t.Fatal("the loaded model differs")
	}
	x := []float32{0.5, -1, 2}
	var p, q MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), x, &p); err != nil {
		t.Fatal(err)
	}
	if err := back.PredictMulti(back.NewWorkspace(), x, &q); err != nil {
		t.Fatal(err)
	}
	y := []float64{0.1, 1, -2}
	if p.LogPDF(y) != q.LogPDF(y) || p.Corr(0, 2) != q.Corr(0, 2) {
		t.Errorf("loaded model predicts LogPDF %v, Corr %v; saved %v, %v", q.LogPDF(y), q.Corr(0, 2), p.LogPDF(y), p.Corr(0, 2))
	}
	if b2, err := back.MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
		t.Errorf("the loaded model re-encodes to other bytes (err %v)", err)
	}
	// The loss byte (docs/format.md: after the hidden widths, Activation,
	// the standardized flag, Dropout, FixedAlpha and Seed) is what says
	// which heads the parameters fill: another loss's heads number
	// differently (ErrFormat), and a loss several targets do not support
	// is refused (ErrConfig).
	off := headerLenV5 + 4*len(cfg.Hidden) + 2 + 3*8
	if Loss(b[off]) != cfg.Loss {
		t.Fatalf("loss byte %d, want %d", b[off], cfg.Loss)
	}
	other := LossGaussianML
	if cfg.Loss == LossGaussianML {
		other = LossGCP
	}
	for loss, want := range map[Loss]error{other: ErrFormat, LossDPD: ErrConfig} {
		c := slices.Clone(b)
		c[off] = byte(loss)
		if err := back.UnmarshalBinary(persistFixCRCs(c)); !errors.Is(err, want) {
			t.Errorf("%v saved as %v: %v, want %v", cfg.Loss, loss, err, want)
		}
	}
}

// TestTargetsSectionRejects checks that a damaged targets section (the
// CRCs fixed, so that the section itself is what fails) gives the error
// of its field, and that a single-target file stays version 1.
func TestTargetsSectionRejects(t *testing.T) {
	m := fittedMultiModel[float64](t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Seed: 2})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	payload := len(b) - crcLen - (4 + 16*2) // the targets section is the last
	patch := func(off int, v uint64, n int) []byte {
		c := slices.Clone(b)
		if n == 4 {
			le.PutUint32(c[payload+off:], uint32(v))
		} else {
			le.PutUint64(c[payload+off:], v)
		}
		return persistFixCRCs(c)
	}
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"three targets claimed", patch(0, 3, 4), ErrFormat},
		{"seventeen targets claimed", patch(0, 17, 4), ErrConfig},
		{"one target claimed", patch(0, 1, 4), ErrFormat},
		{"a NaN centre", patch(4, math.Float64bits(math.NaN()), 8), ErrNonFinite},
		{"a zero scale", patch(4+16, 0, 8), ErrNonFinite},
		{"version 6", persistFixCRCs(append(append([]byte{}, b[:8]...), append([]byte{6, 0}, b[10:]...)...)), ErrFormat},
	} {
		var got Model[float64]
		if err := got.UnmarshalBinary(c.data); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	one, err := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 2}).MarshalBinary()
	if err != nil || le.Uint16(one[8:]) != fileVersionGCP {
		t.Errorf("a single-target model: version %d (err %v), want %d", le.Uint16(one[8:]), err, fileVersionGCP)
	}
}

// goldenTargetsPath is version 7's golden file: a float64 ensemble of two
// members of two targets, 2 inputs, hidden {3}, its weights New's from
// Seed 11 (PCG and Glorot bounds, the same on every platform), features
// standardized by (0.5, 2) and (−1, 4), targets by (1.5, 0.5) and
// (−2, 3).
const goldenTargetsPath = "testdata/model_v7_targets_float64.gcpm"

func goldenTargetsModel(t *testing.T) *Model[float64] {
	m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Members: 2, Seed: 11})
	m.setStandardization([]float64{0.5, -1}, []float64{2, 4}, 0, 1)
	m.ext.targets = &targetMaps{means: []float64{1.5, -2}, scales: []float64{0.5, 3}}
	return m
}

// TestGoldenTargets checks version 7's golden file byte for byte against
// the model it was made from, so that a change to the format, the layout
// of the three heads or New's weights fails here; -update-golden
// rewrites it (see testdata/golden.md).
func TestGoldenTargets(t *testing.T) {
	want := checkGoldenFile(t, goldenTargetsModel(t), goldenTargetsPath)
	var m Model[float32]
	if err := m.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	if c := m.Config(); c.Targets != 2 || c.Members != 2 || m.ext.targets.scales[1] != 3 {
		t.Errorf("decoded %+v, targets %+v", c, m.ext.targets)
	}
}

// checkGoldenFile checks that m encodes to the bytes of the golden file
// at path (rewriting it first under -update-golden) and returns them.
func checkGoldenFile(t *testing.T, m *Model[float64], path string) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		t.Fatalf("the model encodes to %d bytes unlike %s's %d", len(b), path, len(want))
	}
	return want
}
