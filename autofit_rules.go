package gcp

import "github.com/gcpnet/gcp/internal/onese"

// The keep-or-reject rules of AutoFit's stages after the grid search:
// both compare the model kept so far, A, with a candidate, B, scored on
// the same held-out rows, by the one-standard-error rule of model
// selection (Breiman et al., "Classification and Regression Trees",
// 1984; onese.Pick), so that the noise of a few dozen rows does not
// replace a model the data do not clearly favour the other over. The
// two rules differ where the NLL and the squared error disagree.
//
// The architecture stage (replaces) keeps a costlier head when its NLL
// is clearly lower, or its squared error is clearly lower and its NLL not
// clearly higher: a deeper head models the same target on the same scale
// and can fit a mean that one layer cannot while the NLL, dominated by
// the noise model, moves by less than its standard error (Concrete's
// inner splits: RMSE 1% lower, NLL 0.006 lower).
//
// The transform stage (transformReplaces) keeps a model on another scale
// only when its NLL is clearly lower and its squared error not clearly
// higher: a log scale gives a small target's relative error the weight of
// a large one's, so a log model can match or beat the NLL, carried by the
// many small targets, with a much worse mean for the large ones (Yacht's
// resistances, which span four decades: on its inner hold-outs the log
// model had about the same NLL and an RMSE of 1.04 against 0.74). The
// one-standard-error test cannot see a single catastrophic row: when one
// row carries a difference X and the others none, the paired mean is X/n
// and its standard error X/n too, so that no X, however large, is
// clearly higher. A log model's mean, exp(m + v/2), makes such rows
// where its variance v is large, so the transform stage also refuses a
// model whose held-out RMSE exceeds the kept model's by more than
// maxTransformRMSERatio (oes97's Hand Packers, a count, on one outer
// split's training rows: cross-fitted RMSE 6.4 × 10³¹ logged against
// 2,148, the log kept, and a predicted mean of 5.6 × 10⁹ for a test
// row). Where only the squared error is clearly lower, the transform
// stage keeps the model it has. A change to either rule changes which
// model is kept on data, and must first be measured on inner splits (gcp
// splits -inner), never on the test splits.

// replaces reports whether a costlier architecture, of per-row held-out
// NLLs nllB and squared errors sqB, replaces the one kept so far, of nllA
// and sqA on the same rows: when its NLL is lower by more than one
// standard error of the paired differences, or its squared error is and
// its NLL is not higher by as much.
func replaces(nllA, sqA, nllB, sqB []float64) bool {
	nllBetter := onese.Pick([][]float64{nllA, nllB}) == 1
	nllWorse := onese.Pick([][]float64{nllB, nllA}) == 1
	meanBetter := onese.Pick([][]float64{sqA, sqB}) == 1
	return nllBetter || meanBetter && !nllWorse
}

// maxTransformRMSERatio is the largest ratio of a transformed model's
// held-out RMSE to the kept model's that the transform stage accepts,
// whatever the standard errors say. A log model of a skewed target
// trades some of its mean's accuracy for its density (jura's Cd: RMSE
// 1.02–1.10× the untransformed model's on inner splits, its NLL 0.1
// lower), and held-out RMSEs of a few dozen rows differ by tens of
// percent from noise alone; twice the RMSE, four times the squared
// error, is beyond both, and is what one exploding row makes.
const maxTransformRMSERatio = 2

// transformReplaces reports whether the model of another target
// transform, of per-row held-out NLLs nllB and squared errors sqB in
// original units, replaces the one kept so far, of nllA and sqA: when
// they scored the same rows, its NLL is lower by more than one standard
// error of the paired differences, its squared error is not higher by
// as much, and its RMSE is at most maxTransformRMSERatio times the kept
// model's.
func transformReplaces(nllA, sqA, nllB, sqB []float64) bool {
	return len(nllA) == len(nllB) &&
		onese.Pick([][]float64{nllA, nllB}) == 1 &&
		onese.Pick([][]float64{sqB, sqA}) != 1 &&
		total(sqB) <= maxTransformRMSERatio*maxTransformRMSERatio*total(sqA)
}

// total returns the sum of v.
func total(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}
