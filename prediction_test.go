package gcp

import (
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
