package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gcpnet/gcp"
)

func TestPITAdd(t *testing.T) {
	var h PITValues
	for _, u := range []float64{0, 1, 0.5} {
		if err := h.Add(u); err != nil {
			t.Errorf("Add(%v): %v", u, err)
		}
	}
	for _, u := range []float64{math.NaN(), -0.1, 1.1, math.Inf(1)} {
		if err := h.Add(u); !errors.Is(err, gcp.ErrProbability) {
			t.Errorf("Add(%v): %v, want ErrProbability", u, err)
		}
	}
	if h.Len() != 3 {
		t.Errorf("Len = %d, want the 3 valid values", h.Len())
	}
}

// TestPITHistogram checks the counts against a direct count of the values
// between each pair of edges j/B, on random values and on every edge and
// its float64 neighbours, where u·B rounds.
func TestPITHistogram(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, b := range []int{1, 7, 10, 20} {
		var h PITValues
		var us []float64
		for range 500 {
			us = append(us, r.Float64())
		}
		for j := 0; j <= b; j++ {
			e := float64(j) / float64(b)
			us = append(us, e, math.Nextafter(e, 0), math.Nextafter(e, 1))
		}
		for _, u := range us {
			_ = h.Add(min(max(u, 0), 1))
		}
		got := make([]int, b)
		h.Histogram(got)
		for j := range b {
			lo, hi := float64(j)/float64(b), float64(j+1)/float64(b)
			want := 0
			for _, u := range h.u {
				if lo <= u && (u < hi || j == b-1) {
					want++
				}
			}
			if got[j] != want {
				t.Errorf("B = %d: bin %d holds %d, direct count %d", b, j, got[j], want)
			}
		}
	}
	var empty PITValues
	h := []int{3}
	empty.Histogram(h)
	if h[0] != 0 {
		t.Errorf("an empty PIT's histogram %v, want zero counts", h)
	}
}

// TestPITMiscalibrationArea checks the exact area against hand-computed
// cases and against a midpoint sum of |Ĥ(p) − p| with Ĥ counted directly.
func TestPITMiscalibrationArea(t *testing.T) {
	area := func(us ...float64) float64 {
		var h PITValues
		for _, u := range us {
			if err := h.Add(u); err != nil {
				t.Fatal(err)
			}
		}
		return h.MiscalibrationArea()
	}
	// Every target at the median: every interval holds it, Ĥ = 1, and
	// the area is ∫(1 − p) = ½; every target at an end: Ĥ = 0 below
	// p = 1, ∫p = ½; one target at |2u − 1| = ½: ∫₀^½ p + ∫_½^1 (1 − p) = ¼.
	for _, c := range []struct {
		us   []float64
		want float64
	}{
		{[]float64{0.5, 0.5, 0.5}, 0.5},
		{[]float64{0, 1}, 0.5},
		{[]float64{0.25}, 0.25},
		{[]float64{0.75}, 0.25},
	} {
		if got := area(c.us...); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("area of %v = %v, want %v", c.us, got, c.want)
		}
	}
	if got := area(); !math.IsNaN(got) {
		t.Errorf("area of nothing = %v, want NaN", got)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, skew := range []float64{1, 0.5, 3} {
		us := make([]float64, 40)
		for i := range us {
			us[i] = math.Pow(r.Float64(), skew) // skew ≠ 1: miscalibrated
		}
		// Midpoint sum over M cells: |Ĥ(p) − p| is linear between the 40
		// jumps of Ĥ, each of height 1/40, and a cell holding a jump
		// errs by at most 1/40 of its width; a kink where Ĥ(p) = p errs
		// by at most a cell's width squared. So the sum is within
		// (40·(1/40) + 41/M)/M ≈ 1/M of the area.
		const m = 100000
		var sum float64
		for k := range m {
			p := (float64(k) + 0.5) / m
			in := 0
			for _, u := range us {
				if math.Abs(2*u-1) <= p {
					in++
				}
			}
			sum += math.Abs(float64(in)/float64(len(us)) - p)
		}
		if got, want := area(us...), sum/m; math.Abs(got-want) > 2.0/m {
			t.Errorf("skew %v: area %v, midpoint sum of direct counts %v", skew, got, want)
		}
	}
}
