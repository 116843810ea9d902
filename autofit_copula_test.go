package gcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// independentRows returns n rows of one feature x ∼ U(0, π) and two
// targets independent given x: sin x plus Gaussian noise whose standard
// deviation grows from 0.05 to 0.65 with x, and cos x plus Student-t
// noise of 3 degrees of freedom and scale 0.1 + 0.3·sin x, heteroscedastic
// marginals of different tails, which a multivariate t's one ν and
// shared weight cannot both fit.
func independentRows(seed uint64, n int) (x, y []float64) {
	r := rand.New(rand.NewPCG(seed, 5))
	x, y = make([]float64, n), make([]float64, 2*n)
	for i := range n {
		x[i] = math.Pi * r.Float64()
		y[2*i] = math.Sin(x[i]) + (0.05+0.6*x[i]/math.Pi)*r.NormFloat64()
		var chi2 float64
		for range 3 {
			g := r.NormFloat64()
			chi2 += g * g
		}
		y[2*i+1] = math.Cos(x[i]) + (0.1+0.3*math.Sin(x[i]))*r.NormFloat64()/math.Sqrt(chi2/3)
	}
	return x, y
}

// column returns target j of the row-major targets y of d a row.
func column(y []float64, d, j int) []float64 {
	c := make([]float64, len(y)/d)
	for i := range c {
		c[i] = y[i*d+j]
	}
	return c
}

// sameResult reports whether a and b are the same, bit for bit: their
// printed fields (%v prints a float64 that reads back as the same bits),
// NaN equal to NaN (a TransformChoice's LogSkew of targets not positive).
func sameResult(a, b AutoResult) bool {
	return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

// copulaOptions is smallMultiOptions with both laws compared.
func copulaOptions() AutoOptions {
	opt := smallMultiOptions
	opt.Laws = nil
	return opt
}

// TestAutoFitCopulaMarginsAreOneTargetFits: where AutoFit of two targets
// keeps the copula, each marginal's AutoResult is what AutoFit of that
// target alone returns with the same options and seeds, bit for bit, as
// is the model's marginal prediction that one-target model's, and the
// whole result is the same on one worker as on three. The copula's
// CVNLL is the sum of the marginals' CVNLLs less its gain (they calibrate
// on the same rows), and the choice says both laws' figures.
func TestAutoFitCopulaMarginsAreOneTargetFits(t *testing.T) {
	x, y := independentRows(1, 300)
	cfg := Config{Inputs: 1, Targets: 2, Members: 1, Seed: 2}
	opt := copulaOptions()
	opt.Workers = 1
	m, res, err := AutoFit(cfg, TrainConfig{Seed: 3}, x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Law.Law != LawCopula || !res.Law.Compared || len(res.Margins) != 2 {
		t.Fatalf("law %+v with %d margins, want the copula, compared", res.Law, len(res.Margins))
	}
	ws := m.NewWorkspace()
	var p MultiPrediction
	var sum float64
	for j := range 2 {
		one := cfg
		one.Targets = 0
		mj, want, err := AutoFit(one, TrainConfig{Seed: 3}, x, column(y, 2, j), opt)
		if err != nil {
			t.Fatal(err)
		}
		if !sameResult(res.Margins[j], want) {
			t.Errorf("target %d: margin %+v, want the one-target AutoFit's %+v", j, res.Margins[j], want)
		}
		sum += want.CVNLL
		wsj := mj.NewWorkspace()
		for i := range 5 {
			q, err := mj.Predict(wsj, x[i:i+1])
			if err != nil {
				t.Fatal(err)
			}
			if err := m.PredictMulti(ws, x[i:i+1], &p); err != nil {
				t.Fatal(err)
			}
			if got := p.Marginal(j); got.Mean != q.Mean || got.VarCorrected != q.VarCorrected || got.LogPDF(y[2*i+j]) != q.LogPDF(y[2*i+j]) {
				t.Errorf("row %d, target %d: the copula's marginal %+v, want the one-target model's %+v", i, j, got, q)
			}
		}
	}
	if res.CVRows != 300 || res.Law.CVRows != 300 {
		t.Errorf("%d and %d rows, want 300", res.CVRows, res.Law.CVRows)
	}
	if got := res.Law.CVNLL[LawCopula]; math.Abs(got-(sum-res.Law.Gain)) > 1e-12 || got != res.CVNLL {
		t.Errorf("copula CVNLL %v, want the margins' %v less the gain %v, and AutoResult.CVNLL %v", got, sum, res.Law.Gain, res.CVNLL)
	}
	opt.Workers = 3
	if _, again, err := AutoFit(cfg, TrainConfig{Seed: 3}, x, y, opt); err != nil || !sameResult(again, res) {
		t.Errorf("on three workers %+v (%v), want %+v", again, err, res)
	}
}

// TestAutoFitChoosesTheCopulaForIndependentTargets: for two targets
// independent given x, of heteroscedastic marginals with different tails
// (independentRows), the recipe keeps the copula by a clear margin and
// finds little gain in it (|G| below 0.05 nats a row: the marginals'
// errors, cross-fitted, can still correlate where both means miss).
func TestAutoFitChoosesTheCopulaForIndependentTargets(t *testing.T) {
	x, y := independentRows(2, 400)
	_, res, err := AutoFit(Config{Inputs: 1, Targets: 2, Members: 1, Seed: 2}, TrainConfig{Seed: 3}, x, y, copulaOptions())
	if err != nil {
		t.Fatal(err)
	}
	c := res.Law
	if c.Law != LawCopula || !(c.CVNLL[LawCopula] < c.CVNLL[LawJoint]-0.05) {
		t.Errorf("%v, want the copula, lower by more than 0.05", c)
	}
	if math.Abs(c.Gain) > 0.05 {
		t.Errorf("G %v, want |G| ≤ 0.05", c.Gain)
	}
	t.Log(c)
}

// TestAutoFitChoosesTheJointTForWilliams: on Williams's truth, whose
// correlation runs from −1 to 1 with x, a constant R cannot follow it and
// the joint t, which fits ρ(x), is kept.
func TestAutoFitChoosesTheJointTForWilliams(t *testing.T) {
	x, y := williamsData(600, 0, 3)
	opt := AutoOptions{LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{32}}, MaxEpochs: 200, Seed: 1}
	_, res, err := AutoFit(Config{Inputs: 1, Targets: 2, Members: 1, Seed: 2}, TrainConfig{Seed: 3}, x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Law; c.Law != LawJoint || !c.Compared || res.Margins != nil {
		t.Errorf("%v with %d margins, want the joint t, compared, and none", c, len(res.Margins))
	}
	for j, e := range res.Law.CVRMSE[LawJoint] {
		if one := res.Law.CVRMSE[LawCopula][j]; !(e > 0 && e <= 1.05*one) {
			t.Errorf("target %d: the joint network kept with RMSE %v, its one-target model's %v", j, e, one)
		}
	}
	t.Log(res.Law)
}

// TestAutoFitLawsOptions: a law named twice, or one past LawCopula, is
// ErrConfig; the joint law alone fits no copula and says so; a target's
// one-target recipe that fails leaves the joint network, saying why; for
// LossGaussianML the default is the joint network alone.
func TestAutoFitLawsOptions(t *testing.T) {
	x, y := independentRows(4, 60)
	cfg := Config{Inputs: 1, Targets: 2, Members: 1, Seed: 2}
	for _, laws := range [][]JointLaw{{LawCopula, LawCopula}, {LawCopula + 1}, {}} {
		opt := smallMultiOptions
		opt.Laws = laws
		if _, _, err := AutoFit(cfg, TrainConfig{}, x, y, opt); !errors.Is(err, ErrConfig) {
			t.Errorf("Laws %v: %v, want ErrConfig", laws, err)
		}
	}
	_, res, err := AutoFit(cfg, TrainConfig{}, x, y, smallMultiOptions)
	if err != nil || !cmp.Equal(res.Law, LawChoice{}) || res.Margins != nil {
		t.Errorf("the joint law alone: %+v, %v", res.Law, err)
	}
	// The log alone: a one-target recipe refuses a target that is not
	// positive, and the joint network, which logs only the screened
	// targets, is kept, saying why.
	logOpt := copulaOptions()
	logOpt.TargetTransforms = []TargetTransform{TransformLog}
	if _, res, err := AutoFit(cfg, TrainConfig{}, x, y, logOpt); err != nil || res.Law.Law != LawJoint ||
		!strings.Contains(res.Law.Failed, "the one-target recipe of target 0") || res.Law.Compared {
		t.Errorf("a one-target recipe failing: %+v, %v, want the joint network and why", res.Law, err)
	}
	ml := cfg
	ml.Loss = LossGaussianML
	if _, res, err := AutoFit(ml, TrainConfig{}, x, y, copulaOptions()); err != nil || res.Law.Compared || res.Law.Law != LawJoint {
		t.Errorf("ml: %+v, %v, want the joint network alone", res.Law, err)
	}
}

// TestLawsCalibrateOnTheSameRows: the joint network's search and each
// target's one-target search hold out the same rows, keep the same
// calibration half of a large hold-out, and deal the rows into the same
// calibration folds, so that both laws are calibrated and compared on the
// same rows (autoFitLaws): on 300 rows (folds) and on 6,000 (a
// calibration half).
func TestLawsCalibrateOnTheSameRows(t *testing.T) {
	for _, n := range []int{300, 6000} {
		x, y := independentRows(5, n)
		opt := copulaOptions()
		joint, err := newSearch(context.Background(), Config{Inputs: 1, Targets: 2, Members: 1, Seed: 2}, TrainConfig{Seed: 3}, x, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		for j := range 2 {
			one, err := newSearch(context.Background(), Config{Inputs: 1, Members: 1, Seed: 2}, TrainConfig{Seed: 3}, x, column(y, 2, j), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(one.trainRows.indices(), joint.trainRows.indices()) || !slices.Equal(one.valRows.indices(), joint.valRows.indices()) ||
				!slices.Equal(one.calRows.indices(), joint.calRows.indices()) {
				t.Errorf("%d rows, target %d: the hold-out differs from the joint network's", n, j)
			}
			win := &candidate[float64]{hyper: hyper{lr: 1e-3, hidden: []int{4}}}
			if fo, fj := one.newFolds(win, 1), joint.newFolds(win, 1); !slices.Equal(fo.fold, fj.fold) || !slices.Equal(fo.pooled.indices(), fj.pooled.indices()) {
				t.Errorf("%d rows, target %d: the calibration folds differ from the joint network's", n, j)
			}
		}
		if got := joint.calRows.len() > 0; got != (n == 6000) {
			t.Errorf("%d rows: a calibration half %v", n, got)
		}
	}
}

// TestFitCopulaLawScoresEachTargetsRMSE: fitCopulaLaw's RMSE of each
// target under each law is the root mean of that recipe's squared errors
// over the rows every recipe calibrated, and of no other row, whatever
// order each recipe holds them in.
func TestFitCopulaLawScoresEachTargetsRMSE(t *testing.T) {
	const d = 2
	r := rand.New(rand.NewPCG(7, 1))
	// Each recipe's rows, by their indices in the data: row 9 is not the
	// joint network's, row 0 not target 1's, and the rows of target 1
	// are held in another order.
	held := [1 + d][]int32{{0, 1, 2, 3, 4, 5, 6, 7, 8}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {9, 8, 7, 6, 5, 4, 3, 2, 1}}
	sq := make(map[[2]int]float64) // by (recipe, target) and row: the recipe's squared error
	fits := make([]lawFit[float64], 1+d)
	for i, rows := range held {
		c := &fits[i].cal
		c.rows = rows
		targets := 1
		if i == 0 {
			targets = d
		}
		c.sqErrs = make([][]float64, targets)
		for j := range c.sqErrs {
			for _, row := range rows {
				e := r.ExpFloat64()
				c.sqErrs[j] = append(c.sqErrs[j], e)
				sq[[2]int{i*10 + j, int(row)}] = e
			}
		}
		for range rows {
			c.nlls = append(c.nlls, r.NormFloat64())
			c.preds = append(c.preds, Prediction{Loss: LossGCP, Alpha: 3, Beta: 3, Nu: 1, Members: 1})
			c.z = append(c.z, r.NormFloat64())
		}
		c.dq = c.z
	}
	got := fitCopulaLaw(fits, d, 10, true)
	if got.rows != 8 {
		t.Fatalf("%d rows in common, want 8 (rows 1 to 8)", got.rows)
	}
	for j := range d {
		var joint, one float64
		for row := 1; row <= 8; row++ {
			joint += sq[[2]int{j, row}] / 8
			one += sq[[2]int{(1+j)*10 + 0, row}] / 8
		}
		if e := got.rmse[LawJoint][j]; math.Abs(e-math.Sqrt(joint)) > 1e-15 {
			t.Errorf("target %d: the joint network's RMSE %v, want %v", j, e, math.Sqrt(joint))
		}
		if e := got.rmse[LawCopula][j]; math.Abs(e-math.Sqrt(one)) > 1e-15 {
			t.Errorf("target %d: the copula's RMSE %v, want its one-target recipe's %v", j, e, math.Sqrt(one))
		}
	}
	if got := fitCopulaLaw(fits, d, 10, false); got.rmse[LawJoint] != nil {
		t.Errorf("without the joint network, its RMSE %v, want none", got.rmse[LawJoint])
	}
}

// TestKeepsJointOnlyWhereItsMeansHold: the joint network is kept where
// its cross-fitted joint NLL is not above the copula's (a tie keeps it)
// and no target's RMSE under it exceeds the copula's by more than 5%; a
// NaN RMSE counts as exceeding. LawChoice.String says which target's
// means decided it.
func TestKeepsJointOnlyWhereItsMeansHold(t *testing.T) {
	for _, c := range []struct {
		nll, jointNLL float64
		joint, one    []float64
		want          bool
	}{
		{1, 0.9, []float64{1.05, 2}, []float64{1, 2}, true},
		{1, 1, []float64{1, 2}, []float64{1, 2}, true},
		{1, 0.9, []float64{0, 2}, []float64{0, 2}, true},
		{1, 0.9, []float64{1, 2.2}, []float64{1, 2}, false},
		{1, 0.9, []float64{1, 0.1}, []float64{1, 0}, false},
		{1, 0.9, []float64{math.NaN(), 1}, []float64{1, 1}, false},
		{1, 1.1, []float64{1, 1}, []float64{1, 1}, false},
	} {
		f := copulaFitted{nll: c.nll, jointNLL: c.jointNLL, rmse: [2][]float64{c.joint, c.one}}
		if got := f.keepsJoint(); got != c.want {
			t.Errorf("joint NLL %v against %v, RMSE %v against %v: keeps the joint network %v, want %v", c.jointNLL, c.nll, c.joint, c.one, got, c.want)
		}
	}
	law := LawChoice{Law: LawCopula, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: [2][]float64{{1, 1.2, 1.1}, {1, 1, 1}}}
	if s := law.String(); !strings.Contains(s, "the copula kept: the joint network's means of target 1 are 1.2× the one-target model's RMSE, above 1.05×") {
		t.Errorf("%q does not say that target 1's means decided", s)
	}
}

// TestCopulaRegionFitsTheDequantizedTargets: the copula's calibrated
// region is fitted to the distances of the targets dequantized as the
// marginals were calibrated (calibrationRows.dq), as the joint network's
// is, while its conformal distances and the coverage judged take the
// targets as observed; with a target on a lattice of spacing 1, the
// region fitted to the observed points differs.
func TestCopulaRegionFitsTheDequantizedTargets(t *testing.T) {
	const d, n = 2, 200
	r := rand.New(rand.NewPCG(8, 1))
	fits := make([]lawFit[float64], 1+d)
	for j := 1; j <= d; j++ {
		c := &fits[j].cal
		c.sqErrs = [][]float64{make([]float64, n)}
		for i := range n {
			c.rows = append(c.rows, int32(i))
			c.nlls = append(c.nlls, 1)
			c.preds = append(c.preds, Prediction{Loss: LossGCP, Alpha: 3, Beta: 3, Nu: 1, Members: 1, Var: 1.5, VarCorrected: 1.5})
			y := r.NormFloat64()
			if j == 1 { // on a lattice, dequantized by U(−½, ½)
				y = math.Round(y)
				c.dq = append(c.dq, y+r.Float64()-0.5)
			}
			c.z = append(c.z, y)
		}
		if j == 2 {
			c.dq = c.z
		}
	}
	got := fitCopulaLaw(fits, d, n, false)
	var observed, dequantized []float64
	for i := range n {
		marg := []Prediction{fits[1].cal.preds[i], fits[2].cal.preds[i]}
		observed = append(observed, copulaRegionDistance2(marg, got.fit.chol, []float64{fits[1].cal.z[i], fits[2].cal.z[i]}))
		dequantized = append(dequantized, copulaRegionDistance2(marg, got.fit.chol, []float64{fits[1].cal.dq[i], fits[2].cal.dq[i]}))
	}
	scale, nu := calibrateRegion(dequantized, d, n)
	if got.scale != scale || got.nu != nu {
		t.Errorf("region scale %v, ν %v; want %v, %v, fitted to the dequantized targets", got.scale, got.nu, scale, nu)
	}
	if s, _ := calibrateRegion(observed, d, n); s == scale {
		t.Fatalf("the observed points give the same scale %v: the test cannot tell them apart", s)
	}
	if want := jointConformalScores(observed); !slices.Equal(got.conformal.q, want.q) {
		t.Error("the conformal distances are not the observed targets'")
	}
	if want := cvCoverage95(dequantized, observed, d, n); got.cover95 != want {
		t.Errorf("coverage %v, want %v: the dequantized fit judged at the observed points", got.cover95, want)
	}
}

// TestLawChoiceStringNamesTheTargetThatDecided: where a target's RMSE is
// 0 under both laws (its means exact on every row), keepsJoint lets it
// pass (0 ≤ 1.05·0) and another target's 1.2× keeps the copula; String
// names that target and its 1.2×, not the 0/0 = NaN ratio, and a kept
// joint network's worst ratio does not read NaN.
func TestLawChoiceStringNamesTheTargetThatDecided(t *testing.T) {
	rmse := [2][]float64{{0, 1.2}, {0, 1}}
	if (copulaFitted{nll: 1, jointNLL: 0.9, rmse: rmse}).keepsJoint() {
		t.Fatal("the joint network kept with target 1's RMSE 1.2× the copula's")
	}
	law := LawChoice{Law: LawCopula, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: rmse}
	if s := law.String(); !strings.Contains(s, "target 1 are 1.2×") {
		t.Errorf("%q: want target 1's 1.2× named, the ratio that kept the copula", s)
	}
	joint := LawChoice{Law: LawJoint, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: [2][]float64{{0, 1.01}, {0, 1}}}
	if worst, at := joint.worstRMSERatio(); math.IsNaN(worst) || at != 1 {
		t.Errorf("%q: worst ratio %v at target %d, want 1.01 at target 1", joint.String(), worst, at)
	}
}

// TestKeepsJointWhereTheCopulaIsNaN: the joint network is kept unless the
// copula's joint NLL is lower, so a copula of NaN scores never replaces
// it: a NaN RMSE of the copula's does not count against the joint
// network.
func TestKeepsJointWhereTheCopulaIsNaN(t *testing.T) {
	f := copulaFitted{nll: math.NaN(), jointNLL: 1, rmse: [2][]float64{{1, 1}, {math.NaN(), 1}}}
	if !f.keepsJoint() {
		t.Error("the copula of NaN joint NLL and a NaN RMSE kept over a finite joint network")
	}
}

// TestLawChoiceStringRatioAboveTolerance: a ratio of 1.052 keeps the
// copula (above 1.05), and String prints it with the digits that tell it
// from the tolerance.
func TestLawChoiceStringRatioAboveTolerance(t *testing.T) {
	law := LawChoice{Law: LawCopula, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: [2][]float64{{1.052}, {1}}}
	if s := law.String(); strings.Contains(s, "are 1.05× the one-target model's RMSE, above 1.05×") {
		t.Errorf("%q: the ratio that kept the copula prints as the tolerance", s)
	}
}
