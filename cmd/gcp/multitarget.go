package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// Several targets (train -target a,b,c): the table's target columns, the
// rows' target matrix, and the model's record of its targets' names.

// errMultiTarget reports an option that does not apply to a model of
// several targets.
var errMultiTarget = errors.New("does not apply to several targets")

// multiTargets returns the names of -target's comma-separated list of
// several targets, or nil for one name (or none), which trains one
// target as before.
func multiTargets(flag string) []string {
	if !strings.Contains(flag, ",") {
		return nil
	}
	names := strings.Split(flag, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
	}
	return names
}

// prepareMultiTraining learns the encoding of tab's feature columns, all
// but the target columns names, from the rows rows (every row if nil), as
// prepareTraining does for one target, and builds their targets,
// row-major, len(names) a row; no other row is read. A missing or non-numeric target cell is an
// error naming its line and column (wrapping table.ErrMissing or the
// parser's error): the model takes only complete rows, and leaving rows
// out silently would bias it. The encoding records the targets' names
// joined by commas, as its target, so that the saved model knows them.
func prepareMultiTraining(tab *table.Table, names []string, rows []int) (trainingData, error) {
	cols := make([]int, len(names))
	for t, n := range names {
		k, err := tab.Column(n)
		if err != nil || n == "" {
			return trainingData{}, fmt.Errorf("-target %s: %w", strings.Join(names, ","), cmpErr(err, "an empty name"))
		}
		if slices.Contains(cols[:t], k) {
			return trainingData{}, fmt.Errorf("-target %s: %q named twice", strings.Join(names, ","), n)
		}
		cols[t] = k
	}
	read := rows
	if read == nil {
		read = allRows(tab.Rows())
	}
	for _, i := range read {
		for _, k := range cols {
			_, missing, err := tab.Number(i, k)
			if missing {
				err = fmt.Errorf("%w: a model of several targets needs every target of every row", table.ErrMissing)
			}
			if err != nil {
				return trainingData{}, tab.FieldError(i, k, err)
			}
		}
	}
	// The table without the other targets, the first one's column named
	// by all: its encoding's features are the rest.
	sub := *tab
	sub.Header, sub.Columns, sub.Missing = nil, nil, nil
	for j := range tab.Header {
		if j != cols[0] && slices.Contains(cols, j) {
			continue
		}
		h := tab.Header[j]
		if j == cols[0] {
			h = strings.Join(names, ",")
		}
		sub.Header, sub.Columns = append(sub.Header, h), append(sub.Columns, tab.Columns[j])
		if tab.Missing != nil {
			sub.Missing = append(sub.Missing, tab.Missing[j])
		}
	}
	enc, er, err := sub.LearnEncoding(strings.Join(names, ","), rows)
	if err != nil {
		return trainingData{}, err
	}
	y := make([]float64, 0, len(er.Rows)*len(cols))
	for _, i := range er.Rows {
		for _, k := range cols {
			v, _, _ := tab.Number(i, k) // checked above
			y = append(y, v)
		}
	}
	return trainingData{tab: tab, enc: enc, x: er.X, y: y, rows: er.Rows, targets: names}, nil
}

// cmpErr returns err, or an error saying what when err is nil.
func cmpErr(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New(what)
}

// checkMulti returns an error for flags that do not apply to a model of
// several targets: a method other than gcp and ml (ml trains the
// full-covariance Gaussian network, the comparator that shows what the
// multivariate t's heavy tails and correction buy), -validation 0 (the targets
// are trained by the automatic recipe only), and -fixed-alpha.
// -target-transform applies target by target: auto logs each positive
// target of skewness above 1 where its held-out scores favour it, log
// each such target without comparing, none none.
func (f *recipeFlags) checkMulti(c *command) error {
	switch {
	case f.meth.loss != gcp.LossGCP && f.meth.loss != gcp.LossGaussianML || !f.meth.network():
		return fmt.Errorf("-method %s: %w (gcp or ml only)", f.meth, errMultiTarget)
	case *f.validation == 0:
		return fmt.Errorf("-validation 0: %w: they train by the automatic recipe", errMultiTarget)

	case c.set("fixed-alpha"), c.set("scale-weighting"):
		return fmt.Errorf("-fixed-alpha and -scale-weighting: %w", errMultiTarget)
	}
	return nil
}

// lawFlags are -law's values.
var lawFlags = []string{"auto", "joint", "copula"}

// flagLaws returns the joint laws AutoFit compares for -law flag: nil,
// its default, for auto.
func flagLaws(flag string) []gcp.JointLaw {
	switch flag {
	case "joint":
		return []gcp.JointLaw{gcp.LawJoint}
	case "copula":
		return []gcp.JointLaw{gcp.LawCopula}
	}
	return nil
}

// checkOne returns an error for flags that apply to several targets
// only: -law.
func (f *recipeFlags) checkOne(c *command) error {
	if c.set("law") {
		return errors.New("-law applies to several targets (-target a,b,...) only")
	}
	return nil
}

// describeTargetTransforms says, target by target, which transform a
// model of several targets has and why (AutoResult.Transforms), and the
// two searches' joint held-out NLLs where the recipe compared them; flag
// is -target-transform.
func describeTargetTransforms(res gcp.AutoResult, names []string, flag string) string {
	parts := make([]string, len(res.Transforms))
	for j, c := range res.Transforms {
		var why string
		switch {
		case c.Compared:
			verdict := "lower"
			if c.Transform == gcp.TransformNone {
				verdict = "the log not kept: this NLL not lower or the RMSE higher by a standard error or twice, or the joint NLL higher"
			}
			why = fmt.Sprintf("skewness %.3g, %.3g after the log; held-out NLL %.4g logged against %.4g, %s; RMSE %.4g against %.4g",
				c.Skew, c.LogSkew, c.CVNLL[gcp.TransformLog], c.CVNLL[gcp.TransformNone], verdict, c.CVRMSE[gcp.TransformLog], c.CVRMSE[gcp.TransformNone])
		case flag != "auto":
			why = "-target-transform " + flag
		case !c.Positive:
			why = "not positive"
		case c.Skew < 1:
			why = fmt.Sprintf("skewness %.3g, below 1", c.Skew)
		default:
			why = fmt.Sprintf("skewness %.3g, %.3g after the log: no more symmetric", c.Skew, c.LogSkew)
		}
		parts[j] = fmt.Sprintf("%s %s (%s)", names[j], c.Transform, why)
	}
	s := fmt.Sprintf("(-target-transform %s): %s", flag, strings.Join(parts, "; "))
	if res.Transform.Compared {
		s += fmt.Sprintf("; joint held-out NLL %.4g with the skewed targets logged, %.4g without", res.Transform.CVNLL[gcp.TransformLog], res.Transform.CVNLL[gcp.TransformNone])
	}
	if res.Transform.Transform == gcp.TransformLog {
		s += "; a logged target's mean is the log-normal mean of the calibrated predictive"
	}
	return s
}
