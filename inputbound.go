package gcp

import (
	"fmt"
	"math"
)

// The bound on a model's standardized inputs. A robust standardization
// (median and interquartile range) leaves a feature whose values span
// orders of magnitude, such as a count, at robust z-scores in the
// thousands: oes97's employment counts reach |z| ≈ 2900. A fresh
// network's outputs then reach hundreds, the softplus of α underflows to
// 0, and training diverges at any learning rate. Beyond a bound B the
// model therefore feeds the network
//
//	z' = sign(z)·(B + ln(1 + |z| − B)),
//
// which is z itself up to B, continuous with slope 1 there, and
// increasing: rows keep their order, and a far row still looks far
// (z = 2912 enters as ≈ 58 for B = 50). The bound is part of the model
// and of its file; a model without one (zero) feeds z as it is.

// defaultInputBound is the bound Fit and AutoFit give a model whose
// training rows reach beyond it: 50 robust scales. The features of the
// paper's UCI sets stay within it (over each whole file the largest
// |z| is Yacht's 36.4 and Boston's 33.3, the others below 10), so that
// their models stay as they were, while a robust z of 50, a normal tail
// probability of 1e-545, is no ordinary value of a feature: beyond it
// only a heavy tail's spread remains to be told apart, which the
// logarithm keeps.
const defaultInputBound = 50

// boundedInput returns z bounded by b > 0: z for |z| ≤ b, and
// sign(z)·(b + ln(1 + |z| − b)) beyond.
func boundedInput(z, b float64) float64 {
	a := math.Abs(z)
	if !(a > b) {
		return z
	}
	return math.Copysign(b+math.Log1p(a-b), z)
}

// learnedInputBound returns the bound Fit and AutoFit give a model whose
// training rows reach a largest |z| of reach: defaultInputBound if reach
// lies beyond it, else 0 (none), so that a model of data within the
// bound is the model it was before bounds existed, and its file stays
// readable by releases that know none.
func learnedInputBound(reach float64) float64 {
	if reach > defaultInputBound {
		return defaultInputBound
	}
	return 0
}

// boundRows bounds, in place, the standardized rows u of the model's
// inputs whose largest |z|, in z, lies beyond the model's bound. A row
// within it, and every row of a model without a bound, costs one
// comparison or nothing.
func (m *Model[T]) boundRows(u []T, z []float64) {
	b := m.ext.inputBound
	if b == 0 {
		return
	}
	d := m.cfg.Inputs
	for i, zi := range z {
		if zi <= b {
			continue
		}
		for j, v := range u[i*d : (i+1)*d] {
			u[i*d+j] = T(boundedInput(float64(v), b))
		}
	}
}

// InputBound returns the bound beyond which the model compresses its
// standardized inputs logarithmically: 0 for none. Fit and AutoFit set
// it to 50 when they learn the standardization from rows whose
// standardized features reach beyond 50, as count features spanning
// orders of magnitude do; a model stepped alone, standardized by
// SetStandardization, or loaded from a file written without one has
// none unless SetInputBound gives it one. A model whose law is the
// Gaussian copula of one-target models returns its first marginal's
// bound: each marginal bounds its own inputs, and AutoFit's learn theirs
// from the same rows.
func (m *Model[T]) InputBound() float64 {
	if m == nil {
		return 0
	}
	if m.margins != nil {
		return m.margins[0].InputBound()
	}
	return m.ext.inputBound
}

// SetInputBound sets the bound b on the model's standardized inputs: a
// standardized feature z enters the network as z while |z| ≤ b, and as
// sign(z)·(b + ln(1 + |z| − b)) beyond, which keeps the network's inputs
// moderate for rows far from the data while keeping their order.
// b = 0 removes the bound. Prediction.InputZ reports the unbounded z. It
// returns ErrNonFinite unless b is 0 or positive and finite, and
// ErrConfig for a nil model. It must not run beside prediction or any
// other method on m (see Model). A model whose law is the Gaussian
// copula of one-target models returns an error wrapping ErrConfig: its
// marginals bound their own inputs.
func (m *Model[T]) SetInputBound(b float64) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if m.margins != nil {
		return errCopula("SetInputBound")
	}
	switch {
	case b == 0:
		m.ext.inputBound = 0 // not −0: the model has no bound
	case !positiveFinite(b):
		return ErrNonFinite
	default:
		m.ext.inputBound = b
	}
	return nil
}
