package gcp

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestTargetScalesRecoverTheTruthsScale draws targets from predictions
// whose factor rows are wrong by known factors (target 0's scale is
// twice the truth's, target 1's half of it, target 2's a third of it),
// rounds target 2 to a lattice of spacing 1, and checks that targetScales
// returns the truth's over the prediction's, 0.5, 2 and 3, for a single
// network and a mixture of three. The rounded target's cell
// probabilities are its exact law under the truth, so their maximum
// likelihood is the truth's factor, whatever the spacing. Tolerance: 4
// standard errors of the maximum-likelihood ln r from 4,000 rows, the
// Fisher information of a t scale's logarithm being 2ν/(ν+3) a row (at
// most 1/√(4000·2·6/9) = 0.014 for ν ≥ 6; a mixture's rows are as
// informative or more, and rounding to a spacing a third of the truth's
// scale or less loses a few percent of it), so 0.06 on ln r.
// regression: a target on a lattice kept its scale, factor 1.
func TestTargetScalesRecoverTheTruthsScale(t *testing.T) {
	const d, n = 3, 4000
	truth := []float64{0.5, 2, 3}
	for _, members := range []int{1, 3} {
		r := rand.New(rand.NewPCG(uint64(members), 11))
		preds := make([]MultiPrediction, n)
		y := make([]float64, n*d)
		for i := range preds {
			// Draw from the prediction with its factor's rows times truth.
			p := randomMulti(t, r, d, members, 6, 1)
			p.scaleRows(truth)
			if err := p.Sample(y[i*d:(i+1)*d], r); err != nil {
				t.Fatal(err)
			}
			y[i*d+2] = math.Round(y[i*d+2])
			p.scaleRows([]float64{1 / truth[0], 1 / truth[1], 1 / truth[2]})
			preds[i] = *p
		}
		got := targetScales(preds, y, d, []float64{0, 0, 1})
		for j, want := range truth {
			if math.Abs(math.Log(got[j]/want)) > 0.06 {
				t.Errorf("%d members: target %d's factor %.4f, want %.4f", members, j, got[j], want)
			}
		}
	}
}

// TestCellLogProbIntegratesTheDensity checks the probability of a cell
// y ± h/2 under a t component and a Gaussian one against Simpson's rule
// on the component's density over the cell, at the mean, one scale out,
// and 30 scales out, where the CDFs near 1 would cancel. Tolerance 1e-9
// on the log: Simpson's error with 2,000 panels on a cell of a tenth of
// a scale to two scales is below 1e-12 of the probability, and the CDF
// is good to 1e-13 (studentTCDF).
func TestCellLogProbIntegratesTheDensity(t *testing.T) {
	for _, c := range []Component{{Mean: 0.3, Scale: 0.8, DoF: 4}, {Mean: -1, Scale: 2, DoF: math.Inf(1)}} {
		var dist studentTDist
		dist.set(c.DoF)
		for _, tc := range []struct{ z, h float64 }{{0, 1}, {1, 0.1}, {-1, 2}, {30, 1}} {
			y, h := c.Mean+tc.z*c.Scale, tc.h*c.Scale
			const panels = 2000
			step := h / panels
			var sum float64
			for k := 0; k <= panels; k++ {
				w := 2.0 + 2*float64(k%2)
				if k == 0 || k == panels {
					w = 1
				}
				sum += w * math.Exp(c.logDensity(&dist, y-h/2+float64(k)*step))
			}
			want := math.Log(sum * step / 3)
			if math.IsInf(want, 0) {
				t.Fatalf("%+v, y %g: the density underflows", c, y)
			}
			if got := cellLogProb(c, y, h); math.Abs(got-want) > 1e-9 {
				t.Errorf("%+v, y %g, h %g: %v, Simpson's rule %v", c, y, h, got, want)
			}
		}
	}
}

// TestScaleCholeskyRowsScalesEveryPrediction checks that scaling the
// Cholesky heads' output layer by r scales row j of every member's
// factor in every prediction by r[j], leaving locations and ν as they
// were, and that scaleRows, applied to the prediction made before,
// gives the same covariances as predicting again. Tolerance 1e-9
// relative: an entry below the diagonal is a sum of products with the
// scaled weights, each rounded on its own, so its error is a few ulps of
// the largest product, which a sum that cancels (or a fused multiply-add
// on arm64) turns into more than a few ulps of the result; exp(z + ln r)
// differs from r·exp(z) by a few ulps of |z|.
func TestScaleCholeskyRowsScalesEveryPrediction(t *testing.T) {
	eachMultiLoss(t, Config{Inputs: 2, Hidden: []int{5, 4}, Targets: 3, Members: 2, Seed: 4}, func(t *testing.T, cfg Config) {
		m := randomMultiModel(t, cfg)
		ws := m.NewWorkspace()
		r := []float64{1.5, 0.7, 2}
		d, nl := cfg.Targets, mvtPackedLen(cfg.Targets)
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
		for _, x := range [][]float64{{0.3, -1}, {2, 0.5}} {
			var before, after MultiPrediction
			if err := m.PredictMulti(ws, x, &before); err != nil {
				t.Fatal(err)
			}
			saved := append([]float64(nil), m.params...)
			scaleCholeskyRows(m.lay, m.params, r)
			err := m.PredictMulti(ws, x, &after)
			copy(m.params, saved)
			if err != nil {
				t.Fatal(err)
			}
			for k := range cfg.Members {
				if !close(before.nu[k], after.nu[k]) && !(math.IsInf(before.nu[k], 1) && math.IsInf(after.nu[k], 1)) {
					t.Errorf("member %d: ν %v became %v", k, before.nu[k], after.nu[k])
				}
				for i := range d {
					if before.loc[k*d+i] != after.loc[k*d+i] {
						t.Errorf("member %d: location %d moved from %v to %v", k, i, before.loc[k*d+i], after.loc[k*d+i])
					}
					for j := range i + 1 {
						c := k*nl + i*(i+1)/2 + j
						if !close(r[i]*before.chol[c], after.chol[c]) {
							t.Errorf("member %d: L[%d][%d] = %v, want %v·%v", k, i, j, after.chol[c], r[i], before.chol[c])
						}
					}
				}
			}
			before.scaleRows(r)
			for i := range d {
				for j := range d {
					if a, b := before.Cov(i, j), after.Cov(i, j); !close(a, b) {
						t.Errorf("Cov(%d, %d): scaleRows %v, predicting again %v", i, j, a, b)
					}
					if a, b := before.CovCorrected(i, j), after.CovCorrected(i, j); !close(a, b) {
						t.Errorf("CovCorrected(%d, %d): scaleRows %v, predicting again %v", i, j, a, b)
					}
				}
			}
		}
	})
}

// determinedAndNoise returns n rows of three features x ∼ U(0, 1)³ and two
// targets: one the features nearly determine, 4x₀ − 3x₁ + 2 sin 3x₂ plus
// N(0, 0.1²), and one of pure noise N(0, 1), the shape of the slump
// data's compressive strength beside its two noisy partners.
func determinedAndNoise(seed uint64, n int) (x, y []float64) {
	r := rand.New(rand.NewPCG(seed, 5))
	x, y = make([]float64, 3*n), make([]float64, 2*n)
	for i := range n {
		a, b, c := r.Float64(), r.Float64(), r.Float64()
		copy(x[3*i:], []float64{a, b, c})
		y[2*i] = 4*a - 3*b + 2*math.Sin(3*c) + 0.1*r.NormFloat64()
		y[2*i+1] = r.NormFloat64()
	}
	return x, y
}

// TestAutoFitMultiMarginalsFitNewRows: AutoFit on 120 rows of a
// determined target beside a noisy one, scored on 4,000 new rows of the
// same truth by each target's mean squared error over its corrected
// variance, which is 1 for a calibrated marginal; it must be within a
// factor 2 of 1 for both. A wide margin: the scales are fitted on 120
// cross-fitted rows (a standard error of about 13% on a variance) and the
// final model is not the folds' models. // regression: the model's
// marginals kept the scales of the joint NLL's epoch, 0.23 (the
// determined target's variance four times too wide) and 2.9 here, as on
// the slump data's inner splits. AutoResult.TargetScales must report the
// factors fitted: below 1 for the determined target, above for the noise.
func TestAutoFitMultiMarginalsFitNewRows(t *testing.T) {
	x, y := determinedAndNoise(1, 120)
	opt := AutoOptions{LearningRates: []float64{3e-3}, Dropouts: []float64{0.2}, Architectures: [][]int{{16}}, MaxEpochs: 300, Seed: 1, Laws: []JointLaw{LawJoint}}
	m, res, err := AutoFit(Config{Inputs: 3, Targets: 2, Members: 3, Seed: 2}, TrainConfig{Seed: 3}, x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	// AutoResult reports the variance factors: the determined target's
	// narrowed, the noisy one's widened, as the regression above says.
	if s := res.TargetScales; len(s) != 2 || !(s[0] < 1 && s[1] > 1) {
		t.Errorf("AutoResult.TargetScales %v: want the determined target's below 1, the noisy one's above", s)
	}
	xt, yt := determinedAndNoise(9, 4000)
	ws := m.NewWorkspace()
	var p MultiPrediction
	var z2 [2]float64
	for i := range 4000 {
		if err := m.PredictMulti(ws, xt[3*i:3*i+3], &p); err != nil {
			t.Fatal(err)
		}
		for j := range 2 {
			e := yt[2*i+j] - p.Mean(j)
			z2[j] += e * e / p.Marginal(j).VarCorrected / 4000
		}
	}
	for j, v := range z2 {
		if math.Abs(math.Log(v)) > math.Ln2 {
			t.Errorf("target %d: mean squared error over the corrected variance %.3f, want within a factor 2 of 1", j, v)
		}
	}
}

// TestCellLogProbFarTail checks the probability of cells far in a tail,
// where it is below the normal doubles or near them, against
// testdata/celltail_ref.csv (testdata/gen_celltail.py: mpmath's
// quadrature of the density at 50 digits), for the Gaussian and for t
// of 5 to 10⁵ degrees of freedom, cells from 0.01 to 10 scales wide and
// 30 to 10⁷⁰ scales out, in both tails. Before, the CDFs' difference
// underflowed there and the log was −Inf. Tolerance 2·10⁻³ on the log:
// where the difference underflows the log is formed from the density
// and its decay rate at the near edge (cellLogProb), whose relative error
// is about 1/e² + 1/ν (below 7·10⁻⁴ at the table's nearest such cell,
// 37.5 scales out); where it does not, the CDFs hold it to 1e-12.
func TestCellLogProbFarTail(t *testing.T) {
	f, err := os.Open("testdata/celltail_ref.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		var v [4]float64
		for i, field := range strings.Split(line, ",") {
			if v[i], err = strconv.ParseFloat(field, 64); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		}
		c := Component{Mean: 0, Scale: 1, DoF: v[0]}
		got := cellLogProb(c, (v[1]+v[2])/2, v[2]-v[1])
		if math.Abs(got-v[3]) > 2e-3 {
			t.Errorf("dof %g, cell (%g, %g): ln P %.10g, mpmath %.10g", v[0], v[1], v[2], got, v[3])
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows < 20 {
		t.Fatalf("%d reference rows, want the table's 26", rows)
	}
}
