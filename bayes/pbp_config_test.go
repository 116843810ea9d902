package bayes

import (
	"errors"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestPBPConfigDefaults checks withDefaults against the documented
// defaults, written out: a nil Hidden is the paper's {50}, an empty one
// stays empty (linear regression), Epochs 0 is 40, and the caller's
// Hidden is copied.
func TestPBPConfigDefaults(t *testing.T) {
	c := PBPConfig{Inputs: 2}.withDefaults()
	if len(c.Hidden) != 1 || c.Hidden[0] != 50 || c.Epochs != 40 {
		t.Errorf("zero fields give Hidden %v, Epochs %d; want [50], 40", c.Hidden, c.Epochs)
	}
	if c := (PBPConfig{Inputs: 2, Hidden: []int{}, Epochs: 3}).withDefaults(); c.Hidden == nil || len(c.Hidden) != 0 || c.Epochs != 3 {
		t.Errorf("Hidden {}, Epochs 3 give Hidden %#v, Epochs %d; want an empty Hidden, 3", c.Hidden, c.Epochs)
	}
	if !hiddenCopied(func(h []int) []int { return PBPConfig{Inputs: 1, Hidden: h}.withDefaults().Hidden }) {
		t.Error("a change to the caller's Hidden reached the configuration")
	}
}

// TestParamCount checks paramCount against counts written out by hand:
// each layer has (fan-in + 1)·width weights. The widest shape the limits
// allow, 65536 inputs and two hidden layers of 65536, has 65537·65536 +
// 65537·65536 + 65537·1 = 8 590 131 201 weights, beyond a 32-bit int:
// validate must refuse it, on 386 too. The largest accepted count,
// maxParams = 2²² = 4 194 304, is (67+1)·60787 + (60787+1)·1 for 67
// inputs and one hidden layer of 60787 units; one unit more is refused.
func TestParamCount(t *testing.T) {
	for _, c := range []struct {
		inputs int
		hidden []int
		want   int64
	}{
		{3, []int{4, 2}, 4*4 + 5*2 + 3*1},
		{2, []int{}, 3},
		{1, []int{50}, 2*50 + 51},
		{65536, []int{65536, 65536}, 8590131201},
		{67, []int{60787}, 4194304},
	} {
		if got := paramCount(c.inputs, c.hidden); got != c.want {
			t.Errorf("paramCount(%d, %v) = %d, want %d", c.inputs, c.hidden, got, c.want)
		}
	}
	for _, c := range []struct {
		cfg  PBPConfig
		want error
	}{
		{PBPConfig{Inputs: 67, Hidden: []int{60787}, Epochs: 1}, nil},
		{PBPConfig{Inputs: 67, Hidden: []int{60788}, Epochs: 1}, gcp.ErrConfig},
		{PBPConfig{Inputs: 65536, Hidden: []int{65536, 65536}, Epochs: 1}, gcp.ErrConfig},
	} {
		err := c.cfg.validate()
		if !errors.Is(err, c.want) || err != nil && !strings.Contains(err.Error(), "weights") {
			t.Errorf("%d inputs, hidden %v: validate gives %v, want %v naming the weights", c.cfg.Inputs, c.cfg.Hidden, err, c.want)
		}
	}
}
