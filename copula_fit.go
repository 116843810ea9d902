package gcp

import "math"

// The fit of a Gaussian copula's correlation matrix R to the normal
// scores u_ij = Φ⁻¹(F_j(y_ij)) of rows that the marginals F_j did not
// train on (docs/multivariate.md, Sec. 12): inference functions for
// margins (Joe 1997), the marginals fixed, R from their scores.
//
// C is the scores' sample (Pearson) correlation matrix, the normal-scores
// estimator that is standard with fixed marginals; the Gaussian
// copula's maximum-likelihood R differs from it only by the constraint
// of a unit diagonal, and C is what bench/copula_ceiling.py measured.
// R = (1−λ)·C + λ·I shrinks it towards independence, λ on the grid 0,
// 0.05, …, 1 chosen by copulaFolds-fold cross-validation of the copula
// log likelihood (ties to the larger λ), as the measurement chose it: on
// oes97's cross-fitted scores, 16 targets on 300 rows, it chose λ ≈ 0.7,
// where λ = 0 cost 1.5 nats a row. A column of constant scores has no
// correlation with the others (its row of C is that of I), so that R is
// a correlation matrix for any rows, and below d rows, where C is
// singular, the cross-validation refuses λ = 0 (its held-out log
// likelihood is −Inf) and shrinks.
//
// The gain G, the mean copula log density of a new row (how much the
// copula adds to the product of the marginals, in nats a row), is
// estimated by nested cross-validation: each fold's rows are scored under
// the R fitted to the other folds, with a λ chosen by cross-validation
// over those folds alone, so that no row's score took part in choosing
// or fitting what scores it. The plain cross-validated log likelihood at
// the chosen λ would not do: it is the maximum over the grid of 21
// noisy estimates, optimistic by about their noise where the targets are
// independent (G = 0), and G decides between the laws.

// copulaScoreBound is the largest |u| a normal score counts with in the
// fit: Φ(−8) = 6.2e-16, so a score beyond it says the marginal put less
// than one chance in a million billion on the target; it is a gross
// error of the marginal, and counted at ±8 it cannot carry R with it. A
// score of ±Inf (a tail probability that underflowed) counts as ±8 too,
// and a NaN as 0, a score that says nothing.
const copulaScoreBound = 8

// copulaFolds is how many folds the shrinkage's cross-validation deals
// the rows into, bench/copula_ceiling.py's five.
const copulaFolds = 5

// copulaLambdas is the number of points of the shrinkage's grid, λ = k/20
// for k = 0, …, 20.
const copulaLambdas = 21

// copulaFit is a Gaussian copula's correlation fitted to normal scores.
type copulaFit struct {
	// chol is the lower Cholesky factor of R, packed by rows (L_ij, j ≤
	// i, at i(i+1)/2 + j), d(d+1)/2 values; each row has unit norm.
	chol []float64
	// lambda is the shrinkage of R towards I.
	lambda float64
	// gain is G, the nested-cross-validated mean copula log density of a
	// row, and rowGain each row's held-out copula log density.
	gain    float64
	rowGain []float64
}

// fitCopula fits R to the normal scores u of n rows (row-major, d a row;
// clampScore applied to a copy): the correlation of all rows shrunk by
// the λ that cross-validation over copulaFolds folds chooses (the rows
// dealt into folds by index, row i to fold i mod the folds), and the
// gain G estimated by nested cross-validation on the same folds. With
// fewer than two folds' worth of rows (n < 2) R is I, λ 1 and G 0.
func fitCopula(u []float64, n, d int) copulaFit {
	z := make([]float64, n*d)
	for i, v := range u[:n*d] {
		z[i] = clampScore(v)
	}
	k := min(copulaFolds, n)
	folds := make([][]int, k)
	for i := range n {
		folds[i%k] = append(folds[i%k], i)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	fit := copulaFit{rowGain: make([]float64, n)}
	fit.chol, fit.lambda = shrunkCholesky(sampleCorrelation(z, d, all), d, cvShrinkage(z, d, folds))
	for g, held := range folds {
		rest := make([][]int, 0, k-1)
		var train []int
		for h, f := range folds {
			if h != g {
				rest, train = append(rest, f), append(train, f...)
			}
		}
		l, _ := shrunkCholesky(sampleCorrelation(z, d, train), d, cvShrinkage(z, d, rest))
		for _, i := range held {
			fit.rowGain[i] = copulaLogDensity(l, z[i*d:(i+1)*d])
			fit.gain += fit.rowGain[i] / float64(n)
		}
	}
	return fit
}

// clampScore returns the normal score u as the fit counts it: clamped to
// ±copulaScoreBound, NaN as 0.
func clampScore(u float64) float64 {
	if math.IsNaN(u) {
		return 0
	}
	return min(max(u, -copulaScoreBound), copulaScoreBound)
}

// cvShrinkage returns the λ of the grid whose R, fitted to all folds but
// one, gives the highest copula log likelihood summed over each held-out
// fold (ties to the larger λ); 1 for fewer than two folds. A λ whose R is
// not positive definite on some fold scores −Inf.
func cvShrinkage(z []float64, d int, folds [][]int) float64 {
	if len(folds) < 2 {
		return 1
	}
	var score [copulaLambdas]float64
	for g, held := range folds {
		var train []int
		for h, f := range folds {
			if h != g {
				train = append(train, f...)
			}
		}
		c := sampleCorrelation(z, d, train)
		for k := range score {
			l, ok := copulaCholesky(shrink(c, d, copulaLambda(k)), d)
			if !ok {
				score[k] = math.Inf(-1)
				continue
			}
			for _, i := range held {
				score[k] += copulaLogDensity(l, z[i*d:(i+1)*d])
			}
		}
	}
	best := copulaLambdas - 1
	for k := best - 1; k >= 0; k-- {
		if score[k] > score[best] {
			best = k
		}
	}
	return copulaLambda(best)
}

// shrunkCholesky returns the packed Cholesky factor of (1−λ)·c + λ·I for
// the d×d correlation matrix c and the λ of the grid it used: lam, or
// where c shrunk by it is not positive definite, the next larger λ that
// is (λ = 1 always is). Cross-validation refuses a λ whose matrix is not
// positive definite on its folds, but the matrix of other rows (all of
// them, or a fold's complement) can still fail where a column is
// constant on some folds and not on the others.
func shrunkCholesky(c []float64, d int, lam float64) ([]float64, float64) {
	for k := int(math.Round(lam * (copulaLambdas - 1))); ; k++ {
		if l, ok := copulaCholesky(shrink(c, d, copulaLambda(k)), d); ok || k >= copulaLambdas-1 {
			return l, copulaLambda(k)
		}
	}
}

// copulaLambda returns the k-th λ of the grid, k/20.
func copulaLambda(k int) float64 { return float64(k) / float64(copulaLambdas-1) }

// shrink returns (1−λ)·c + λ·I for the d×d correlation matrix c (dense,
// row-major), a new matrix.
func shrink(c []float64, d int, lam float64) []float64 {
	r := make([]float64, len(c))
	for i, v := range c {
		r[i] = (1 - lam) * v
	}
	for i := range d {
		r[i*d+i] = 1
	}
	return r
}

// sampleCorrelation returns the Pearson correlation matrix (dense d×d,
// row-major) of the scores z (d a row) over the rows given: a column
// that is constant over them (or one row, or none) correlates with no
// other, its row and column those of I.
func sampleCorrelation(z []float64, d int, rows []int) []float64 {
	mean := make([]float64, d)
	for _, i := range rows {
		for j, v := range z[i*d : (i+1)*d] {
			mean[j] += v / float64(len(rows))
		}
	}
	c := make([]float64, d*d)
	e := make([]float64, d)
	for _, i := range rows {
		for j, v := range z[i*d : (i+1)*d] {
			e[j] = v - mean[j]
		}
		for a := range d {
			for b := range a + 1 {
				c[a*d+b] += e[a] * e[b]
			}
		}
	}
	for a := range d {
		for b := range a {
			v := 0.0
			if den := math.Sqrt(c[a*d+a] * c[b*d+b]); den > 0 {
				v = min(max(c[a*d+b]/den, -1), 1)
			}
			c[a*d+b], c[b*d+a] = v, v
		}
	}
	for a := range d {
		c[a*d+a] = 1
	}
	return c
}

// copulaCholesky returns the lower Cholesky factor of the d×d symmetric
// matrix r (dense, row-major), packed by rows (cholesky), and whether r
// is positive definite; its rows have unit norm where r's diagonal is 1.
func copulaCholesky(r []float64, d int) ([]float64, bool) {
	l := make([]float64, mvtPackedLen(d))
	if !cholesky(l, r, d) {
		return nil, false
	}
	return l, true
}
