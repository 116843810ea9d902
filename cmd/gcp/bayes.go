package main

import (
	"context"
	"encoding"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
	"github.com/gcpnet/gcp/internal/atomicfile"
)

// bayesModel is a trained Bayesian comparator of package bayes, as the
// commands use it: predicted through the model interface, saved through
// MarshalBinary.
type bayesModel interface {
	model
	encoding.BinaryMarshaler
}

// bayesHyper is how a Bayesian comparator trains.
type bayesHyper struct {
	epochs int   // PBP's passes over the data; SVGD's minibatch iterations
	hidden []int // hidden units per layer
	seed   uint64
	lr     float64 // SVGD's step size
	batch  int     // SVGD's minibatch
	// standardize is how the comparator standardizes its training rows:
	// bayes.Robust for train and splits, as the networks are;
	// bayes.MeanSD, the paper's, for repro and demo.
	standardize bayes.Standardization
}

// fitBayes trains the comparator m on the row-major x and targets y,
// stopped by ctx.
func fitBayes(ctx context.Context, m method, h bayesHyper, x, y []float64) (bayesModel, error) {
	switch m {
	case pbpMethod:
		p, err := bayes.FitPBPContext(ctx, bayes.PBPConfig{Inputs: len(x) / max(1, len(y)), Hidden: h.hidden, Epochs: h.epochs, Seed: h.seed, Standardization: h.standardize}, x, y)
		if err != nil {
			return nil, fmt.Errorf("training: %w", err)
		}
		return pbpModel{PBP: p}, nil
	case svgdMethod:
		cfg := bayes.SVGDConfig{Inputs: len(x) / max(1, len(y)), Hidden: h.hidden, LearningRate: h.lr, Iterations: h.epochs, BatchSize: h.batch, Seed: h.seed, Standardization: h.standardize}
		s, err := bayes.FitSVGDContext(ctx, cfg, x, y)
		if err != nil {
			return nil, fmt.Errorf("training: %w", err)
		}
		return svgdModel{SVGD: s}, nil
	}
	return nil, fmt.Errorf("-method %s: not a Bayesian comparator", m)
}

// noFeatureInfo gives a comparator of package bayes, which keeps neither
// its features' names nor their ranges, the model interface's answers for
// a model without them: columns are taken by position, each a number
// (gcp.ParseNumber), none missing, and no row is known to lie outside the
// training data.
type noFeatureInfo struct{}

func (noFeatureInfo) columns() ([]string, string)                { return nil, "" }
func (noFeatureInfo) FeatureRanges() (lo, hi []float64, ok bool) { return nil, nil, false }
func (noFeatureInfo) OutsideRange([]float64) (count, first int)  { return 0, 0 }

func (noFeatureInfo) categorical() []string { return nil }

func (noFeatureInfo) encode(x []float64, cols []gcp.TableColumn, i int, decimal byte) (gcp.RecordNotes, error) {
	for j := range cols {
		v, missing, err := cols[j].Number(i, decimal)
		if missing {
			err = errBayesMissing
		}
		if err != nil {
			return gcp.RecordNotes{}, &gcp.FieldError{Index: j, Err: err}
		}
		x[j] = v
	}
	return gcp.RecordNotes{}, nil
}

// errBayesMissing reports a missing value given to a comparator of
// package bayes, which has no encoding to impute it.
var errBayesMissing = errors.New("missing value: the Bayesian comparators (pbp, svgd) take numbers only")

// bayesFloat64 gives a comparator of package bayes, which is float64 and
// has no held-out rows to calibrate on, the model interface's answers for
// its precision and its (missing) conformal calibration.
type bayesFloat64 struct{}

func (bayesFloat64) bits() int { return 64 }

func (bayesFloat64) ConformalInterval(gcp.Prediction, float64) (lo, hi float64, err error) {
	return 0, 0, gcp.ErrNoConformal
}

// pbpModel is a PBP model as a bayesModel.
type pbpModel struct {
	*bayes.PBP
	noFeatureInfo
	bayesFloat64
}

func (p pbpModel) inputs() int { return p.Config().Inputs }

func (p pbpModel) predictor() func(x []float64) (gcp.Prediction, error) {
	ws := p.NewWorkspace()
	return func(x []float64) (gcp.Prediction, error) { return p.Predict(ws, x) }
}

// svgdModel is an SVGD model as a bayesModel.
type svgdModel struct {
	*bayes.SVGD
	noFeatureInfo
	bayesFloat64
}

func (s svgdModel) inputs() int { return s.Config().Inputs }

func (s svgdModel) predictor() func(x []float64) (gcp.Prediction, error) {
	ws := s.NewWorkspace()
	return func(x []float64) (gcp.Prediction, error) { return s.Predict(ws, x) }
}

// trainBayes trains the comparator the flags select on every row and
// saves it to t, stopped by ctx, and says what it did on w.
func trainBayes(ctx context.Context, c *command, rf *recipeFlags, x, y []float64, t atomicfile.Target, w io.Writer) error {
	start := time.Now()
	h := rf.bayesHyper(c)
	m, err := fitBayes(ctx, rf.meth, h, x, y)
	if err != nil {
		return err
	}
	if err := saveModel(ctx, t, m); err != nil {
		return fmt.Errorf("writing the model: %w", err)
	}
	fmt.Fprintf(w, "trained %s on all %d rows: %s (no held-out rows: no early stopping, no calibration)\nwrote %s in %s\n",
		rf.meth, len(y), h, t.Path, time.Since(start).Round(time.Millisecond))
	return nil
}

// String describes h on one line.
func (h bayesHyper) String() string { return fmt.Sprintf("%s, seed %d", h.settings(), h.seed) }

// settings describes h without its seed: a Bayesian comparator's
// training flags, as repro prints them.
func (h bayesHyper) settings() string {
	if h.batch > 0 {
		return fmt.Sprintf("lr %g, %d iterations of batch %d, hidden %s", h.lr, h.epochs, h.batch, joinInts(h.hidden))
	}
	return fmt.Sprintf("%d epochs, hidden %s", h.epochs, joinInts(h.hidden))
}

// svgdAppendixLR is SVGD's learning rate by data set, the only setting
// the paper's appendix chose per data set for a Bayesian comparator
// (Appendix E: "0.001 for Boston, 0.005 for Concrete, 0.005
// for Power, 0.001 for Yacht, 0.005 for Kin8nm").
var svgdAppendixLR = map[string]float64{"boston": 0.001, "concrete": 0.005, "power": 0.005, "yacht": 0.001, "kin8nm": 0.005}

// bayesDefaultHyper is defaultHyper for a comparator of package bayes:
// its package's defaults (PBP's 40 epochs, as the appendix follows
// Hernández-Lobato & Adams; SVGD's 3000 iterations of 100 rows) on one
// hidden layer of 50 units, with the appendix's SVGD learning rate for
// its data sets.
func bayesDefaultHyper(name string, m method) (hyper, bool) {
	h := hyper{hidden: []int{paperHidden}, epochs: bayes.PBPDefaultEpochs}
	if m == pbpMethod {
		return h, appendixHyper[name] != nil
	}
	h.epochs, h.batch, h.lr = bayes.SVGDDefaultIterations, bayes.SVGDDefaultBatchSize, bayes.SVGDDefaultLearningRate
	lr, ok := svgdAppendixLR[name]
	if ok {
		h.lr = lr
	}
	return h, ok
}
