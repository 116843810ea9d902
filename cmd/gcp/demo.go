package main

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/metrics"
	"github.com/gcpnet/gcp/internal/par"
	"github.com/gcpnet/gcp/internal/plot"
	"github.com/gcpnet/gcp/internal/synth"
)

// demoAbout is the help text of gcp demo.
const demoAbout = `Run the paper's two synthetic experiments on generated data, with GCP and
its comparators, each a network of one hidden layer of 100 units, as in
the paper; write the figures as PNG files into the directory -o, and print
how close each method came to the ground truth.

Sec. 6.2: 20 points uniform on [-4,-2] and [2,4], y ~ N(x³, 3²); GCP, ML,
ML_Bayes, DPD, an ensemble of five GCP networks (GCP x5, the paper's
"ensembles of GCPs" of its conclusion) and the Bayesian comparators PBP
and SVGD (package bayes). aleatoric-epistemic.png shows each method's mean
and ±3 sd band; for ML_Bayes, the ensemble, PBP and SVGD the darker band
is the aleatoric sd and the lighter one the total, which adds the
epistemic uncertainty away from the data.

Sec. 6.3: 400 points, x ~ U(-1, 1), y ~ N(sin 3x, (0.5·cos⁴x)²), 5% of
them replaced by outliers from U(-4, 16); GCP, GCP_corr (the corrected
variance), ML, DPD, the ensemble's corrected sd (GCP_corr x5) and the
predictive sd of PBP and SVGD. outliers.png shows the data, the means and the
standard deviations against the truth; rmse-curve.png shows RMSE(n) of
Sec. 6.4, the RMSE left after removing the n points of highest predicted
variance, on 400 clean test points.`

// demoMethod is a curve of the demo: a model's loss and number of
// members, how its standard deviation is read off a prediction, and its
// colour.
type demoMethod struct {
	name  string
	model demoModel
	sd    func(gcp.Prediction) float64
	color color.NRGBA
}

// demoModel is what a demo model is trained as: its method and, for a
// network, its members.
type demoModel struct {
	meth    method
	members int
}

// epistemic reports whether the model has epistemic uncertainty to show:
// ML_Bayes, an ensemble, or a Bayesian comparator.
func (d demoModel) epistemic() bool {
	return d.meth.loss == gcp.LossMLBayes || d.members > 1 || !d.meth.network()
}

// aleatoricSD is the standard deviation of the noise: for ML_Bayes its
// part of the predictive variance, for the other losses all of it (for
// GCP the Student-t variance V_est).
func aleatoricSD(p gcp.Prediction) float64 { return math.Sqrt(p.VarAleatoric) }

// totalSD is the predictive standard deviation, noise and model
// uncertainty together.
func totalSD(p gcp.Prediction) float64 { return math.Sqrt(p.Var) }

// correctedSD is GCP's outlier-corrected standard deviation √Ṽ_est.
func correctedSD(p gcp.Prediction) float64 { return math.Sqrt(p.VarCorrected) }

var (
	gcpModel         = demoModel{method{loss: gcp.LossGCP}, 1}
	gcpEnsembleModel = demoModel{method{loss: gcp.LossGCP}, demoMembers}
	gcpMethod        = demoMethod{"GCP", gcpModel, aleatoricSD, plot.Blue}
	gcpCorrMethod    = demoMethod{"GCP_corr", gcpModel, correctedSD, plot.Green}
	mlMethod         = demoMethod{"ML", demoModel{method{loss: gcp.LossGaussianML}, 1}, aleatoricSD, plot.Orange}
	mlBayesMethod    = demoMethod{"ML_Bayes", demoModel{method{loss: gcp.LossMLBayes}, 1}, aleatoricSD, plot.Purple}
	dpdMethod        = demoMethod{"DPD", demoModel{method{loss: gcp.LossDPD}, 1}, aleatoricSD, plot.Red}
	gcpEnsMethod     = demoMethod{"GCP x5", gcpEnsembleModel, aleatoricSD, plot.Teal}
	gcpEnsCorrMethod = demoMethod{"GCP_corr x5", gcpEnsembleModel, correctedSD, plot.Brown}
	// The Bayesian comparators' sd is the predictive one, noise and
	// weights together: the paper plots it for them with outliers
	// (Fig. 6.2's footnote).
	pbpCubicMethod  = demoMethod{"PBP", demoModel{pbpMethod, 1}, aleatoricSD, plot.Olive}
	pbpSineMethod   = demoMethod{"PBP", demoModel{pbpMethod, 1}, totalSD, plot.Olive}
	svgdCubicMethod = demoMethod{"SVGD", demoModel{svgdMethod, 1}, aleatoricSD, plot.Pink}
	svgdSineMethod  = demoMethod{"SVGD", demoModel{svgdMethod, 1}, totalSD, plot.Pink}
	cubicMethods    = []demoMethod{gcpMethod, mlMethod, mlBayesMethod, dpdMethod, gcpEnsMethod, pbpCubicMethod, svgdCubicMethod}
	sineMethods     = []demoMethod{gcpMethod, gcpCorrMethod, mlMethod, dpdMethod, gcpEnsCorrMethod, pbpSineMethod, svgdSineMethod}
	demoHidden      = []int{100} // Sec. 6.2
	demoMLBayesRate = 0.2        // ML_Bayes's dropout rate, for its MC samples
)

// demoMembers is the ensemble's size, Deep Ensembles' choice.
const demoMembers = 5

// demoSet is one experiment's training data and recipe. The paper gives
// no hyperparameters for its synthetic sets; these fit in seconds.
type demoSet struct {
	x, y   []float32
	epochs int
	batch  int
	lr     float64
	// bayesEpochs, when set by -epochs, is also PBP's epochs and SVGD's
	// iterations; 0 leaves them at the methods' defaults.
	bayesEpochs int
}

// demoFit is one model of the demo, trained on a set; predict returns
// its predictions at the inputs xs.
type demoFit struct {
	set     *demoSet
	kind    demoModel
	predict func(xs []float64) ([]gcp.Prediction, error)
}

// demo runs the paper's synthetic experiments and writes their figures.
func demo(args []string, stdout, stderr io.Writer) error {
	c := newCommand("demo", "demo [-o DIR] [-epochs N] [-seed S]", demoAbout)
	dir := c.fs.String("o", "gcp-demo", "directory to write the figures to; created if missing")
	epochs := c.fs.Int("epochs", 0, "epochs of every fit, and PBP's epochs and SVGD's iterations (default: 2000 for Sec. 6.2, 1500 for Sec. 6.3; PBP 40, SVGD 3000)")
	seed := c.fs.Uint64("seed", 1, "seed of the data, the weights and the shuffling")
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	if *epochs < 0 {
		return fmt.Errorf("demo: -epochs %d: want a positive number, or 0 for the defaults", *epochs)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	cx, cy := synth.Cubic(*seed, 20)
	cubic := &demoSet{x: cx, y: cy, epochs: 2000, batch: 5, lr: 3e-3}
	sx, sy, outlier := synth.SinOutliers(*seed, 400, 0.05, synth.Everywhere)
	sine := &demoSet{x: sx, y: sy, epochs: 1500, batch: 32, lr: 3e-3}
	if *epochs > 0 {
		cubic.epochs, sine.epochs = *epochs, *epochs
		cubic.bayesEpochs, sine.bayesEpochs = *epochs, *epochs
	}
	cubicFits, sineFits := map[demoModel]*demoFit{}, map[demoModel]*demoFit{}
	var jobs []*demoFit
	plan := func(fits map[demoModel]*demoFit, set *demoSet, methods []demoMethod) {
		for _, m := range methods {
			if fits[m.model] == nil { // GCP_corr reads GCP's model
				fits[m.model] = &demoFit{set: set, kind: m.model}
				jobs = append(jobs, fits[m.model])
			}
		}
	}
	plan(cubicFits, cubic, cubicMethods)
	plan(sineFits, sine, sineMethods)
	err := par.Do(len(jobs), runtime.GOMAXPROCS(0), func(i int, _ func() bool) error {
		return jobs[i].train(*seed)
	})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stdout, "Sec. 6.2: 20 points on [-4,-2] and [2,4], y ~ N(x³, 3²); %d epochs.\n", cubic.epochs)
	if err := cubicFigure(stdout, *dir, cubic, cubicFits); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nSec. 6.3: 400 points, y ~ N(sin 3x, (0.5·cos⁴x)²), %d outliers from U(-4, 16); %d epochs.\n", count(outlier), sine.epochs)
	if err := sineFigures(stdout, *dir, *seed, sine, outlier, sineFits); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nFigures: %s\n", strings.Join([]string{
		filepath.Join(*dir, "aleatoric-epistemic.png"), filepath.Join(*dir, "outliers.png"), filepath.Join(*dir, "rmse-curve.png")}, ", "))
	return nil
}

// writeDemoPNG writes img to the file name in dir, never over a file that
// is not a PNG (plot.WritePNG).
func writeDemoPNG(dir, name string, img image.Image) error {
	return plot.WritePNG(context.Background(), atomicfile.Target{Path: filepath.Join(dir, name)}, img)
}

// train fits the model of f: one hidden layer of 100 units per member,
// and for ML_Bayes dropout for its MC samples. A Bayesian comparator
// trains by its own rule, for its default length.
func (f *demoFit) train(seed uint64) error {
	if !f.kind.meth.network() {
		h, _ := defaultHyper("", f.kind.meth)
		h.epochs = cmp.Or(f.set.bayesEpochs, h.epochs)
		m, err := fitBayes(context.Background(), f.kind.meth, bayesHyper{epochs: h.epochs, hidden: demoHidden, seed: seed, lr: h.lr, batch: h.batch, standardize: bayes.MeanSD}, convert[float64](f.set.x), convert[float64](f.set.y))
		if err != nil {
			return fmt.Errorf("%s: %w", f.kind.meth, err)
		}
		f.predict = func(xs []float64) ([]gcp.Prediction, error) {
			preds, _, err := predictRowsOf(m, xs)
			return preds, err
		}
		return nil
	}
	cfg := gcp.Config{Inputs: 1, Hidden: demoHidden, Seed: seed, Loss: f.kind.meth.loss, Members: f.kind.members}
	if cfg.Loss == gcp.LossMLBayes {
		cfg.Dropout = demoMLBayesRate
	}
	m, err := gcp.New[float32](cfg)
	if err != nil {
		return err
	}
	tr, err := gcp.NewTrainer(m, gcp.TrainConfig{LearningRate: f.set.lr, BatchSize: f.set.batch, Seed: seed})
	if err != nil {
		return err
	}
	if _, err := tr.Fit(f.set.x, f.set.y, gcp.FitOptions[float32]{Epochs: f.set.epochs, Seed: seed}); err != nil {
		return fmt.Errorf("%v, %d members: %w", cfg.Loss, f.kind.members, trainingError(err))
	}
	f.predict = func(xs []float64) ([]gcp.Prediction, error) {
		preds := make([]gcp.Prediction, len(xs))
		return preds, m.PredictBatch(m.NewWorkspace(), convert[float32](xs), preds)
	}
	return nil
}

// linspace returns n points evenly spaced from lo to hi.
func linspace(lo, hi float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return v
}

// count returns how many of b are true.
func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// curves holds a method's predicted mean and standard deviation on a
// grid.
type curves struct {
	mean, sd []float64
}

// curvesOf reads the mean and the standard deviation sd off preds.
func curvesOf(preds []gcp.Prediction, sd func(gcp.Prediction) float64) curves {
	c := curves{mean: make([]float64, len(preds)), sd: make([]float64, len(preds))}
	for i, p := range preds {
		c.mean[i], c.sd[i] = p.Mean, sd(p)
	}
	return c
}

// band returns mean ∓ k·sd.
func band(mean, sd []float64, k float64) (lo, hi []float64) {
	lo, hi = make([]float64, len(mean)), make([]float64, len(mean))
	for i := range mean {
		lo[i], hi[i] = mean[i]-k*sd[i], mean[i]+k*sd[i]
	}
	return lo, hi
}

// errorsAgainst returns the RMSE of c.mean against truthMean and the mean
// absolute error of c.sd against truthSD over the grid points where keep
// holds.
func errorsAgainst(xs []float64, c curves, truthMean, truthSD func(float64) float64, keep func(float64) bool) (rmse, mae float64) {
	n := 0
	for i, x := range xs {
		if !keep(x) {
			continue
		}
		d := c.mean[i] - truthMean(x)
		rmse += d * d
		mae += math.Abs(c.sd[i] - truthSD(x))
		n++
	}
	return math.Sqrt(rmse / float64(n)), mae / float64(n)
}

// cubicFigure draws Fig. 6.1, one
// panel per method, and prints each method's errors on the data's range.
func cubicFigure(w io.Writer, dir string, set *demoSet, fits map[demoModel]*demoFit) error {
	xs := linspace(-6, 6, 241)
	truth := make([]float64, len(xs))
	for i, x := range xs {
		truth[i] = synth.CubicMean(x)
	}
	inData := func(x float64) bool { return math.Abs(x) >= 2 && math.Abs(x) <= 4 }
	cubicSD := func(float64) float64 { return synth.CubicSD }
	fmt.Fprintf(w, "%-11s %10s %10s %14s   (against the truth on [-4,-2] and [2,4]; sd: the aleatoric one;\n", "method", "RMSE mean", "MAE sd", "epistemic sd")
	fmt.Fprintf(w, "%-11s %10s %10s %14s    epistemic sd at x = -6, 0 and 6 over its mean at the training inputs)\n", "", "", "", "-6 / 0 / 6")
	var panels []*plot.Plot
	for _, m := range cubicMethods {
		predict := fits[m.model].predict
		preds, err := predict(xs)
		if err != nil {
			return err
		}
		c := curvesOf(preds, m.sd)
		rmse, mae := errorsAgainst(xs, c, synth.CubicMean, cubicSD, inData)
		ratios := "—"
		if m.model.epistemic() {
			if ratios, err = epistemicRatios(predict, set.x); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "%-11s %10.3g %10.3g %14s\n", m.name, rmse, mae, ratios)
		p := &plot.Plot{Title: m.name, XLabel: "x", YLabel: "y", X: plot.Range{Min: -6, Max: 6}, Y: plot.Range{Min: -300, Max: 300}}
		if m.model.epistemic() {
			total := curvesOf(preds, totalSD)
			lo, hi := band(total.mean, total.sd, 3)
			p.Band("±3 sd total", xs, lo, hi, plot.Fade(m.color, 60))
			lo, hi = band(c.mean, c.sd, 3)
			p.Band("±3 sd aleatoric", xs, lo, hi, plot.Fade(m.color, 120))
		} else {
			lo, hi := band(c.mean, c.sd, 3)
			p.Band("±3 sd", xs, lo, hi, plot.Fade(m.color, 70))
		}
		p.Line("truth x^3", xs, truth, plot.Style{Color: plot.Black, Width: 2})
		p.Line("mean", xs, c.mean, plot.Style{Color: m.color, Width: 2, Dash: 8})
		p.Points("data", convert[float64](set.x), convert[float64](set.y), plot.Style{Color: plot.Black, Radius: 3})
		panels = append(panels, p)
	}
	return writeDemoPNG(dir, "aleatoric-epistemic.png", plot.Grid(2, 480, 360, panels...))
}

// epistemicRatios returns the model's epistemic sd at x = −6, 0 and 6,
// each over its mean at the training inputs x, formatted: the issue's
// check that the epistemic band widens in the gap and beyond the data.
func epistemicRatios(predict func([]float64) ([]gcp.Prediction, error), x []float32) (string, error) {
	train, err := predict(convert[float64](x))
	if err != nil {
		return "", err
	}
	var mean float64
	for _, p := range train {
		mean += math.Sqrt(p.VarEpistemic) / float64(len(train))
	}
	at, err := predict([]float64{-6, 0, 6})
	if err != nil {
		return "", err
	}
	r := make([]string, len(at))
	for i, p := range at {
		r[i] = fmt.Sprintf("%.3g", math.Sqrt(p.VarEpistemic)/mean)
	}
	return strings.Join(r, " / "), nil
}

// sineFigures draws Fig. 6.2 (the data, the
// means and the standard deviations against the truth) and the RMSE(n)
// curves on clean test data, and prints each method's errors and AUC.
func sineFigures(w io.Writer, dir string, seed uint64, set *demoSet, outlier []bool, fits map[demoModel]*demoFit) error {
	xs := linspace(-1, 1, 201)
	truthMean, truthSD := make([]float64, len(xs)), make([]float64, len(xs))
	for i, x := range xs {
		truthMean[i], truthSD[i] = synth.SinMean(x), synth.SinSD(x)
	}
	// A clean test set from the next seed, for RMSE(n).
	tx32, ty32, _ := synth.SinOutliers(seed+1, 400, 0, synth.Everywhere)
	tx, ty := convert[float64](tx32), convert[float64](ty32)

	data := &plot.Plot{Title: "data", XLabel: "x", YLabel: "y"}
	var cx, cy, ox, oy []float64
	for i, o := range outlier {
		if o {
			ox, oy = append(ox, float64(set.x[i])), append(oy, float64(set.y[i]))
		} else {
			cx, cy = append(cx, float64(set.x[i])), append(cy, float64(set.y[i]))
		}
	}
	data.Points("samples", cx, cy, plot.Style{Color: plot.Black, Radius: 1})
	data.Points("outliers", ox, oy, plot.Style{Color: plot.Red, Radius: 3})
	means := &plot.Plot{Title: "mean", XLabel: "x", YLabel: "mean", Y: plot.Range{Min: -1.5, Max: 2}}
	means.Line("truth sin 3x", xs, truthMean, plot.Style{Color: plot.Black, Width: 2})
	sds := &plot.Plot{Title: "standard deviation", XLabel: "x", YLabel: "sd", Y: plot.Range{Min: 0, Max: 3.5}} // PBP and SVGD near 2.5–3
	sds.Line("truth 0.5cos^4 x", xs, truthSD, plot.Style{Color: plot.Black, Width: 2})
	curve := &plot.Plot{Title: "RMSE(n) on 400 clean test points", XLabel: "n, the points of highest variance removed", YLabel: "RMSE(n)", Legend: plot.TopRight}

	fmt.Fprintf(w, "%-11s %10s %10s %10s   (mean and sd against the truth on [-1,1]; AUC on the test points)\n", "method", "RMSE mean", "MAE sd", "AUC")
	for _, m := range sineMethods {
		predict := fits[m.model].predict
		preds, err := predict(xs)
		if err != nil {
			return err
		}
		c := curvesOf(preds, m.sd)
		rmse, mae := errorsAgainst(xs, c, synth.SinMean, synth.SinSD, func(float64) bool { return true })
		test, err := predict(tx)
		if err != nil {
			return err
		}
		tc := curvesOf(test, m.sd)
		variance := make([]float64, len(test))
		for i, sd := range tc.sd {
			variance[i] = sd * sd
		}
		rc, err := metrics.RMSECurve(tc.mean, ty, variance)
		if err != nil {
			return err
		}
		auc, err := metrics.AUC(tc.mean, ty, variance)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-11s %10.3g %10.3g %10.3g\n", m.name, rmse, mae, auc)
		if m.name != gcpCorrMethod.name { // GCP_corr has GCP's mean
			means.Line(m.name, xs, c.mean, plot.Style{Color: m.color, Width: 2})
		}
		sds.Line(m.name, xs, c.sd, plot.Style{Color: m.color, Width: 2})
		curve.Line(m.name, linspace(0, float64(len(rc)-1), len(rc)), rc, plot.Style{Color: m.color, Width: 2})
	}
	if err := writeDemoPNG(dir, "outliers.png", plot.Grid(3, 480, 360, data, means, sds)); err != nil {
		return err
	}
	return writeDemoPNG(dir, "rmse-curve.png", plot.Grid(1, 640, 420, curve))
}
