package main

import (
	"context"
	"fmt"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
	"github.com/gcpnet/gcp/internal/paper"
	"github.com/gcpnet/gcp/internal/par"
)

// The protocol of the paper's Sec. 6.4 and Sec. 6.5, one fold at a time:
// the folds, their outliers and their standardization are those of
// package paper; this file trains and predicts them.

// minTest is the smallest test split: the AUC needs two points.
const minTest = 2

// matrix is a data set in memory: len(y) rows of d features, row-major in
// x.
type matrix struct {
	x, y []float64
	d    int
}

// fold is one train/test split of the protocol (paper.NewFold).
type fold struct{ paper.Fold }

// newFold draws fold f of t from seed, with an outlier share p, as
// paper.NewFold does.
func newFold(t matrix, seed uint64, f int, p float64) fold {
	return fold{paper.NewFold(t.x, t.y, t.d, seed, f, p)}
}

// train trains a float32 model of the given loss by h on the fold's
// training split, standardized by fd.Standardization. After every epoch
// it calls epoch, which returns false to stop: train then returns
// par.ErrStopped.
func (fd fold) train(d int, loss gcp.Loss, h hyper, epoch func() bool) (*gcp.Model[float32], error) {
	model, err := gcp.New[float32](gcp.Config{Inputs: d, Hidden: h.hidden, Dropout: h.dropout, Seed: fd.ModelSeed, Loss: loss, Members: h.members})
	if err != nil {
		return nil, err
	}
	if err := model.SetStandardization(fd.Standardization(d)); err != nil {
		return nil, err
	}
	tr, err := gcp.NewTrainer(model, gcp.TrainConfig{Optimizer: h.optimizer, Rho: h.rho, LearningRate: h.lr, BatchSize: h.batch, Seed: fd.TrainSeed})
	if err != nil {
		return nil, err
	}
	stopped := false
	progress := func(gcp.EpochStats) bool {
		stopped = !epoch()
		return !stopped
	}
	if _, err := tr.Fit(convert[float32](fd.TrainX), convert[float32](fd.TrainY),
		gcp.FitOptions[float32]{Epochs: h.epochs, Seed: fd.FitSeed, Progress: progress}); err != nil {
		return nil, trainingError(err)
	}
	if stopped {
		return nil, par.ErrStopped
	}
	return model, nil
}

// network trains a model as train does and returns its predictions of
// the test split, in original units.
func (fd fold) network(d int, loss gcp.Loss, h hyper, epoch func() bool) ([]gcp.Prediction, error) {
	model, err := fd.train(d, loss, h, epoch)
	if err != nil {
		return nil, err
	}
	preds := make([]gcp.Prediction, len(fd.TestY))
	if err := model.PredictBatch(model.NewWorkspace(), convert[float32](fd.TestX), preds); err != nil {
		return nil, fmt.Errorf("predicting the test split: %w", err)
	}
	return preds, nil
}

// bayes trains the Bayesian comparator m by h on the fold's training
// split (which it standardizes itself by the mean and standard deviation,
// bayes.MeanSD, as fd.Standardization does) and
// returns its predictions of the test split, stopped by ctx. It counts
// h.epochs epochs when done; epoch returning false then gives
// par.ErrStopped.
func (fd fold) bayes(ctx context.Context, m method, h hyper, epoch func() bool) ([]gcp.Prediction, error) {
	model, err := fitBayes(ctx, m, bayesHyper{epochs: h.epochs, hidden: h.hidden, seed: fd.ModelSeed, lr: h.lr, batch: h.batch, standardize: bayes.MeanSD}, fd.TrainX, fd.TrainY)
	if err != nil {
		return nil, err
	}
	for range h.epochs {
		if !epoch() {
			return nil, par.ErrStopped
		}
	}
	preds, _, err := predictRowsOf(model, fd.TestX)
	if err != nil {
		return nil, fmt.Errorf("predicting the test split: %w", err)
	}
	return preds, nil
}
