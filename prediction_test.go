package gcp

import (
	"math"
	"testing"
	"unsafe"
)

// TestPredictionSize holds Prediction's doc to its size on a 64-bit
// platform, counted by hand: Loss and Members, 8 bytes each; 13 float64
// fields, 104; MaxMembers = 20 components of three float64, 480; the
// one-byte Transform padded to 8; the score map of a conditional
// marginal, six float64, 48. 8 + 104 + 8 + 480 + 8 + 48 = 656.
func TestPredictionSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the documented size is that of 64-bit platforms")
	}
	if got := unsafe.Sizeof(Prediction{}); got != 656 {
		t.Errorf("a Prediction is %d bytes, the doc says 656", got)
	}
}

// TestBaseScoreSetForAnotherBase: a baseScore (and the tScore in it) set
// for one base and then for another answers for the second, also where
// the second has no valid score (a mixture with a member of DoF 0, a
// prior that is not valid): NaN, as normalScore gives, not the first
// base's score.
func TestBaseScoreSetForAnotherBase(t *testing.T) {
	mix := Prediction{Loss: LossGCP, Members: 2}
	mix.Components[0] = Component{Mean: 0, Scale: 1, DoF: 4}
	mix.Components[1] = Component{Mean: 1, Scale: 2, DoF: 6}
	single := Prediction{Loss: LossGCP, Mean: 0.5, Alpha: 3, Beta: 2, Nu: 1, Members: 1}
	badMix := mix
	badMix.Components[1].DoF = 0
	badSingle := single
	badSingle.Alpha = -1
	for _, c := range []struct {
		name        string
		first, then Prediction
	}{{"mixture", mix, badMix}, {"single network", single, badSingle}} {
		var s baseScore
		s.set(&c.first)
		if got, want := s.at(&c.first, 0.7), normalScore(&c.first, 0.7, false); got != want || math.IsNaN(want) {
			t.Fatalf("%s: score %v, want normalScore's %v, a number", c.name, got, want)
		}
		s.set(&c.then)
		if got, want := s.at(&c.then, 0.7), normalScore(&c.then, 0.7, false); !math.IsNaN(got) || !math.IsNaN(want) {
			t.Errorf("%s set again for an invalid base: score %v, want NaN (normalScore %v)", c.name, got, want)
		}
	}
}
