package gcp

import (
	"context"
	"fmt"
)

// AutoFit trains a model of shape cfg on the row-major inputs x and
// targets y without hand-tuned hyperparameters, the recipe gcp train uses
// by default:
//
//  1. It holds out a share of the rows (AutoOptions.ValidationShare) and
//     learns the standardization from the rest. Targets on a lattice
//     (integer scores, cents) are dequantized in every step (uniform
//     noise of the lattice's spacing added to the targets), and every run
//     averages its parameters over the last epoch, scoring and keeping
//     the average.
//  2. Every combination of learning rate, dropout rate and scale
//     weighting (TrainConfig.ScaleWeighting) in the grid trains a single
//     network of the first architecture with early stopping on the
//     held-out rows' NLL. Successive halving prunes the grid: all
//     candidates train for a ninth of the epoch budget, the best third
//     go on to a third of it, and the best third of those to all of it,
//     each keeping the parameters of its best epoch. Candidates run in
//     parallel on Workers goroutines. Each further architecture (a
//     second hidden layer by default) then trains with the winner's
//     settings, and replaces it only if its held-out NLL, or its
//     squared error without a worse NLL, is lower by more than one
//     standard error. It stops early once its best held-out NLL has not
//     improved for a tenth of the patience and is more than 0.1 nats
//     above the winner's best after the same epoch: clearly behind (for
//     one target; a joint NLL of several is not held to the winner's).
//  3. The winner is kept as it is, not refit on all rows: its
//     early-stopping epoch was measured on rows it never trained on,
//     which a refit would lose. For an ensemble (cfg.Members > 1, and
//     AutoMembers when 0) the search still runs single networks, and the
//     winner's settings then train the ensemble, with early stopping on
//     the held-out rows' NLL of its mixture: as Deep Ensembles do, the
//     members share the hyperparameters of a good single network, and
//     the search costs no more than for one. The ensemble's mean heads
//     are kept from the epoch of its lowest held-out squared error at or
//     after the best NLL's, within the patience window early stopping
//     trains anyway (AutoResult.MeanEpoch): the NLL stops improving once
//     the variance heads fit the training rows' residuals, while the
//     separate mean heads often go on learning. The calibration folds
//     keep their heads from the same two epochs. Where the ensemble of
//     the winner's settings diverges (ErrDiverged: five networks of
//     other initial weights need not survive what the search's one did),
//     the ensemble of the search's next best settings trains instead, in
//     turn, and then the winner's at a third, a ninth and a
//     twenty-seventh of its learning rate (AutoResult.Diverged).
//  4. Its variance is calibrated (Model.Calibrate's two factors) on rows
//     that neither trained nor chose it: for data of fewer than 5000
//     rows, cross-fitted predictions (five models of the chosen settings,
//     epoch count and members each train on four fifths of all the rows
//     and predict the fifth); for larger data, a half of the held-out
//     rows that the search never saw (from 500 held-out rows on). The held-out
//     rows that chose the winner would give an optimistic calibration.
//     The same predictions give AutoResult's CVNLL and CVCoverage95,
//     honest estimates of what new data will see, and the model's
//     conformal calibration (Model.ConformalInterval). Under 100 rows,
//     too few for that calibration to be trusted as it stands, the
//     variance is widened for its uncertainty (AutoResult.SmallData).
//  5. With more than one target transform (AutoOptions.TargetTransforms:
//     by default, for positive and highly skewed targets, the log besides
//     none), steps 1 and 2 run once for each, on the same rows and seeds,
//     all at once on the shared Workers (one transform's search keeps
//     busy the cores another's leaves idle where it narrows), and each
//     winner, a single network, is cross-fitted as step 4 cross-fits a
//     single network (five folds of its settings and epoch
//     count) and calibrated on those predictions. A later transform
//     replaces the one kept so far only if, on those rows, its NLL in
//     original units is lower by more than one standard error of the
//     paired differences and its squared error is not higher by as much:
//     stricter than the architecture stage's rule, since the log weighs
//     small targets' relative errors as large ones' and can win on NLL
//     with a worse mean. Steps 3 and 4 then run for the kept transform
//     alone (for a single network, its folds are those the comparison
//     trained): they are most of the recipe's work on small data, where
//     the ensemble's calibration trains five ensembles.
//
// With several targets (cfg.Targets = d ≥ 2), y is row-major, d values a
// row, and steps 1 to 4 run as above, every choice made on the held-out
// rows' joint negative log density of the multivariate t (Fit's
// validation score for several targets), each target standardized on its
// own and its mean trained on its own marginal t (Config.Targets). Step
// 5 runs target by target: each target is screened on its own
// (positive, of skewness at least 1, more symmetric after the log), the
// screened targets logged together and none are searched side by side,
// and each winner is cross-fitted and scored in original units (the
// calibrated region's joint NLL with the Jacobian, each target's
// marginal NLL and squared error). A screened target keeps the log where
// its own scores pass step 5's rule; the whole screened set only where
// its joint NLL and no logged target's squared error is clearly worse
// than none's, and a part of it trains with the log search winner's
// settings (AutoResult.Transforms says which and why;
// Model.TargetTransforms holds them). TargetTransforms {TransformNone}
// logs nothing, {TransformLog} every screened target without comparing.
// Each target on a lattice is
// dequantized on its own, by noise of its own spacing (AutoResult.Quanta),
// and the others are left as they are; the ensemble keeps its mean heads
// from the epoch of the lowest sum over targets of the log of each one's
// held-out mean squared error (so that every target's relative precision
// counts alike, not the noisiest targets' squared errors), at or after
// the best joint NLL's, and its early stopping waits for either to stop
// improving; a NaN or ±Inf target cell (a missing one) is refused with
// ErrNonFinite naming its row and target. Step 4 first fits each
// target's variance to its own marginal on the calibrating rows, as one
// target's variance factor is fitted, into the model's Cholesky heads
// (AutoResult.TargetScales; a target on a lattice by the probability of
// its values' lattice cells), then calibrates the joint region instead
// of the variance:
// the calibrated predictive is the
// multivariate t of ν degrees of freedom, location the mean and scale
// s·Σ̃ (MultiPrediction.RegionNu, RegionScale, CovCorrected), s and ν
// fitted by maximum likelihood to the cross-fitted rows' squared
// Mahalanobis distances under Σ̃ (dequantized where the targets are), so
// that its regions hold their share at 50% as at 95% where the
// residuals are heavier-tailed than a Gaussian's; ν = +Inf is the
// Gaussian. The same distances give the conformal joint region
// (MultiPrediction.ConformalInside), and below trustedRows rows s is
// widened as one target's variance is (AutoResult.SmallData).
// AutoResult.CorrectedScale reports s and RegionNu ν, VarScale is 1,
// CVNLL is the cross-fitted joint NLL, and CVCoverage95 the share of
// rows inside the calibrated 95% region under a region fitted without
// them.
//
// With several targets and LossGCP the recipe fits, beside that joint
// network, a second law (AutoOptions.Laws; docs/multivariate.md, Sec. 12):
// the one-target recipe runs for each target on its own column, all side
// by side, each exactly AutoFit of that column alone with the same
// options and seeds, and the one-target models are joined by a Gaussian
// copula of correlation R. All the recipes hold out the same rows and
// calibrate on the same cross-fitted rows (or calibration half), and on
// those the targets' normal scores u_j = Φ⁻¹(F_j(y_j)) under their
// one-target predictives (the Student t or the ensemble's mixture, its
// variance factor fitted on those rows) give R: their correlation, shrunk
// towards I by a λ chosen by five-fold cross-validation of the copula's
// likelihood. The copula's cross-fitted joint NLL is its marginals'
// NLLs less the copula's gain G, the mean log density of the copula at
// a row's scores, estimated by nested cross-validation; the law of the
// lower joint NLL on those rows is kept, except that the joint network
// is kept only where no target's RMSE on them is more than 5% above its
// one-target model's, the copula's means (AutoResult.Law says which,
// with both laws' figures; AutoResult.Margins holds each marginal's
// AutoResult where the copula is kept). The copula's calibrated and conformal joint
// regions are fitted, as the joint t's are, to the rows' distances
// ũᵀR⁻¹ũ under the calibrated marginals' scores ũ. The result stays
// bit-identical for the seeds whatever Workers is.
//
// AutoFit takes numbers. A table with text columns, dates or missing
// values reaches it through an Encoding, as gcp train's does:
// LearnEncoding (rows of text fields) or LearnEncodingColumns (parsed
// columns) learns the encoding from the training rows and returns it with
// the encoded rows, whose X and Y (as T) AutoFit trains on, with
// cfg.Inputs set to the Encoding's Inputs; Model.SetEncoding then gives
// the returned model that encoding, so that it is saved with the model
// and EncodeRecord, EncodeRow and PredictRecord take raw rows.
//
// Only the data passed in is used: hold the test data back from it.
// AutoFit reads x and y in place, from every run, and copies no rows; a
// transform other than TransformNone trains on a transformed copy of y. The
// grid's dimensions replace cfg's Dropout and Hidden and tc's
// LearningRate and ScaleWeighting (AutoOptions says how cfg.Hidden and a
// nonzero tc.ScaleWeighting fix theirs); the rest of cfg and tc (Loss,
// Optimizer, BatchSize, the seeds) apply to every candidate, and a zero
// BatchSize grows with the data, so that an epoch takes at most 1024
// steps. The result is bit-identical
// for a given input and seeds, whatever Workers is. Errors are those of
// New, NewTrainer and Fit; ErrConfig for invalid options, naming the
// field, ErrTooFewRows for fewer than MinAutoFitRows rows, ErrBatch for
// a ValidationShare that leaves too few rows to train on, and the first
// error of a candidate (by grid order) if every candidate failed.
func AutoFit[T Float](cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	return AutoFitContext(context.Background(), cfg, tc, x, y, opt)
}

// AutoFitContext is AutoFit, stopped by ctx: every run it trains (the
// candidates, the ensemble and the calibration folds) checks ctx before
// each epoch, so that once ctx is done AutoFitContext returns within an
// epoch of every run under way, with no goroutine left behind, no model
// and an error wrapping ctx.Err() (context.Canceled or
// context.DeadlineExceeded). A done ctx before the search starts trains
// nothing.
func AutoFitContext[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	var m *Model[T]
	var res AutoResult
	var err error
	if cfg.Targets > 1 {
		m, res, err = autoFitLaws(ctx, cfg, tc, x, y, opt)
	} else {
		m, res, _, err = autoFitTransforms(ctx, cfg, tc, x, y, opt)
	}
	if err != nil && ctx.Err() != nil {
		return nil, AutoResult{}, fmt.Errorf("gcp: AutoFit stopped: %w", ctx.Err())
	}
	return m, res, err
}
