package bayes

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"testing"

	"github.com/gcpnet/gcp"
)

// update rewrites the golden file: go test -run TestPBPGolden -update
var update = flag.Bool("update", false, "rewrite testdata/pbp_v1.gcpbp from a fresh Fit")

// goldenFile is a saved version-1 model with two hidden layers, written
// by TestPBPGolden under -update.
const goldenFile = "testdata/pbp_v1.gcpbp"

// goldenInputs are the rows TestPBPGolden predicts.
var goldenInputs = [][]float64{{0, 0}, {0.5, -1}, {-2, 3}, {4, 4}, {-7, 0.25}}

// readGolden returns the golden file's bytes, after rewriting it under
// -update.
func readGolden(t *testing.T) []byte {
	t.Helper()
	if *update {
		if err := os.WriteFile(goldenFile, mustMarshal(t, goldenModel(t)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPBPGolden loads the golden file, checks that saving it again gives the
// same bytes, and checks its predictions against referencePrediction, an
// independent reading of the file by the documented format and forward
// pass written out with other formulas. The reference computes Var z as
// E[z²] − E[z]², which loses up to about 100 ulps to cancellation for the
// units with negative α; 1e-11 relative covers that with room.
func TestPBPGolden(t *testing.T) {
	data := readGolden(t)
	var m PBP
	if err := m.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustMarshal(t, &m), data) {
		t.Error("the loaded golden model saves to other bytes")
	}
	ws := m.NewWorkspace()
	for _, x := range goldenInputs {
		p, err := m.Predict(ws, x)
		if err != nil {
			t.Fatal(err)
		}
		mean, epistemic, aleatoric := referencePrediction(data, x)
		if !close(p.Mean, mean, 1e-11) || !close(p.VarEpistemic, epistemic, 1e-11) || !close(p.VarAleatoric, aleatoric, 1e-11) {
			t.Errorf("x = %v: Predict gives mean %.17g, epistemic %.17g, aleatoric %.17g; the reference %.17g, %.17g, %.17g",
				x, p.Mean, p.VarEpistemic, p.VarAleatoric, mean, epistemic, aleatoric)
		}
	}
}

// referencePrediction reads a saved model by the byte layout that
// MarshalBinary documents and pushes x through PBP's moment equations
// written out directly: for each unit, a ~ N(μ, σ²) with μ = Σ m·z̄/√n
// and σ² = Σ (m²·v_z + v·z̄² + v·v_z)/n over its n inputs and the bias,
// and through a ReLU E[z] = μΦ(α) + σφ(α), E[z²] = (μ²+σ²)Φ(α) + μσφ(α).
// It returns the predictive mean, epistemic and aleatoric variance in
// original units.
func referencePrediction(file []byte, x []float64) (mean, epistemic, aleatoric float64) {
	u32 := func(off int) int { return int(le.Uint32(file[off:])) }
	f64 := func(off int) float64 { return math.Float64frombits(le.Uint64(file[off:])) }
	depth, inputs, params := int(file[12]), u32(13), u32(17)
	widths := []int{inputs}
	for i := range depth {
		widths = append(widths, u32(25+4*i))
	}
	widths = append(widths, 1)
	s := 25 + 4*depth + 20 // the Gammas and the standardization follow Seed, Epochs and the epoch count
	noiseA, noiseB, yMean, yScale := f64(s), f64(s+8), f64(s+32), f64(s+40)
	wm := func(i int) float64 { return f64(s + 48 + 8*i) }
	wv := func(i int) float64 { return f64(s + 48 + 8*(params+i)) }
	xOff := s + 48 + 48*params
	mz, vz := make([]float64, inputs), make([]float64, inputs)
	for j := range inputs {
		mz[j] = (x[j] - f64(xOff+8*j)) / f64(xOff+8*(inputs+j))
	}
	w := 0
	for k := 1; k < len(widths); k++ {
		mz, vz = append(mz, 1), append(vz, 0)
		n := float64(len(mz))
		var nm, nv []float64
		for range widths[k] {
			var mu, s2 float64
			for i := range mz {
				mu += wm(w) * mz[i]
				s2 += wm(w)*wm(w)*vz[i] + wv(w)*mz[i]*mz[i] + wv(w)*vz[i]
				w++
			}
			mu, s2 = mu/math.Sqrt(n), s2/n
			if k < len(widths)-1 {
				sigma := math.Sqrt(s2)
				alpha := mu / sigma
				cdf := 0.5 * (1 + math.Erf(alpha/math.Sqrt2))
				pdf := stdNormal(alpha)
				e1 := mu*cdf + sigma*pdf
				e2 := (mu*mu+s2)*cdf + mu*sigma*pdf
				mu, s2 = e1, e2-e1*e1
			}
			nm, nv = append(nm, mu), append(nv, s2)
		}
		mz, vz = nm, nv
	}
	return yMean + yScale*mz[0], yScale * yScale * vz[0], yScale * yScale * noiseB / (noiseA - 1)
}

// TestPBPRoundTrip checks that MarshalBinary/UnmarshalBinary and
// WriteTo/ReadFrom restore a model that saves to the same bytes and
// predicts the same, that ReadFrom reads models stored one after another
// and stops at the end of the stream with gcp.ErrTruncated and io.EOF,
// and that a nil or zero PBP gets gcp.ErrConfig.
func TestPBPRoundTrip(t *testing.T) {
	a := goldenModel(t)
	b := fitSine(t)
	var stream bytes.Buffer
	for _, m := range []*PBP{a, b} {
		if _, err := m.WriteTo(&stream); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []*PBP{a, b} {
		var got PBP
		if _, err := got.ReadFrom(&stream); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mustMarshal(t, &got), mustMarshal(t, want)) {
			t.Error("ReadFrom restored other bytes")
		}
		x := make([]float64, want.cfg.Inputs)
		p, err1 := want.Predict(want.NewWorkspace(), x)
		q, err2 := got.Predict(got.NewWorkspace(), x)
		if err1 != nil || err2 != nil || p != q {
			t.Errorf("the restored model predicts %+v (%v), the original %+v (%v)", q, err2, p, err1)
		}
	}
	var m PBP
	if _, err := m.ReadFrom(&stream); !errors.Is(err, gcp.ErrTruncated) || !errors.Is(err, io.EOF) {
		t.Errorf("ReadFrom at the end of the stream: %v, want gcp.ErrTruncated and io.EOF", err)
	}
	var nilModel *PBP
	if _, err := nilModel.MarshalBinary(); !errors.Is(err, gcp.ErrConfig) {
		t.Errorf("nil MarshalBinary: %v", err)
	}
	if _, err := new(PBP).MarshalBinary(); !errors.Is(err, gcp.ErrConfig) {
		t.Errorf("zero MarshalBinary: %v", err)
	}
	if err := nilModel.UnmarshalBinary(mustMarshal(t, a)); !errors.Is(err, gcp.ErrConfig) {
		t.Errorf("nil UnmarshalBinary: %v", err)
	}
}

// TestPBPCorruption checks that every truncation of the golden file gives
// gcp.ErrTruncated, from UnmarshalBinary and from ReadFrom, and every
// single-bit flip an error (CRC-32C detects every single-bit error), with
// no panic and the target model unchanged.
func TestPBPCorruption(t *testing.T) {
	data := readGolden(t)
	m := fitSine(t)
	before := mustMarshal(t, m)
	for n := range len(data) {
		if err := m.UnmarshalBinary(data[:n]); !errors.Is(err, gcp.ErrTruncated) {
			t.Errorf("UnmarshalBinary of the first %d bytes: %v, want gcp.ErrTruncated", n, err)
		}
		if _, err := m.ReadFrom(bytes.NewReader(data[:n])); !errors.Is(err, gcp.ErrTruncated) {
			t.Errorf("ReadFrom of the first %d bytes: %v, want gcp.ErrTruncated", n, err)
		}
	}
	flipped := bytes.Clone(data)
	for bit := range 8 * len(data) {
		flipped[bit/8] ^= 1 << (bit % 8)
		if err := m.UnmarshalBinary(flipped); err == nil {
			t.Errorf("bit %d flipped: no error", bit)
		}
		flipped[bit/8] ^= 1 << (bit % 8)
	}
	if !bytes.Equal(before, mustMarshal(t, m)) {
		t.Error("failed loads changed the model")
	}
}

// TestPBPFormatErrors checks the error of each kind of well-sealed but
// invalid file: a wrong magic or version, sizes beyond the limits or
// inconsistent with Hidden, an invalid stored value, trailing bytes.
func TestPBPFormatErrors(t *testing.T) {
	data := readGolden(t)
	const body = headerLen + 4*2 // the golden model has two hidden layers
	scalars := body + 20
	f64 := func(off int, v float64) func([]byte) {
		return func(b []byte) { le.PutUint64(b[off:], math.Float64bits(v)) }
	}
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want error
	}{
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, gcp.ErrMagic},
		{"text-mode line ending", func(b []byte) []byte { return append(append(b[:7:7], '\n'), b[9:]...) }, gcp.ErrMagic},
		{"version 2", func(b []byte) []byte { le.PutUint16(b[10:], 2); return reseal(b) }, gcp.ErrVersion},
		{"65 hidden layers", func(b []byte) []byte { b[12] = 65; return reseal(b) }, gcp.ErrFormat},
		{"no inputs", func(b []byte) []byte { le.PutUint32(b[13:], 0); return reseal(b) }, gcp.ErrFormat},
		{"too many weights", func(b []byte) []byte { le.PutUint32(b[17:], maxParams+1); return reseal(b) }, gcp.ErrFormat},
		{"zero width", func(b []byte) []byte { le.PutUint32(b[headerLen:], 0); return reseal(b) }, gcp.ErrFormat},
		{"width inconsistent with the weight count", func(b []byte) []byte { le.PutUint32(b[headerLen:], 4); return reseal(b) }, gcp.ErrFormat},
		{"zero epochs", func(b []byte) []byte { le.PutUint32(b[body+8:], 0); return reseal(b) }, gcp.ErrConfig},
		{"epochs trained beyond the limit", func(b []byte) []byte { le.PutUint64(b[body+12:], 1<<40); return reseal(b) }, gcp.ErrFormat},
		{"noise shape 1", func(b []byte) []byte { f64(scalars, 1)(b); return reseal(b) }, gcp.ErrFormat},
		{"prior rate 0", func(b []byte) []byte { f64(scalars+24, 0)(b); return reseal(b) }, gcp.ErrFormat},
		{"NaN target mean", func(b []byte) []byte { f64(scalars+32, math.NaN())(b); return reseal(b) }, gcp.ErrNonFinite},
		{"target scale 0", func(b []byte) []byte { f64(scalars+40, 0)(b); return reseal(b) }, gcp.ErrFormat},
		{"infinite weight mean", func(b []byte) []byte { f64(scalars+48, math.Inf(1))(b); return reseal(b) }, gcp.ErrNonFinite},
		{"zero weight variance", func(b []byte) []byte { f64(scalars+48+8*20, 0)(b); return reseal(b) }, gcp.ErrFormat},
		{"negative feature scale", func(b []byte) []byte { f64(len(b)-crcLen-8, -1)(b); return reseal(b) }, gcp.ErrFormat},
		{"a byte appended", func(b []byte) []byte { return append(b, 0) }, gcp.ErrFormat},
	} {
		var m PBP
		if err := m.UnmarshalBinary(c.edit(bytes.Clone(data))); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}
