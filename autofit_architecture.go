package gcp

import (
	"math"
	"slices"

	"github.com/gcpnet/gcp/internal/onese"
)

// The architecture stage of AutoFit. A deeper head can fit a mean that a
// single hidden layer cannot (on one data set, two layers of 50 units cut
// the RMSE from 1.98 to 0.58), but costs several times as much to train:
// a second layer of 50 units per head is 50×50 weights for each of the
// four heads, against the D×50 of the first, six times the work of one
// layer for 8 features. Searched as a full dimension of the grid, it
// would multiply the search's cost; instead, the grid is searched with
// the first (cheapest) architecture, and each further one trains once,
// to early stopping, with the winner's learning rate, dropout and scale
// weighting. On the public data sets, where it does not help (inner
// hold-outs: Yacht +0.19 nats, Boston and Concrete +0.01), the deeper
// network is kept only when its held-out NLL beats the winner's by more
// than one standard error of their difference over the held-out rows:
// the one-standard-error rule of model selection (Breiman et al.,
// "Classification and Regression Trees", 1984), which keeps the simpler
// model unless the data clearly favour the other, so that noise on a
// few dozen held-out rows does not pick a model that costs six times as
// much to train and calibrate.

// architectures trains, for every architecture after the first in
// AutoOptions.Architectures, one candidate with win's other settings, in
// parallel, and returns the candidate to keep: the one of lowest held-out
// NLL among win and those, unless an earlier architecture's is within
// one standard error of it (onese.Pick). It returns an error only for a
// done context.
func (s *search[T]) architectures(win *candidate[T]) (*candidate[T], error) {
	archs := s.opt.Architectures[1:]
	if len(archs) == 0 {
		return win, nil
	}
	cands := []*candidate[T]{win}
	for _, hidden := range archs {
		h := win.hyper
		h.hidden = hidden
		cands = append(cands, &candidate[T]{hyper: h})
	}
	s.train(cands[1:], s.maxEpochs)
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	if s.opt.Progress != nil {
		best := math.Inf(1)
		for _, c := range cands {
			best = min(best, c.score())
		}
		n := s.searchRounds()
		s.opt.Progress(AutoRound{Phase: PhaseSearch, Done: n, Total: n, Round: n, Epochs: s.maxEpochs, Candidates: len(archs), BestValNLL: best})
	}
	nlls := make([][]float64, len(cands))
	for i, c := range cands {
		nlls[i] = s.rowNLLs(c)
	}
	return cands[onese.Pick(nlls)], nil
}

// rowNLLs returns the negative log predictive density of each held-out
// row under c's best epoch, or nil if c failed or never scored. It leaves
// c's run as it was.
func (s *search[T]) rowNLLs(c *candidate[T]) []float64 {
	if math.IsInf(c.score(), 1) {
		return nil
	}
	m := c.run.t.m
	kept := slices.Clone(m.params)
	defer copy(m.params, kept)
	copy(m.params, c.run.best)
	preds, err := m.predictSet(s.valRows)
	if err != nil {
		return nil
	}
	out := make([]float64, len(preds))
	for i, p := range preds {
		out[i] = -p.LogPDF(float64(s.valRows.y[s.valRows.row(i)]))
	}
	return out
}
