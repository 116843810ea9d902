package bayes

import (
	"hash/crc32"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gcpnet/gcp"
)

// close reports whether got is within tol of want, relative to |want|
// or to 1 for values below 1.
func close(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// sineData returns n rows of y = sin(x) + N(0, noiseSD²) with x uniform
// on [−3, 3], drawn from seed.
func sineData(n int, seed uint64) (x, y []float64) {
	r := rand.New(rand.NewPCG(seed, 99))
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 6*r.Float64() - 3
		y[i] = math.Sin(x[i]) + noiseSD*r.NormFloat64()
	}
	return x, y
}

// noiseSD is the noise of sineData.
const noiseSD = 0.2

// mustMarshal returns m's saved bytes.
func mustMarshal(t *testing.T, m *PBP) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fitSine returns a small model of sineData for the prediction tests.
func fitSine(t *testing.T) *PBP {
	t.Helper()
	x, y := sineData(300, 4)
	m, err := FitPBP(PBPConfig{Inputs: 1, Hidden: []int{20, 10}, Epochs: 5, Seed: 2}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// goldenModel trains the model of the golden file: 3 epochs of a network
// with hidden layers of 3 and 2 units on 60 rows of a smooth function of
// two inputs.
func goldenModel(t *testing.T) *PBP {
	t.Helper()
	var x, y []float64
	for i := range 60 {
		a, b := float64(i%10)/3-1.5, float64(i/10)-2.5
		x, y = append(x, a, b), append(y, math.Sin(a)+0.3*b*b+0.05*math.Cos(7*float64(i)))
	}
	m, err := FitPBP(PBPConfig{Inputs: 2, Hidden: []int{3, 2}, Epochs: 3, Seed: 7}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// reseal recomputes both CRCs of a saved model, so that a test can change
// a field and reach the check behind the checksums.
func reseal(b []byte) []byte {
	le.PutUint32(b[headerLen-crcLen:], crc32.Checksum(b[:headerLen-crcLen], castagnoli))
	le.PutUint32(b[len(b)-crcLen:], crc32.Checksum(b[:len(b)-crcLen], castagnoli))
	return b
}

// stdNormal is the standard normal density, written out here rather than
// shared with the code under test.
func stdNormal(t float64) float64 { return math.Exp(-t*t/2) / math.Sqrt(2*math.Pi) }

// lineData returns n rows of one feature on [−1, 1) and targets
// 2x + 0.1·sin(7i), times scale.
func lineData(n int, scale float64) (x, y []float64) {
	for i := range n {
		a := float64(i)/float64(n/2) - 1
		x, y = append(x, a), append(y, scale*(2*a+0.1*math.Sin(7*float64(i))))
	}
	return x, y
}

// svgdPlane returns n rows of two standard normal features and targets
// 3 + 2·x₀ − x₁ + N(0, 0.5²).
func svgdPlane(seed uint64, n int) (x, y []float64) {
	r := rand.New(rand.NewPCG(seed, 2))
	x, y = make([]float64, 2*n), make([]float64, n)
	for i := range y {
		x[2*i], x[2*i+1] = r.NormFloat64(), r.NormFloat64()
		y[i] = 3 + 2*x[2*i] - x[2*i+1] + 0.5*r.NormFloat64()
	}
	return x, y
}

// svgdSmallConfig is a model small and quick enough for most tests.
var svgdSmallConfig = SVGDConfig{Inputs: 2, Hidden: []int{8}, Particles: 5, Iterations: 300, LearningRate: 0.01, Seed: 1}

func svgdSmall(t testing.TB) *SVGD {
	t.Helper()
	x, y := svgdPlane(1, 60)
	m, err := FitSVGD(svgdSmallConfig, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// svgdNetLoop runs one network by hand on the standardized row x from
// its parameters in gcp.Stack.Net's order: per layer the input-major
// [in × out] weights, then the biases; ReLU on every hidden layer.
func svgdNetLoop(w, x []float64, hidden []int) float64 {
	in, off := x, 0
	widths := append(append([]int(nil), hidden...), 1)
	for l, n := range widths {
		out := make([]float64, n)
		for j := range out {
			s := w[off+len(in)*n+j]
			for c, v := range in {
				s += v * w[off+c*n+j]
			}
			if l < len(hidden) {
				s = max(s, 0)
			}
			out[j] = s
		}
		in, off = out, off+len(in)*n+n
	}
	return in[0]
}

// svgdHand returns the particles' means and noise standard deviations at
// x, in original units, from the model's stored particles and
// standardization by hand, without the Stack.
func svgdHand(hidden []int, theta, xMean, xScale []float64, yMean, yScale float64, particles int, x []float64) (means, sds []float64) {
	xs := make([]float64, len(x))
	for j, v := range x {
		xs[j] = (v - xMean[j]) / xScale[j]
	}
	w := len(theta) / particles
	for k := range particles {
		row := theta[k*w : (k+1)*w]
		means = append(means, yMean+yScale*svgdNetLoop(row[:w-2], xs, hidden))
		sds = append(sds, yScale/math.Sqrt(math.Exp(row[w-2])))
	}
	return means, sds
}

// svgdCheckPrediction checks a prediction against the particles' means
// and sds computed by hand: each component, and the mixture's moments
// by the law of total variance. Predict and the hand loop sum in
// different orders: 1e-12 relative is a few thousand ulps.
func svgdCheckPrediction(t *testing.T, p gcp.Prediction, means, sds []float64) {
	t.Helper()
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Errorf("%s = %.15g, by hand %.15g", what, got, want)
		}
	}
	k := float64(len(means))
	var mean, ale, epi float64
	for i := range means {
		mean += means[i] / k
		ale += sds[i] * sds[i] / k
		if len(means) > 1 {
			near("component mean", p.Components[i].Mean, means[i])
			near("component scale", p.Components[i].Scale, sds[i])
			if !math.IsInf(p.Components[i].DoF, 1) {
				t.Errorf("component %d has DoF %v, want +Inf", i, p.Components[i].DoF)
			}
		}
	}
	for _, v := range means {
		epi += (v - mean) * (v - mean) / k
	}
	near("Mean", p.Mean, mean)
	near("VarAleatoric", p.VarAleatoric, ale)
	near("VarEpistemic", p.VarEpistemic, epi)
	near("Var", p.Var, ale+epi)
	near("VarCorrected", p.VarCorrected, ale+epi)
	if p.Loss != gcp.LossGaussianML || p.Members != len(means) || !math.IsInf(p.Alpha, 1) {
		t.Errorf("Loss %v, Members %d, Alpha %v; want LossGaussianML, %d, +Inf", p.Loss, p.Members, p.Alpha, len(means))
	}
}

// castagnoli and svgdCastagnoli are the CRC-32C table with which the
// format tests forge the checksums of saved models: from hash/crc32, not
// from package binfmt, so that they check its CRCs independently.
var (
	castagnoli     = crc32.MakeTable(crc32.Castagnoli)
	svgdCastagnoli = castagnoli
)

// svgdTestTrainer returns a trainer of m particles with initialized
// particles on random standardized data: rows rows of 3 features, one
// hidden layer of 4 units, minibatches of 10 rows.
func svgdTestTrainer(t *testing.T, m, rows int) *svgdTrainer {
	t.Helper()
	const d = 3
	r := rand.New(rand.NewPCG(7, 8))
	x, y := make([]float64, rows*d), make([]float64, rows)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range y {
		y[i] = x[i*d] - x[i*d+1]*x[i*d+2] + 0.3*r.NormFloat64()
	}
	cfg := SVGDConfig{Inputs: d, Hidden: []int{4}, Particles: m, BatchSize: 10, LearningRate: 0.01}.withDefaults()
	stack, err := cfg.validate()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newSVGDTrainer(&SVGD{cfg: cfg, stack: stack}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.initParticles(rand.New(rand.NewPCG(9, 10))); err != nil {
		t.Fatal(err)
	}
	return tr
}

// hiddenCopied reports whether withDefaults, called by with on a Hidden
// of {7}, returns a copy of it: a later change to the caller's slice
// must not reach the configuration.
func hiddenCopied(with func(hidden []int) []int) bool {
	h := []int{7}
	got := with(h)
	h[0] = 9
	return got[0] == 7
}
