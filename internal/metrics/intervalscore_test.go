package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gcpnet/gcp"
)

func TestIntervalScore(t *testing.T) {
	// [1, 3] at 75%: width 2, and 2/α = 8 per unit outside, all exact in
	// float64.
	for _, c := range []struct{ y, want float64 }{
		{2, 2}, {1, 2}, {3, 2}, {0.5, 2 + 8*0.5}, {4, 2 + 8*1},
	} {
		if got, err := IntervalScore(1, 3, 0.75, c.y); err != nil || got != c.want {
			t.Errorf("IntervalScore(1, 3, 0.75, %v) = %v, %v; want %v", c.y, got, err, c.want)
		}
	}
	for _, level := range []float64{0, 1, -0.5, math.NaN()} {
		if _, err := IntervalScore(1, 3, level, 2); !errors.Is(err, gcp.ErrLevel) {
			t.Errorf("level %v: %v, want ErrLevel", level, err)
		}
	}
	if got, _ := IntervalScore(math.Inf(-1), math.Inf(1), 0.9, 2); !math.IsInf(got, 1) {
		t.Errorf("an unbounded interval scores %v, want +Inf", got)
	}
	// regression: [3, 1] scored −2 at y = 2, a reward for no interval.
	for _, b := range [][2]float64{{3, 1}, {math.NaN(), 1}, {1, math.NaN()}} {
		if _, err := IntervalScore(b[0], b[1], 0.9, 2); !errors.Is(err, ErrBounds) {
			t.Errorf("IntervalScore(%v, %v, 0.9, 2): %v, want ErrBounds", b[0], b[1], err)
		}
	}
}

// TestIntervalScoreProper checks by Monte Carlo that the mean score of
// [−c, c] on standard normal outcomes is least at the true central 90%
// interval, c = Φ⁻¹(0.95) = 1.6449: its derivative in c is 2 − 20·P(|Y| > c),
// zero there, and the mean at c ± 0.15 is higher by about
// ½·(20·2φ(1.645))·0.15² = 0.023, while the Monte Carlo differences of
// 200,000 shared draws have a standard error below 0.003.
func TestIntervalScoreProper(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ys := make([]float64, 200000)
	for i := range ys {
		ys[i] = r.NormFloat64()
	}
	mean := func(c float64) float64 {
		var s float64
		for _, y := range ys {
			v, _ := IntervalScore(-c, c, 0.9, y)
			s += v
		}
		return s / float64(len(ys))
	}
	best := mean(1.6449)
	for _, c := range []float64{1.4949, 1.7949} {
		if m := mean(c); !(m > best+0.01) {
			t.Errorf("mean score at c = %v is %v, want above %v + 0.01 at the true quantile", c, m, best)
		}
	}
}
