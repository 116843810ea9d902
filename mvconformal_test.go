package gcp

import (
	"errors"
	"math"
	"testing"
)

// TestConformalInsideByHand: with the distances 1, …, 9 of nine
// calibration rows, the region of level p is Mahalanobis ≤ the
// ⌈10·p⌉-th of them: 5 at 0.5, 9 at 0.9 (the decimal 0.9 read as its
// rank), and p = 0.95 needs rank 10 > 9, so ErrLevel; a y on the
// boundary is inside, just beyond it outside.
func TestConformalInsideByHand(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Seed: 1})
	p := predictedAt(t, m, []float64{0.2, -0.4})
	q := make([]float64, 9)
	for i := range q {
		q[i] = float64((i + 1) * (i + 1)) // squared distances 1, 4, …, 81
	}
	p.conformal = jointConformalScores(q)
	// The distance grows linearly along a ray from the mean: a y at
	// e·u from it, u the first target's unit step, is at |e| times u's.
	u := []float64{p.Mean(0) + 1, p.Mean(1)}
	unit := p.Mahalanobis(u)
	at := func(r float64) []float64 { return []float64{p.Mean(0) + r/unit, p.Mean(1)} }
	for _, c := range []struct {
		level, r float64
	}{{0.5, 5}, {0.9, 9}} {
		got, err := p.ConformalRadius(c.level)
		if err != nil || got != c.r {
			t.Errorf("ConformalRadius(%v) = %v, %v; want %v", c.level, got, err, c.r)
		}
		if in, err := p.ConformalInside(at(c.r*(1-1e-9)), c.level); err != nil || !in {
			t.Errorf("level %v: a y just inside distance %v: %v, %v", c.level, c.r, in, err)
		}
		if in, err := p.ConformalInside(at(c.r*(1+1e-9)), c.level); err != nil || in {
			t.Errorf("level %v: a y just beyond distance %v: %v, %v", c.level, c.r, in, err)
		}
	}
}

// TestConformalInsideBadInput: a level outside (0, 1), or beyond what the
// calibration rows bound, is ErrLevel; a y of the wrong length ErrShape;
// a prediction of a model without the joint region's conformal
// calibration ErrNoConformal.
func TestConformalInsideBadInput(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Seed: 1})
	p := predictedAt(t, m, []float64{0.2, -0.4})
	y := []float64{0, 0}
	if _, err := p.ConformalInside(y, 0.5); !errors.Is(err, ErrNoConformal) {
		t.Errorf("no calibration: %v, want ErrNoConformal", err)
	}
	p.conformal = jointConformalScores([]float64{1, 4, 9})
	for _, level := range []float64{0, 1, -0.5, math.NaN(), 0.76} { // 0.76: rank ⌈4·0.76⌉ = 4 > 3 rows
		if _, err := p.ConformalInside(y, level); !errors.Is(err, ErrLevel) {
			t.Errorf("level %v: %v, want ErrLevel", level, err)
		}
		if _, err := p.ConformalRadius(level); !errors.Is(err, ErrLevel) {
			t.Errorf("radius at level %v: %v, want ErrLevel", level, err)
		}
	}
	if _, err := p.ConformalInside([]float64{0}, 0.5); !errors.Is(err, ErrShape) {
		t.Errorf("one target: %v, want ErrShape", err)
	}
	if _, err := p.ConformalInside(y, 0.75); err != nil {
		t.Errorf("level 0.75, rank 3 of 3: %v", err)
	}
}
