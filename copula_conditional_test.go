package gcp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// invertSym returns the inverse of the symmetric positive definite
// matrix a (row-major n×n) and ln det a by Gauss–Jordan elimination with
// partial pivoting: the test's own linear algebra, independent of the
// package's Cholesky factors.
func invertSym(a []float64, n int) (inv []float64, logDet float64) {
	m := make([]float64, n*2*n)
	for i := range n {
		copy(m[i*2*n:], a[i*n:(i+1)*n])
		m[i*2*n+n+i] = 1
	}
	for c := range n {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r*2*n+c]) > math.Abs(m[piv*2*n+c]) {
				piv = r
			}
		}
		for k := range 2 * n {
			m[c*2*n+k], m[piv*2*n+k] = m[piv*2*n+k], m[c*2*n+k]
		}
		v := m[c*2*n+c]
		logDet += math.Log(math.Abs(v))
		for k := range 2 * n {
			m[c*2*n+k] /= v
		}
		for r := range n {
			if f := m[r*2*n+c]; r != c && f != 0 {
				for k := range 2 * n {
					m[r*2*n+k] -= f * m[c*2*n+k]
				}
			}
		}
	}
	inv = make([]float64, n*n)
	for i := range n {
		copy(inv[i*n:(i+1)*n], m[i*2*n+n:(i+1)*2*n])
	}
	return inv, logDet
}

// normalConditional returns the mean and covariance (row-major) of the
// targets not in given, in increasing order, of the normal N(mean, cov)
// (d targets) given the targets given at values: m_U + C_UO C_OO⁻¹(y_O −
// m_O) and C_UU − C_UO C_OO⁻¹ C_OU.
func normalConditional(mean, cov []float64, d int, given []int, values []float64) (cm, cc []float64) {
	o := len(given)
	var rest []int
	for i := range d {
		isGiven := false
		for _, g := range given {
			isGiven = isGiven || g == i
		}
		if !isGiven {
			rest = append(rest, i)
		}
	}
	coo := make([]float64, o*o)
	for a, i := range given {
		for b, j := range given {
			coo[a*o+b] = cov[i*d+j]
		}
	}
	inv, _ := invertSym(coo, o)
	n := len(rest)
	cm, cc = make([]float64, n), make([]float64, n*n)
	for a, i := range rest {
		cm[a] = mean[i]
		for b, g := range given {
			for c, h := range given {
				cm[a] += cov[i*d+g] * inv[b*o+c] * (values[c] - mean[h])
			}
		}
		for e, j := range rest {
			cc[a*n+e] = cov[i*d+j]
			for b, g := range given {
				for c, h := range given {
					cc[a*n+e] -= cov[i*d+g] * inv[b*o+c] * cov[h*d+j]
				}
			}
		}
	}
	return cm, cc
}

// normalLogDensity returns ln N(y | mean, cov), n targets.
func normalLogDensity(y, mean, cov []float64) float64 {
	n := len(y)
	inv, logDet := invertSym(cov, n)
	var q float64
	for i := range n {
		for j := range n {
			q += (y[i] - mean[i]) * inv[i*n+j] * (y[j] - mean[j])
		}
	}
	return -0.5*(float64(n)*math.Log(2*math.Pi)+logDet) - 0.5*q
}

// near reports whether got is within tol of want, relative to
// max(1, |want|).
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// TestCopulaConditionalGaussianIsTheNormalConditional: with Gaussian
// marginals N(m_j, s_j²) the copula is the normal of covariance
// R_ij·s_i·s_j, and its conditional the normal conditional, formed here
// by the test's own Gauss–Jordan elimination. Each conditional
// marginal's CDF, Quantile, Mean and Var (closed forms for a Gaussian
// base), its calibrated predictive (VarCorrected = Var for the Gaussian
// loss, RegionScale 1 and RegionNu +Inf), dst's LogPDF, CalibratedLogPDF
// and Corr must match it to 1e-12 relative to max(1, |value|): the two
// computations round differently (Cholesky against Gauss–Jordan, scores
// against residuals), by a few ulps times R's condition number, below
// 100 here.
func TestCopulaConditionalGaussianIsTheNormalConditional(t *testing.T) {
	const tol = 1e-12
	for _, d := range []int{2, 3, 5} {
		m, l := gaussianCopulaModel(t, d, uint64(10+d))
		var p MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), []float64{0.3, -0.7}, &p); err != nil {
			t.Fatal(err)
		}
		mean, sd, cov := make([]float64, d), make([]float64, d), make([]float64, d*d)
		for j := range d {
			q := p.Marginal(j)
			mean[j], sd[j] = q.Mean, math.Sqrt(q.Var)
		}
		for i := range d {
			for j := range d {
				var r float64 // R_ij from the factor, by hand
				for c := range min(i, j) + 1 {
					r += l[i*(i+1)/2+c] * l[j*(j+1)/2+c]
				}
				cov[i*d+j] = r * sd[i] * sd[j]
			}
		}
		for _, given := range [][]int{{0}, {d - 1}, {d - 1, 0}, {1}} {
			if len(given) >= d || given[0] >= d {
				continue
			}
			values := make([]float64, len(given))
			for a, i := range given {
				values[a] = mean[i] + (1.7-float64(a)*2.9)*sd[i]
			}
			var dst MultiPrediction
			if err := p.Conditional(&dst, given, values); err != nil {
				t.Fatal(err)
			}
			cm, cc := normalConditional(mean, cov, d, given, values)
			n := len(cm)
			if dst.Dim() != n {
				t.Fatalf("d=%d given %v: Dim %d, want %d", d, given, dst.Dim(), n)
			}
			y := make([]float64, n)
			for i := range n {
				g := dst.Marginal(i)
				s := math.Sqrt(cc[i*n+i])
				y[i] = cm[i] + 0.8*s*float64(i%3-1)
				nd := normal{cm[i], cc[i*n+i]}
				check := func(what string, got, want float64) {
					t.Helper()
					if !near(got, want, tol) {
						t.Errorf("d=%d given %v target %d: %s %v, want %v", d, given, i, what, got, want)
					}
				}
				check("Mean", g.Mean, cm[i])
				check("Var", g.Var, cc[i*n+i])
				check("VarCorrected", g.VarCorrected, cc[i*n+i])
				for _, k := range []float64{-3, -0.4, 1.1} {
					check("CDF", g.CDF(cm[i]+k*s), nd.cdf(cm[i]+k*s))
					check("CalibratedCDF", g.CalibratedCDF(cm[i]+k*s), nd.cdf(cm[i]+k*s))
					check("LogPDF", g.LogPDF(cm[i]+k*s), nd.logPDF(cm[i]+k*s))
				}
				for _, q := range []float64{1e-9, 0.1, 0.5, 0.97} {
					got, err := g.Quantile(q)
					if err != nil {
						t.Fatal(err)
					}
					check("Quantile", got, nd.quantile(q))
					got, _ = g.CalibratedQuantile(q)
					check("CalibratedQuantile", got, nd.quantile(q))
				}
				for j := range n {
					want := cc[i*n+j] / math.Sqrt(cc[i*n+i]*cc[j*n+j])
					if got := dst.Corr(i, j); !near(got, want, tol) {
						t.Errorf("d=%d given %v: Corr(%d, %d) %v, want %v", d, given, i, j, got, want)
					}
				}
			}
			want := normalLogDensity(y, cm, cc)
			if got := dst.LogPDF(y); !near(got, want, tol) {
				t.Errorf("d=%d given %v: LogPDF %v, want %v", d, given, got, want)
			}
			if got := dst.CalibratedLogPDF(y); !near(got, want, tol) {
				t.Errorf("d=%d given %v: CalibratedLogPDF %v, want %v", d, given, got, want)
			}
			if dst.RegionScale() != 1 || !math.IsInf(dst.RegionNu(), 1) {
				t.Errorf("d=%d given %v: region %v, %v", d, given, dst.RegionScale(), dst.RegionNu())
			}
		}
	}
}

var _ = rand.New
