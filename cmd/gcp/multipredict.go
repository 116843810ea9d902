package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/synth"
	"github.com/gcpnet/gcp/table"
)

// gcp predict and gcp eval for a model of several targets: the data file
// is read whole, its feature columns picked by name, and each row
// predicted by PredictMulti.

// multiNetwork returns m's network if it has several targets, else nil.
func multiNetwork(m model) *gcp.Model[float64] {
	if n, ok := m.(network); ok && n.Config().Targets > 1 {
		return n.Model
	}
	return nil
}

// multiData are the rows of a data file as a model of several targets
// takes them.
type multiData struct {
	tab   *table.Table
	names []string              // the model's targets
	preds []gcp.MultiPrediction // each row's prediction
	y     []float64             // with targets: row-major, len(names) a row
}

// readMulti reads the data file of a, picks the model's feature columns
// by name, encodes and predicts every row, and with wantTargets reads the
// target columns too: a missing target is an error naming its line and
// column (table.ErrMissing), as in training.
func readMulti(a modelArgs, m *gcp.Model[float64], wantTargets bool) (multiData, error) {
	enc := m.Encoding()
	var text []string
	for _, c := range enc.Columns() {
		if c.Kind == gcp.Categorical {
			text = append(text, c.Name)
		}
	}
	tab, err := a.dialect.readTable(*a.data, text...)
	if err != nil {
		return multiData{}, err
	}
	cols := make([]gcp.TableColumn, len(enc.Columns()))
	for c, col := range enc.Columns() {
		j := slices.Index(tab.Header, col.Name)
		if j < 0 {
			return multiData{}, fmt.Errorf("%s: no column %q, a feature of the model", tab.File, col.Name)
		}
		cols[c] = tab.Columns[j]
	}
	md := multiData{tab: tab, names: strings.Split(enc.Target(), ","), preds: make([]gcp.MultiPrediction, tab.Rows())}
	d := m.Config().Inputs
	x := make([]float64, d)
	ws := m.NewWorkspace()
	for i := range tab.Rows() {
		if _, err := m.EncodeRow(x, cols, i, tab.Dialect.Decimal); err != nil {
			return multiData{}, fmt.Errorf("%s: line %d: %w", tab.File, tab.Line(i), err)
		}
		if err := m.PredictMulti(ws, x, &md.preds[i]); err != nil {
			return multiData{}, fmt.Errorf("%s: line %d: %w", tab.File, tab.Line(i), err)
		}
	}
	if !wantTargets {
		return md, nil
	}
	for _, n := range md.names {
		if _, err := tab.Column(n); err != nil {
			return multiData{}, err
		}
	}
	targets := targetColumns(tab, enc.Target())
	for i := range tab.Rows() {
		for _, k := range targets {
			v, missing, err := tab.Number(i, k)
			if missing {
				err = table.ErrMissing
			}
			if err != nil {
				return multiData{}, tab.FieldError(i, k, err)
			}
			md.y = append(md.y, v)
		}
	}
	return md, nil
}

// predictMulti writes gcp predict's CSV for a model of several targets:
// for each target t, mean:t, each level's loL_cal:t and hiL_cal:t (the
// calibrated marginal), sd_corrected:t, each level's loL_student_t:t and
// hiL_student_t:t (the marginal t), and corr:a:b for each pair of targets.
func predictMulti(a modelArgs, m *gcp.Model[float64], levels []predictLevel, bits int, stdout io.Writer) error {
	md, err := readMulti(a, m, false)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	var head []string
	for _, t := range md.names {
		head = append(head, "mean:"+t)
		for _, l := range levels {
			head = append(head, "lo"+l.label+"_cal:"+t, "hi"+l.label+"_cal:"+t)
		}
		head = append(head, "sd_corrected:"+t)
		for _, l := range levels {
			head = append(head, "lo"+l.label+"_student_t:"+t, "hi"+l.label+"_student_t:"+t)
		}
	}
	for i, s := range md.names {
		for _, t := range md.names[i+1:] {
			head = append(head, "corr:"+s+":"+t)
		}
	}
	fmt.Fprintln(w, strings.Join(head, ","))
	var b []byte
	for _, p := range md.preds {
		b = b[:0]
		field := func(v float64) {
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = appendNumber(b, v, bits)
		}
		for t := range md.names {
			q := p.Marginal(t)
			field(q.Mean)
			for _, l := range levels {
				lo, hi, _ := q.CalibratedInterval(l.p) // levels are in (0, 1)
				field(lo)
				field(hi)
			}
			field(math.Sqrt(q.VarCorrected))
			for _, l := range levels {
				lo, hi, _ := q.Interval(l.p)
				field(lo)
				field(hi)
			}
		}
		for i := range md.names {
			for j := i + 1; j < len(md.names); j++ {
				field(p.Corr(i, j))
			}
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return w.Flush()
}

// energySamples is how many draws of the calibrated predictive the energy
// score averages over per row: its Monte Carlo error is then about 3% of
// the predictive's spread, small beside the score's spread over rows.
const energySamples = 200

// evalMulti prints gcp eval's KEY VALUE lines for a model of several
// targets: N; per target t, RMSE:t, NLL:t (the marginal t), CRPS:t and
// cov95-cal:t (the calibrated marginal interval); and the joint section:
// joint-NLL (the mean negative log density of the multivariate t per row,
// original units), joint-NLL-cal (that of the calibrated predictive, the
// t of RegionNu degrees of freedom and scale RegionScale·CovCorrected),
// joint-cov50-cal, joint-cov90-cal and joint-cov95-cal (the shares of
// rows inside the calibrated joint regions), joint-cov50-conformal,
// joint-cov90-conformal and joint-cov95-conformal (inside the conformal
// ones; NaN for a model without a conformal calibration or a level its
// rows cannot bound), and energy-score, the multivariate CRPS
// E‖X − y‖ − ½E‖X − X′‖ of the calibrated predictive, by Monte Carlo
// from a fixed seed.
func evalMulti(a modelArgs, m *gcp.Model[float64], stdout io.Writer) error {
	md, err := readMulti(a, m, true)
	if err != nil {
		return err
	}
	n, d := len(md.preds), len(md.names)
	if n < 2 {
		return fmt.Errorf("eval: %s: %d rows: want at least 2", md.tab.File, n)
	}
	sq, nll, crps, cov := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	levels := []float64{0.5, 0.9, 0.95}
	joint, conformal := make([]float64, len(levels)), make([]float64, len(levels))
	var jnll, jnllCal, energy float64
	r := rand.New(rand.NewPCG(1, 2))
	for i := range md.preds {
		p, y := &md.preds[i], md.y[i*d:(i+1)*d]
		for t := range d {
			q := p.Marginal(t)
			e := q.Mean - y[t]
			sq[t] += e * e
			nll[t] -= q.LogPDF(y[t])
			crps[t] += q.CRPS(y[t])
			if lo, hi, _ := q.CalibratedInterval(0.95); lo <= y[t] && y[t] <= hi {
				cov[t]++
			}
		}
		jnll -= p.LogPDF(y)
		jnllCal -= p.CalibratedLogPDF(y)
		for k, l := range levels {
			if in, _ := p.CalibratedInside(y, l); in {
				joint[k]++
			}
			// A level the calibration rows cannot bound, or a model
			// without them, leaves its coverage NaN.
			if in, err := p.ConformalInside(y, l); err != nil {
				conformal[k] = math.NaN()
			} else if in {
				conformal[k]++
			}
		}
		energy += energyScore(p, y, r)
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "N %d\n", n)
	for t, name := range md.names {
		fmt.Fprintf(w, "RMSE:%s %.6g\nNLL:%s %.6g\nCRPS:%s %.6g\ncov95-cal:%s %.4f\n",
			name, math.Sqrt(sq[t]/float64(n)), name, nll[t]/float64(n), name, crps[t]/float64(n), name, cov[t]/float64(n))
	}
	fmt.Fprintf(w, "joint-NLL %.6g\njoint-NLL-cal %.6g\n", jnll/float64(n), jnllCal/float64(n))
	for k, l := range levels {
		fmt.Fprintf(w, "joint-cov%g-cal %.4f\n", 100*l, joint[k]/float64(n))
	}
	for k, l := range levels {
		fmt.Fprintf(w, "joint-cov%g-conformal %.4f\n", 100*l, conformal[k]/float64(n))
	}
	fmt.Fprintf(w, "energy-score %.6g\n", energy/float64(n))
	return w.Flush()
}

// energyScore returns the Monte Carlo energy score of y under p's
// calibrated predictive t_ν(mean, s·Σ̃): draws X = mean + L·g·√(ν/W) (L
// the Cholesky factor of s·Σ̃, g standard normal, W χ² of ν degrees of
// freedom; W/ν = 1 for the Gaussian), the mean of ‖X_k − y‖ less half the
// mean distance of consecutive draws, from r.
func energyScore(p *gcp.MultiPrediction, y []float64, r *rand.Rand) float64 {
	d := p.Dim()
	l := make([]float64, d*d)
	for i := range d {
		for j := range i + 1 {
			s := p.RegionScale() * p.CovCorrected(i, j)
			for k := range j {
				s -= l[i*d+k] * l[j*d+k]
			}
			if i == j {
				l[i*d+i] = math.Sqrt(max(s, 0))
			} else if l[j*d+j] > 0 {
				l[i*d+j] = s / l[j*d+j]
			}
		}
	}
	draw := func(x []float64) {
		g := make([]float64, d)
		f := 1.0
		if nu := p.RegionNu(); !math.IsInf(nu, 1) {
			f = math.Sqrt(nu / (2 * synth.Gamma(r, nu/2)))
		}
		for i := range g {
			g[i] = f * r.NormFloat64()
		}
		for i := range d {
			x[i] = p.Mean(i)
			for k := range i + 1 {
				x[i] += l[i*d+k] * g[k]
			}
		}
	}
	dist := func(a, b []float64) float64 {
		var s float64
		for i := range a {
			s += (a[i] - b[i]) * (a[i] - b[i])
		}
		return math.Sqrt(s)
	}
	x, prev := make([]float64, d), make([]float64, d)
	var toY, between float64
	draw(prev)
	for range energySamples {
		draw(x)
		toY += dist(x, y)
		between += dist(x, prev)
		x, prev = prev, x
	}
	return toY/energySamples - between/(2*energySamples)
}
