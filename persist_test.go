// Tests of the saved-model format (persist.go): round trips, the
// documented layout of every version, malformed and truncated input,
// streams, and FuzzUnmarshal. The golden files of every earlier version
// are in persist_golden_test.go, saving and loading files in file_test.go.

package gcp

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// persistSentinels are the errors a load may fail with; each bad input
// must match exactly one of them.
var persistSentinels = []error{ErrMagic, ErrVersion, ErrTruncated, ErrChecksum, ErrFormat, ErrConfig, ErrNonFinite, ErrOverflow}

// persistKind returns the one sentinel err matches, or an error saying why
// there is not exactly one.
func persistKind(err error) (error, error) {
	var kinds []error
	for _, s := range persistSentinels {
		if errors.Is(err, s) {
			kinds = append(kinds, s)
		}
	}
	if len(kinds) != 1 {
		return nil, fmt.Errorf("error %q matches %d sentinels %v, want exactly one", err, len(kinds), kinds)
	}
	return kinds[0], nil
}

// persistDiff compares two models field by field, floats bit for bit.
func persistDiff[T Float](want, got *Model[T]) string {
	return cmp.Diff(want, got,
		cmp.AllowUnexported(Model[T]{}, layout{}, layer{}, extensions{}, Encoding{}, conformalScores{}),
		cmp.Comparer(func(a, b *kernelSet[T]) bool { return a == b }),
		cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }),
		cmp.Comparer(func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }))
}

// persistBits returns the IEEE 754 bits of v in T's own width.
func persistBits[T Float](v T) uint64 {
	if elemSize[T]() == 4 {
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(float64(v))
}

// persistData returns n rows of d features and targets whose mean and
// spread depend on the row, so that a fitted model is far from its
// initial weights and its standardization far from the identity.
func persistData[T Float](seed uint64, n, d int) (x, y []T) {
	r := rand.New(rand.NewPCG(seed, 1))
	x, y = make([]T, n*d), make([]T, n)
	for i := range y {
		s := 10.0
		for j := 0; j < d; j++ {
			v := float64(j+1)*r.NormFloat64() + float64(j)
			x[i*d+j] = T(v)
			s += v * float64(1-j%3)
		}
		y[i] = T(s + (0.5+math.Abs(s-10))*r.NormFloat64())
	}
	return x, y
}

// persistFitted returns a model of shape cfg trained by Fit for a few
// epochs, so that it has non-initial weights and a standardization.
func persistFitted[T Float](t testing.TB, cfg Config) *Model[T] {
	t.Helper()
	m, err := New[T](cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(m, TrainConfig{LearningRate: 1e-2, BatchSize: 16, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	x, y := persistData[T](cfg.Seed, 64, cfg.Inputs)
	if _, err := tr.Fit(x, y, FitOptions[T]{Epochs: 3, Seed: 6}); err != nil {
		t.Fatal(err)
	}
	// Forget the ranges Fit recorded, so that the model is written in
	// version 1 or 2, whose layout these tests check; persistFittedV3
	// keeps them.
	m.xMin, m.xMax = nil, nil
	return m
}

// persistFittedV3 returns persistFitted's model with everything version 3
// adds: feature names, recorded ranges and calibration scales.
func persistFittedV3[T Float](t testing.TB, cfg Config) *Model[T] {
	t.Helper()
	m := persistFitted[T](t, cfg)
	x, _ := persistData[T](cfg.Seed, 64, cfg.Inputs)
	m.extendRanges(x)
	names := make([]string, cfg.Inputs)
	for j := range names {
		names[j] = fmt.Sprintf("feature %d, ünïcode", j)
	}
	if err := m.SetFeatureNames(names, "the target"); err != nil {
		t.Fatal(err)
	}
	if err := m.SetVarScale(1.25); err != nil {
		t.Fatal(err)
	}
	if err := m.SetCorrectedScale(0.75); err != nil {
		t.Fatal(err)
	}
	return m
}

// persistFittedV5 returns persistFittedV3's model with a section of
// version 5: the log target transform.
func persistFittedV5[T Float](t testing.TB, cfg Config) *Model[T] {
	t.Helper()
	m := persistFittedV3[T](t, cfg)
	if err := m.SetTargetTransform(TransformLog); err != nil {
		t.Fatal(err)
	}
	return m
}

// persistPredict returns m's predictions for the rows of x.
func persistPredict[T Float](t testing.TB, m *Model[T], x []T) []Prediction {
	t.Helper()
	out := make([]Prediction, len(x)/m.cfg.Inputs)
	if err := m.PredictBatch(m.NewWorkspace(), x, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// persistFixCRCs returns a copy of b with the header CRC and the final CRC
// recomputed wherever b is long enough to hold them, so that a patched
// field reaches the checks behind the CRCs.
func persistFixCRCs(b []byte) []byte {
	b = slices.Clone(b)
	hl := headerLen
	if len(b) >= 10 && le.Uint16(b[8:]) <= fileVersionCopula {
		hl = int(header{version: int(le.Uint16(b[8:]))}.headerLen())
	}
	if len(b) >= hl {
		le.PutUint32(b[hl-crcLen:], crc32.Checksum(b[:hl-crcLen], castagnoli))
	}
	if len(b) >= hl+crcLen {
		end := len(b) - crcLen
		le.PutUint32(b[end:], crc32.Checksum(b[:end], castagnoli))
	}
	return b
}

// persistOffsets are the offsets of a saved model's fields for D hidden
// layers, I inputs and L bytes of loss fields (0 in version 1, 13 in
// version 2), written out from MarshalBinary's doc comment.
type persistOffsets struct {
	hidden, activation, standardized, dropout, fixedAlpha, seed int
	loss, dpdGamma, mcSamples                                   int
	yMean, yScale, xMean, xScale, params                        int
}

func persistOffsetsFor(d, i, l int) persistOffsets {
	return persistOffsets{
		hidden: 24, activation: 24 + 4*d, standardized: 25 + 4*d,
		dropout: 26 + 4*d, fixedAlpha: 34 + 4*d, seed: 42 + 4*d,
		loss: 50 + 4*d, dpdGamma: 51 + 4*d, mcSamples: 59 + 4*d,
		yMean: 50 + 4*d + l, yScale: 58 + 4*d + l,
		xMean: 66 + 4*d + l, xScale: 66 + 4*d + l + 8*i, params: 66 + 4*d + l + 16*i,
	}
}

// persistConfigs cover the defaults, both activations, dropout, a fixed α,
// several hidden layers, each comparator loss (format version 2) and
// ensembles (version 4).
var persistConfigs = []Config{
	{Inputs: 1, Seed: 1},
	{Inputs: 3, Hidden: []int{5, 4}, Activation: Tanh, Dropout: 0.25, Seed: 2},
	{Inputs: 2, Hidden: []int{3, 3, 3}, FixedAlpha: 1.5, Seed: 3},
	{Inputs: 2, Hidden: []int{4}, Loss: LossGaussianML, Seed: 4},
	{Inputs: 3, Hidden: []int{5, 3}, Loss: LossDPD, DPDGamma: 0.25, Dropout: 0.1, Seed: 5},
	{Inputs: 2, Hidden: []int{6}, Loss: LossMLBayes, Dropout: 0.4, MCSamples: 9, Seed: 6},
	{Inputs: 2, Hidden: []int{4, 3}, Members: 3, Seed: 7},
	{Inputs: 2, Hidden: []int{5}, Loss: LossMLBayes, Dropout: 0.3, MCSamples: 4, Members: 2, Seed: 8},
}

func TestPersistRoundTrip(t *testing.T) {
	for i, cfg := range persistConfigs {
		t.Run(fmt.Sprintf("float32/%d", i), func(t *testing.T) { persistRoundTrip[float32](t, cfg) })
		t.Run(fmt.Sprintf("float64/%d", i), func(t *testing.T) { persistRoundTrip[float64](t, cfg) })
	}
}

// persistRoundTrip checks that a fresh model, a fitted one and one with a
// standardization set by hand come back identical through MarshalBinary
// and UnmarshalBinary, and through WriteTo and ReadFrom, and then predict
// and train exactly as the original.
func persistRoundTrip[T Float](t *testing.T, cfg Config) {
	fresh, err := New[T](cfg)
	if err != nil {
		t.Fatal(err)
	}
	set := fresh.Clone()
	xMean, xScale := make([]float64, cfg.Inputs), make([]float64, cfg.Inputs)
	for j := range xMean {
		xMean[j], xScale[j] = -1.0/3+float64(j), 0.1*float64(j+1)
	}
	if err := set.SetStandardization(xMean, xScale, 1e-3, 7.25); err != nil {
		t.Fatal(err)
	}
	x, y := persistData[T](99, 8, cfg.Inputs)
	for name, orig := range map[string]*Model[T]{"fresh": fresh, "fitted": persistFitted[T](t, cfg), "set": set, "version3": persistFittedV3[T](t, cfg), "version5": persistFittedV5[T](t, cfg), "encoded": persistEncoded[T](t, cfg)} {
		t.Run(name, func(t *testing.T) { persistRoundTripOf(t, orig, x, y) })
	}
}

// persistRoundTripOf checks the round trips of one model.
func persistRoundTripOf[T Float](t *testing.T, orig *Model[T], x, y []T) {
	b, err := orig.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model[T] // a zero Model must load too
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(orig, &got); d != "" {
		t.Fatalf("UnmarshalBinary(MarshalBinary()) differs (-want +got):\n%s", d)
	}
	if b2, err := got.MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
		t.Fatalf("re-marshalled model differs from the original bytes (err %v)", err)
	}
	var buf bytes.Buffer
	if n, err := orig.WriteTo(&buf); err != nil || n != int64(len(b)) || !bytes.Equal(buf.Bytes(), b) {
		t.Fatalf("WriteTo = %d, %v; want %d bytes equal to MarshalBinary's", n, err, len(b))
	}
	var read Model[T]
	if n, err := read.ReadFrom(&buf); err != nil || n != int64(len(b)) {
		t.Fatalf("ReadFrom = %d, %v; want %d, nil", n, err, len(b))
	}
	if d := persistDiff(orig, &read); d != "" {
		t.Fatalf("ReadFrom(WriteTo()) differs (-want +got):\n%s", d)
	}
	if d := cmp.Diff(persistPredict(t, orig, x), persistPredict(t, &got, x), persistBitwise); d != "" {
		t.Fatalf("predictions differ (-original +loaded):\n%s", d)
	}
	persistTrainAlike(t, orig.Clone(), &got, x, y)
}

// persistBitwise makes cmp compare float64s bit for bit, Predictions
// with their score map.
var persistBitwise = cmp.Options{
	cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }),
	cmp.AllowUnexported(Prediction{}, scoreMap{}), // a Prediction's score map, zero but for a conditional marginal
}

// persistTrainAlike trains a and b with the same trainer settings and
// batches and checks that losses and final models agree bit for bit.
func persistTrainAlike[T Float](t *testing.T, a, b *Model[T], x, y []T) {
	t.Helper()
	var losses [2][]float64
	for k, m := range []*Model[T]{a, b} {
		tr, err := NewTrainer(m, TrainConfig{LearningRate: 1e-2, BatchSize: len(y), Seed: 8})
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 3; step++ {
			loss, err := tr.Step(x, y)
			if err != nil {
				t.Fatal(err)
			}
			losses[k] = append(losses[k], loss)
		}
	}
	if d := cmp.Diff(losses[0], losses[1], persistBitwise); d != "" {
		t.Fatalf("training losses differ (-original +loaded):\n%s", d)
	}
	if d := persistDiff(a, b); d != "" {
		t.Fatalf("trained models differ (-original +loaded):\n%s", d)
	}
}

// TestPersistLayout checks the offsets documented on MarshalBinary against
// what it writes.
func TestPersistLayout(t *testing.T) {
	m := persistFitted[float32](t, Config{Inputs: 3, Hidden: []int{5, 4}, Activation: Tanh, Dropout: 0.25, FixedAlpha: 2, Seed: 0x0102030405060708})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d, in, p := len(m.cfg.Hidden), m.cfg.Inputs, len(m.params)
	o := persistOffsetsFor(d, in, 0)
	f64 := func(off int) float64 { return math.Float64frombits(le.Uint64(b[off:])) }
	got := []any{
		string(b[:8]), le.Uint16(b[8:]), b[10], b[11], le.Uint32(b[12:]), le.Uint32(b[16:]),
		le.Uint32(b[20:]) == crc32.Checksum(b[:20], castagnoli),
		le.Uint32(b[o.hidden:]), le.Uint32(b[o.hidden+4:]), b[o.activation], b[o.standardized],
		f64(o.dropout), f64(o.fixedAlpha), le.Uint64(b[o.seed:]), f64(o.yMean), f64(o.yScale),
		f64(o.xMean + 16), f64(o.xScale + 16), math.Float32frombits(le.Uint32(b[o.params+4*(p-1):])),
		len(b), le.Uint32(b[len(b)-4:]) == crc32.Checksum(b[:len(b)-4], castagnoli),
	}
	want := []any{
		"GCPM\x89\r\n\x1a", uint16(1), byte(4), byte(2), uint32(3), uint32(p),
		true,
		uint32(5), uint32(4), byte(Tanh), byte(1),
		0.25, 2.0, uint64(0x0102030405060708), m.yMean, m.yScale,
		m.xMean[2], m.xScale[2], m.params[p-1],
		70 + 4*d + 16*in + 4*p, true,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("fields at the documented offsets (-want +got):\n%s", d)
	}
}

// TestPersistLayoutVersion3 checks the offsets documented on
// MarshalBinary for version 3: the names' length in the header, the loss
// fields of a GCP model, and the calibration, ranges and names between the
// standardization and the parameters.
// TestPersistLayoutVersion4 checks an ensemble's file against the layout
// MarshalBinary documents: version 4, Members after MCSamples, everything
// after it shifted by 4, 108 + 4D + 32I + N + EP bytes; and that a file
// claiming one member (a version-1 to -3 model), more than MaxMembers,
// or another count than its parameters hold is rejected.
func TestPersistLayoutVersion4(t *testing.T) {
	m := persistFitted[float64](t, Config{Inputs: 2, Hidden: []int{3}, Members: 3, Seed: 22})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d, in, p := len(m.cfg.Hidden), m.cfg.Inputs, len(m.params)
	o := persistOffsetsFor(d, in, lossLen+membersLen)
	const shift = 4 // the names' length in the header
	members := 4 + o.mcSamples + shift
	got := []any{le.Uint16(b[8:]), le.Uint32(b[members:]), math.Float64frombits(le.Uint64(b[o.yScale+shift:])), len(b)}
	want := []any{uint16(4), uint32(3), m.yScale, 108 + 4*d + 32*in + 8*p}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("version-4 layout (-want +got):\n%s", d)
	}
	for _, tc := range []struct {
		members uint32
		want    error
	}{{1, ErrFormat}, {0, ErrConfig}, {MaxMembers + 1, ErrConfig}, {2, ErrFormat}} {
		c := slices.Clone(b)
		le.PutUint32(c[members:], tc.members)
		var got Model[float64]
		if err := got.UnmarshalBinary(persistFixCRCs(c)); !errors.Is(err, tc.want) {
			t.Errorf("Members = %d: got %v, want %v", tc.members, err, tc.want)
		}
	}
}

func TestPersistLayoutVersion3(t *testing.T) {
	m := persistFittedV3[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 21})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d, in, p := len(m.cfg.Hidden), m.cfg.Inputs, len(m.params)
	names := 0
	for _, name := range append([]string{m.targetName}, m.featureNames...) {
		names += 2 + len(name)
	}
	const shift = 4 // the names' length in the header
	o := persistOffsetsFor(d, in, lossLen)
	at := func(off int) int { return off + shift }
	f64 := func(off int) float64 { return math.Float64frombits(le.Uint64(b[off:])) }
	data := at(o.params) // S, where version 3's fields start
	nameAt := data + 17 + 16*in
	got := []any{
		le.Uint16(b[8:]), le.Uint32(b[20:]), le.Uint32(b[24:]) == crc32.Checksum(b[:24], castagnoli),
		le.Uint32(b[at(o.hidden):]), b[at(o.loss)], f64(at(o.yScale)), f64(at(o.xScale) + 8),
		f64(data), f64(data + 8), b[data+16], f64(data + 17 + 8), f64(data + 17 + 8*in + 8),
		le.Uint16(b[nameAt:]), string(b[nameAt+2 : nameAt+2+len(m.targetName)]),
		f64(nameAt + names + 8*(p-1)), len(b),
	}
	want := []any{
		uint16(3), uint32(names), true,
		uint32(3), byte(LossGCP), m.yScale, m.xScale[1],
		1.25, 0.75, byte(1), m.xMin[1], m.xMax[1],
		uint16(len(m.targetName)), m.targetName,
		m.params[p-1], 104 + 4*d + 32*in + names + 8*p,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("fields at the documented offsets (-want +got):\n%s", d)
	}
}

// TestUnmarshalRejectsVersion3 checks that version 3's fields hold only
// what the API can set: each malformed file gets its sentinel, with both
// CRCs fixed so that the check itself, not the checksum, must catch it.
func TestUnmarshalRejectsVersion3(t *testing.T) {
	m := persistFittedV3[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 22})
	base, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	in := m.cfg.Inputs
	data := persistOffsetsFor(1, in, lossLen).params + 4
	names := data + 17 + 16*in
	put := func(off int, v float64) func([]byte) {
		return func(b []byte) { le.PutUint64(b[off:], math.Float64bits(v)) }
	}
	for _, tc := range []struct {
		name string
		edit func([]byte)
		want error
	}{
		{"VarScale 0", put(data, 0), ErrNonFinite},
		{"CorrectedScale NaN", put(data+8, math.NaN()), ErrNonFinite},
		{"CorrectedScale −1", put(data+8, -1), ErrNonFinite},
		{"ranges flag 2", func(b []byte) { b[data+16] = 2 }, ErrFormat},
		{"unrecorded ranges not zero", func(b []byte) { b[data+16] = 0 }, ErrFormat},
		{"range lo > hi", put(data+17, 1e300), ErrFormat},
		{"range Inf", put(data+17+8*in, math.Inf(1)), ErrFormat},
		{"name past the section", func(b []byte) { le.PutUint16(b[names:], 60000) }, ErrFormat},
		{"invalid UTF-8", func(b []byte) { b[names+2] = 0xff }, ErrFormat},
		{"duplicate feature names", func(b []byte) {
			// The two feature names differ only in their digit.
			i := bytes.Index(b[names:], []byte("feature 1"))
			b[names+i+8] = '0'
		}, ErrFormat},
		{"names length too large", func(b []byte) { le.PutUint32(b[20:], uint32(maxNamesLen(in)+1)) }, ErrFormat},
		{"names length off by one", func(b []byte) { le.PutUint32(b[20:], le.Uint32(b[20:])-1) }, ErrFormat},
	} {
		b := slices.Clone(base)
		tc.edit(b)
		b = persistFixCRCs(b)
		var got Model[float64]
		err := got.UnmarshalBinary(b)
		if kind, kerr := persistKind(err); kerr != nil || kind != tc.want {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		// ReadFrom reads as many bytes as the header claims: one less
		// names byte leaves the stored CRC unread, a checksum failure.
		if n, err := got.ReadFrom(bytes.NewReader(b)); !errors.Is(err, tc.want) && !errors.Is(err, ErrChecksum) {
			t.Errorf("%s: ReadFrom = %d, %v; want %v", tc.name, n, err, tc.want)
		}
	}
}

// TestPersistLayoutVersion2 checks the offsets of version 2, which inserts
// the loss fields after Seed.
func TestPersistLayoutVersion2(t *testing.T) {
	m := persistFitted[float64](t, Config{Inputs: 2, Hidden: []int{3}, Loss: LossMLBayes, Dropout: 0.5, MCSamples: 0x0102, Seed: 9})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d, in, p := len(m.cfg.Hidden), m.cfg.Inputs, len(m.params)
	o := persistOffsetsFor(d, in, lossLen)
	f64 := func(off int) float64 { return math.Float64frombits(le.Uint64(b[off:])) }
	got := []any{
		le.Uint16(b[8:]), le.Uint64(b[o.seed:]), b[o.loss], f64(o.dpdGamma), le.Uint32(b[o.mcSamples:]),
		f64(o.yMean), f64(o.yScale), f64(o.xMean + 8), f64(o.xScale + 8), f64(o.params + 8*(p-1)),
		len(b), le.Uint32(b[len(b)-4:]) == crc32.Checksum(b[:len(b)-4], castagnoli),
	}
	want := []any{
		uint16(2), uint64(9), byte(LossMLBayes), 0.0, uint32(0x0102),
		m.yMean, m.yScale, m.xMean[1], m.xScale[1], m.params[p-1],
		70 + 4*d + lossLen + 16*in + 8*p, true,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("fields at the documented offsets (-want +got):\n%s", d)
	}
}

func TestPersistCrossType(t *testing.T) {
	cfg := Config{Inputs: 3, Hidden: []int{5, 4}, Activation: Tanh, Seed: 4}
	m32, m64 := persistFitted[float32](t, cfg), persistFitted[float64](t, cfg)
	b32, err := m32.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b64, err := m64.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}

	// float32 → float64 is exact, and back again gives the same bytes.
	var wide Model[float64]
	if err := wide.UnmarshalBinary(b32); err != nil {
		t.Fatal(err)
	}
	for i, v := range m32.params {
		if wide.params[i] != float64(v) {
			t.Fatalf("param %d: float32 %v loaded as float64 %v", i, v, wide.params[i])
		}
	}
	bw, err := wide.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Model[float32]
	if err := back.UnmarshalBinary(bw); err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(m32, &back); d != "" {
		t.Fatalf("float32 → float64 → float32 differs (-want +got):\n%s", d)
	}

	// float64 → float32 rounds each parameter to nearest.
	var narrow Model[float32]
	if err := narrow.UnmarshalBinary(b64); err != nil {
		t.Fatal(err)
	}
	for i, v := range m64.params {
		if math.Float32bits(narrow.params[i]) != math.Float32bits(float32(v)) {
			t.Fatalf("param %d: float64 %v loaded as float32 %v, want %v", i, v, narrow.params[i], float32(v))
		}
	}
	if d := cmp.Diff(m64.Config(), narrow.Config()); d != "" {
		t.Fatalf("Config changed in float64 → float32 (-want +got):\n%s", d)
	}

	// The edges of the float32 range: below the rounding threshold a value
	// rounds to ±MaxFloat32, from it on it is an error, never ±Inf; tiny
	// values round to subnormals or zero.
	o := persistOffsetsFor(len(cfg.Hidden), cfg.Inputs, 0)
	for _, c := range []struct {
		v    float64
		want float32
		err  error
	}{
		{math.Nextafter(float32Overflow, 0), math.MaxFloat32, nil},
		{-math.Nextafter(float32Overflow, 0), -math.MaxFloat32, nil},
		{float32Overflow, 0, ErrOverflow},
		{-float32Overflow, 0, ErrOverflow},
		{1e300, 0, ErrOverflow},
		{math.MaxFloat64, 0, ErrOverflow},
		{1e-45, math.SmallestNonzeroFloat32, nil},
		{1e-46, 0, nil},
		{-1e-300, float32(math.Copysign(0, -1)), nil},
	} {
		b := slices.Clone(b64)
		le.PutUint64(b[o.params:], math.Float64bits(c.v))
		b = persistFixCRCs(b)
		var m Model[float32]
		err := m.UnmarshalBinary(b)
		if !errors.Is(err, c.err) || err == nil && math.Float32bits(m.params[0]) != math.Float32bits(c.want) {
			t.Errorf("float64 parameter %g as float32: %v, %v; want %v, %v", c.v, m.params[:min(1, len(m.params))], err, c.want, c.err)
		}
		var m64 Model[float64]
		if err := m64.UnmarshalBinary(b); err != nil || m64.params[0] != c.v {
			t.Errorf("float64 parameter %g as float64: %v", c.v, err)
		}
	}
}

func TestMarshalZeroModel(t *testing.T) {
	var null *Model[float64]
	if _, err := null.MarshalBinary(); !errors.Is(err, ErrConfig) {
		t.Errorf("nil Model: MarshalBinary error %v, want ErrConfig", err)
	}
	if err := SaveFile(filepath.Join(t.TempDir(), "m.gcpm"), null); !errors.Is(err, ErrConfig) {
		t.Errorf("nil Model: SaveFile error %v, want ErrConfig", err)
	}
	var zero Model[float32]
	if _, err := zero.MarshalBinary(); !errors.Is(err, ErrConfig) {
		t.Errorf("zero Model: MarshalBinary error %v, want ErrConfig", err)
	}
	if _, err := zero.WriteTo(io.Discard); !errors.Is(err, ErrConfig) {
		t.Errorf("zero Model: WriteTo error %v, want ErrConfig", err)
	}
}

// TestPersistExtremeStandardization saves the extremes SetStandardization
// accepts, a -0 mean, the largest feature scale and a tiny one (1e-308,
// whose inverse 1e308 is still finite), and the largest target scale,
// 2²⁵⁶ (robust.TargetScaleOK): whatever the API can build, a file can hold.
func TestPersistExtremeStandardization(t *testing.T) {
	m, err := New[float64](Config{Inputs: 3, Hidden: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	negZero := math.Copysign(0, -1)
	xMean, xScale := []float64{negZero, -math.MaxFloat64, 1e-310}, []float64{1e-308, math.MaxFloat64, 1}
	if err := m.SetStandardization(xMean, xScale, negZero, 0x1p256); err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model[float64]
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if d := persistDiff(m, &got); d != "" {
		t.Fatalf("round trip differs (-want +got):\n%s", d)
	}
	if b2, err := got.MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
		t.Fatalf("re-marshalled model differs from the original bytes (err %v)", err)
	}
}

// persistBadCase is a malformed input and the sentinel it must give.
type persistBadCase struct {
	name string
	data []byte
	want error
	// readFromOK marks data that holds a valid model followed by more
	// bytes: ReadFrom reads the model and stops, UnmarshalBinary and
	// LoadFile reject the rest.
	readFromOK bool
}

// persistBadCases returns malformed variants of a small standardized
// float64 model, with both CRCs fixed wherever the point is a check behind
// them.
func persistBadCases(t *testing.T) []persistBadCase {
	m, err := New[float64](Config{Inputs: 2, Hidden: []int{3, 2}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetStandardization([]float64{1, -2}, []float64{0.5, 4}, 3, 2); err != nil {
		t.Fatal(err)
	}
	base, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	o := persistOffsetsFor(2, 2, 0)
	p := len(m.params)
	patch := func(off int, v []byte) []byte { return persistPatch(base, off, v) }
	u32 := func(v uint32) []byte { return le.AppendUint32(nil, v) }
	f64 := func(v float64) []byte { return le.AppendUint64(nil, math.Float64bits(v)) }
	flip := func(off int, bit uint) []byte {
		b := slices.Clone(base)
		b[off] ^= 1 << bit
		return b
	}
	end := len(base) - crcLen
	oneShort := persistFixCRCs(append(slices.Clone(base[:end-8]), base[end:]...))
	copy(oneShort[16:], u32(uint32(p-1)))
	oneExtra := append(slices.Clone(base[:end]), append(f64(0.5), base[end:]...)...)
	copy(oneExtra[16:], u32(uint32(p+1)))
	zeroLayout, _ := newLayout(0, 1, 4, []int{2})
	zeroInputs := &Model[float64]{cfg: Config{Inputs: 0, Hidden: []int{2}}, yScale: 1,
		params: make([]float64, zeroLayout.size)}
	nan := math.NaN()
	inf := math.Inf(1)
	return append([]persistBadCase{
		{"empty", nil, ErrTruncated, false},
		{"text", []byte("this is not a model at all"), ErrMagic, false},
		{"magic prefix only", []byte("GCPM"), ErrTruncated, false},
		{"eighth bit stripped", patch(4, []byte{0x09}), ErrMagic, false},
		{"CRLF to LF", append([]byte("GCPM\x89\n\x1a"), base[8:]...), ErrMagic, false},
		{"LF to CRLF", append([]byte("GCPM\x89\r\r\n\x1a"), base[8:]...), ErrMagic, false},
		{"version 0", patch(8, []byte{0, 0}), ErrVersion, false},
		{"version 9", patch(8, []byte{9, 0}), ErrVersion, false},
		{"version 65535", patch(8, []byte{0xff, 0xff}), ErrVersion, false},
		{"header only", base[:headerLen], ErrTruncated, false},
		{"last byte missing", base[:len(base)-1], ErrTruncated, false},
		{"bit flip in header", flip(12, 3), ErrChecksum, false},
		{"bit flip in header CRC", flip(21, 0), ErrChecksum, false},
		{"bit flip in a parameter", flip(o.params+13, 6), ErrChecksum, false},
		{"bit flip in final CRC", flip(len(base)-1, 7), ErrChecksum, false},
		{"trailing byte", append(slices.Clone(base), 0), ErrFormat, true},
		{"second model after", append(slices.Clone(base), base...), ErrFormat, true},
		{"element size 2", patch(10, []byte{2}), ErrFormat, false},
		{"element size 0", patch(10, []byte{0}), ErrFormat, false},
		{"depth 0", patch(11, []byte{0}), ErrFormat, false},
		{"depth maxDepth+1", patch(11, []byte{maxDepth + 1}), ErrFormat, false},
		{"depth 255", patch(11, []byte{255}), ErrFormat, false},
		{"inputs maxWidth+1", patch(12, u32(maxWidth+1)), ErrFormat, false},
		{"inputs 2^32-1", patch(12, u32(math.MaxUint32)), ErrFormat, false},
		{"params maxParams+1", patch(16, u32(maxParams+1)), ErrFormat, false},
		{"params 2^32-1", patch(16, u32(math.MaxUint32)), ErrFormat, false},
		{"params one short of the layout", persistFixCRCs(oneShort), ErrFormat, false},
		{"params one more than the layout", persistFixCRCs(oneExtra), ErrFormat, false},
		{"width 2^32-1", patch(o.hidden, u32(math.MaxUint32)), ErrFormat, false},
		{"width maxWidth+1", patch(o.hidden+4, u32(maxWidth+1)), ErrFormat, false},
		{"width changed", patch(o.hidden, u32(4)), ErrFormat, false},
		{"FixedAlpha drops the α head", patch(o.fixedAlpha, f64(2)), ErrFormat, false},
		{"standardized flag 2", patch(o.standardized, []byte{2}), ErrFormat, false},
		{"unstandardized, not identity", patch(o.standardized, []byte{0}), ErrFormat, false},
		{"inputs 0", zeroInputs.encode(), ErrConfig, false},
		{"width 0", patch(o.hidden, u32(0)), ErrConfig, false},
		{"activation 2", patch(o.activation, []byte{2}), ErrConfig, false},
		{"dropout 1", patch(o.dropout, f64(1)), ErrConfig, false},
		{"dropout -0.5", patch(o.dropout, f64(-0.5)), ErrConfig, false},
		{"dropout NaN", patch(o.dropout, f64(nan)), ErrConfig, false},
		{"FixedAlpha -1", patch(o.fixedAlpha, f64(-1)), ErrConfig, false},
		{"FixedAlpha +Inf", patch(o.fixedAlpha, f64(inf)), ErrConfig, false},
		{"FixedAlpha NaN", patch(o.fixedAlpha, f64(nan)), ErrConfig, false},
		{"yMean NaN", patch(o.yMean, f64(nan)), ErrNonFinite, false},
		{"yMean +Inf", patch(o.yMean, f64(inf)), ErrNonFinite, false},
		{"yScale 0", patch(o.yScale, f64(0)), ErrNonFinite, false},
		{"yScale -1", patch(o.yScale, f64(-1)), ErrNonFinite, false},
		{"yScale +Inf", patch(o.yScale, f64(inf)), ErrNonFinite, false},
		{"xMean -Inf", patch(o.xMean+8, f64(-inf)), ErrNonFinite, false},
		{"xScale 0", patch(o.xScale, f64(0)), ErrNonFinite, false},
		{"xScale -2", patch(o.xScale, f64(-2)), ErrNonFinite, false},
		{"xScale NaN", patch(o.xScale+8, f64(nan)), ErrNonFinite, false},
		{"xScale +Inf", patch(o.xScale+8, f64(inf)), ErrNonFinite, false},
		{"first parameter NaN", patch(o.params, f64(nan)), ErrNonFinite, false},
		{"last parameter +Inf", patch(o.params+8*(p-1), f64(inf)), ErrNonFinite, false},
		{"a parameter -Inf", patch(o.params+8*7, f64(-inf)), ErrNonFinite, false},
	}, persistBadCasesVersion2(t)...)
}

// persistBadCasesVersion2 returns malformed variants of a version-2 model:
// its loss fields out of range, and a GCP model written as version 2.
func persistBadCasesVersion2(t *testing.T) []persistBadCase {
	m, err := New[float64](Config{Inputs: 2, Hidden: []int{3}, Loss: LossDPD, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	base, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	gcpModel, err := New[float64](Config{Inputs: 2, Hidden: []int{3}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v1, err := gcpModel.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	o := persistOffsetsFor(1, 2, lossLen)
	f64 := func(v float64) []byte { return le.AppendUint64(nil, math.Float64bits(v)) }
	// Read as version 1, the two heads' parameters are too few for GCP.
	stripped := append(slices.Clone(base[:o.loss]), base[o.loss+lossLen:]...)
	return []persistBadCase{
		{"v2: Loss GCP", persistPatch(base, o.loss, []byte{byte(LossGCP)}), ErrFormat, false},
		{"v2: Loss 4", persistPatch(base, o.loss, []byte{4}), ErrConfig, false},
		{"v2: DPDGamma 0", persistPatch(base, o.dpdGamma, f64(0)), ErrConfig, false},
		{"v2: DPDGamma NaN", persistPatch(base, o.dpdGamma, f64(math.NaN())), ErrConfig, false},
		{"v2: MCSamples without LossMLBayes", persistPatch(base, o.mcSamples, le.AppendUint32(nil, 5)), ErrConfig, false},
		{"v2: LossMLBayes without dropout", persistPatch(base, o.loss, []byte{byte(LossMLBayes)}), ErrConfig, false},
		{"v2 model without its loss fields, labelled version 1", persistPatch(stripped, 8, []byte{1, 0}), ErrFormat, false},
		{"v1 model labelled version 2", persistPatch(v1, 8, []byte{2, 0}), ErrTruncated, false},
	}
}

// persistPatch returns a copy of base with v written at off and both CRCs
// fixed.
func persistPatch(base []byte, off int, v []byte) []byte {
	b := slices.Clone(base)
	copy(b[off:], v)
	return persistFixCRCs(b)
}

// TestUnmarshalRejects checks every malformed input through
// UnmarshalBinary, ReadFrom and LoadFile: the one sentinel it must match,
// and a receiver left as it was, zero or holding another model.
func TestUnmarshalRejects(t *testing.T) {
	dir := t.TempDir()
	prev, err := New[float64](Config{Inputs: 1, Hidden: []int{2}, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range persistBadCases(t) {
		t.Run(c.name, func(t *testing.T) {
			check := func(how string, err, want error) {
				t.Helper()
				if want == nil && err == nil {
					return
				}
				kind, kerr := persistKind(err)
				if kerr != nil || kind != want {
					t.Errorf("%s: error %v, want %v (%v)", how, err, want, kerr)
				}
			}
			for _, recv := range [][2]*Model[float64]{{{}, {}}, {prev.Clone(), prev.Clone()}} {
				recv, before := recv[0], recv[1]
				check("UnmarshalBinary", recv.UnmarshalBinary(c.data), c.want)
				if d := persistDiff(before, recv); d != "" {
					t.Errorf("UnmarshalBinary changed the receiver (-before +after):\n%s", d)
				}
				n, err := recv.ReadFrom(bytes.NewReader(c.data))
				if c.readFromOK {
					if err != nil || n != int64(len(persistFirstModel(c.data))) {
						t.Errorf("ReadFrom = %d, %v; want the first %d bytes, nil", n, err, len(persistFirstModel(c.data)))
					}
					continue
				}
				check("ReadFrom", err, c.want)
				if d := persistDiff(before, recv); d != "" {
					t.Errorf("ReadFrom changed the receiver (-before +after):\n%s", d)
				}
			}
			path := filepath.Join(dir, fmt.Sprintf("case%d.gcpm", i))
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := LoadFile[float64](path)
			check("LoadFile", err, c.want)
			if m != nil {
				t.Errorf("LoadFile returned a model with error %v", err)
			}
		})
	}
}

// persistFirstModel returns the first model in data, which holds at least
// one valid model; ReadFrom must read exactly that much.
func persistFirstModel(data []byte) []byte {
	h, err := parseHeader(data)
	if err != nil {
		panic(err)
	}
	return data[:h.size()]
}

// TestUnmarshalTruncated cuts a model at every length.
func TestUnmarshalTruncated(t *testing.T) {
	for _, b := range persistSmallModels(t) {
		for n := 0; n < len(b); n++ {
			var m Model[float64]
			if err := m.UnmarshalBinary(b[:n]); !errors.Is(err, ErrTruncated) {
				t.Fatalf("first %d of %d bytes: UnmarshalBinary error %v, want ErrTruncated", n, len(b), err)
			}
			if _, err := m.ReadFrom(bytes.NewReader(b[:n])); !errors.Is(err, ErrTruncated) {
				t.Fatalf("first %d of %d bytes: ReadFrom error %v, want ErrTruncated", n, len(b), err)
			}
		}
	}
}

// TestUnmarshalBitFlips flips every bit of a model: the magic and the
// version report themselves, every other bit the checksum.
func TestUnmarshalBitFlips(t *testing.T) {
	for _, b := range persistSmallModels(t) {
		for i := 0; i < 8*len(b); i++ {
			c := slices.Clone(b)
			c[i/8] ^= 1 << (i % 8)
			want := ErrChecksum
			switch {
			case i/8 < 8:
				want = ErrMagic
			case i/8 < 10:
				// Another version this package reads fails the header
				// CRC, which covers the version.
				if v := le.Uint16(c[8:]); v < fileVersionGCP || v > fileVersionCopula {
					want = ErrVersion
				}
			}
			var m Model[float32]
			err := m.UnmarshalBinary(c)
			if kind, kerr := persistKind(err); kerr != nil || kind != want {
				t.Fatalf("bit %d of %d flipped: UnmarshalBinary error %v, want %v", i, 8*len(b), err, want)
			}
			_, err = m.ReadFrom(bytes.NewReader(c))
			if kind, kerr := persistKind(err); kerr != nil || kind != want {
				t.Fatalf("bit %d of %d flipped: ReadFrom error %v, want %v", i, 8*len(b), err, want)
			}
		}
	}
}

// persistSmallModels returns the bytes of a small float32 model, a small
// float64 model, a small version-2 model, and small models of versions 3
// and 5.
func persistSmallModels(t *testing.T) [][]byte {
	cfg := Config{Inputs: 2, Hidden: []int{2}, Activation: Tanh, Seed: 3}
	v2 := Config{Inputs: 2, Hidden: []int{2}, Loss: LossMLBayes, Dropout: 0.3, MCSamples: 3, Seed: 3}
	var out [][]byte
	for _, m := range []interface{ MarshalBinary() ([]byte, error) }{persistFitted[float32](t, cfg), persistFitted[float64](t, cfg), persistFitted[float32](t, v2), persistFittedV3[float64](t, cfg), persistFittedV5[float32](t, cfg)} {
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// persistAllocated returns the bytes f allocates on the heap. The tests
// that use it run alone (none of this package's tests is parallel), so
// little else allocates meanwhile, and their bounds leave room for that.
func persistAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// fuzzAllocated returns about how many bytes f allocates, exactly if that
// is above bound: a FuzzUnmarshal execution's check of its allocation.
// It reads the runtime's cumulative heap allocation (runtime/metrics) around
// f, which takes nanoseconds where persistAllocated's ReadMemStats stops
// the world for tens of microseconds, most of a failing decode's
// execution (and so of the engine's minimizing, an execution per
// candidate). That count takes an object over 32 KiB when it is
// allocated, but small ones only when their span leaves the allocating
// P's cache: it can count small objects allocated before f, and miss
// those f left in part-filled spans, at most a span per size class f used
// (8 to 80 KiB each; a decode uses about a dozen classes), never a large
// object such as a buffer sized by a stored claim. So a count above bound
// is measured again exactly, running f afresh under persistAllocated, and
// only that one can fail the test.
func fuzzAllocated(bound uint64, f func()) uint64 {
	heap := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(heap)
	before := heap[0].Value.Uint64()
	f()
	metrics.Read(heap)
	if alloc := heap[0].Value.Uint64() - before; alloc <= bound {
		return alloc
	}
	return persistAllocated(f)
}

// TestFuzzAllocated checks FuzzUnmarshal's measurement of allocation: a
// function that allocates 1 MiB is seen to allocate at least that, one
// that allocates nothing stays under a bound of 64 KiB.
func TestFuzzAllocated(t *testing.T) {
	var sink []byte
	if got := fuzzAllocated(64<<10, func() { sink = make([]byte, 1<<20) }); got < 1<<20 {
		t.Errorf("1 MiB allocated, %d measured", got)
	}
	if got := fuzzAllocated(64<<10, func() {}); got > 64<<10 {
		t.Errorf("nothing allocated, %d measured", got)
	}
	_ = sink
}

// TestReadFromHugeClaim feeds ReadFrom a valid header that claims the
// largest model the limits allow (over 2 GiB) and then 4 KiB before the
// stream ends. The memory ReadFrom takes must follow what arrived, not the
// claim.
func TestReadFromHugeClaim(t *testing.T) {
	hdr := slices.Clone(persistSmallModels(t)[1][:headerLen])
	hdr[11] = 1
	le.PutUint32(hdr[12:], maxWidth)
	le.PutUint32(hdr[16:], maxParams)
	hdr = persistFixCRCs(hdr)
	h, err := parseHeader(hdr)
	if err != nil {
		t.Fatal(err)
	}
	if h.size() < 2<<30 {
		t.Fatalf("the header claims %d bytes, want over 2 GiB", h.size())
	}
	const sent = 4 << 10
	var n int64
	var m Model[float64]
	alloc := persistAllocated(func() {
		n, err = m.ReadFrom(io.MultiReader(bytes.NewReader(hdr), bytes.NewReader(make([]byte, sent))))
	})
	if !errors.Is(err, ErrTruncated) || n != headerLen+sent {
		t.Errorf("ReadFrom = %d, %v; want %d, ErrTruncated", n, err, headerLen+sent)
	}
	// Geometric growth allocates under 4× what arrived (buffers of at most
	// 2× it, plus the ones they replaced); 64 KiB also covers the error
	// text, the test's own 4 KiB and background allocation, and is still
	// 2^15 times below the claim.
	if alloc > 64<<10 {
		t.Errorf("ReadFrom allocated %d bytes for %d delivered, want at most 64 KiB", alloc, headerLen+sent)
	}
	t.Logf("ReadFrom: %d bytes claimed, %d delivered, %d allocated", h.size(), headerLen+sent, alloc)
	// UnmarshalBinary sees the length at once and allocates nothing big.
	data := append(hdr, make([]byte, sent)...)
	alloc = persistAllocated(func() { err = m.UnmarshalBinary(data) })
	if !errors.Is(err, ErrTruncated) || alloc > 4<<10 {
		t.Errorf("UnmarshalBinary: %v after allocating %d bytes; want ErrTruncated and at most 4 KiB (the error text)", err, alloc)
	}
}

// TestReadFromStream reads models stored one after another, from readers
// that deliver a byte at a time or data with io.EOF, and passes read
// errors through.
func TestReadFromStream(t *testing.T) {
	a := persistFitted[float32](t, persistConfigs[1])
	b, err := New[float32](persistConfigs[2])
	if err != nil {
		t.Fatal(err)
	}
	c := persistFittedV5[float32](t, persistConfigs[6]) // version 5's longer header
	var buf bytes.Buffer
	for _, m := range []*Model[float32]{a, b, c} {
		if _, err := m.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
	}
	total := int64(buf.Len())
	for name, r := range map[string]io.Reader{
		"bytes.Reader":  bytes.NewReader(buf.Bytes()),
		"OneByteReader": iotest.OneByteReader(bytes.NewReader(buf.Bytes())),
		"DataErrReader": iotest.DataErrReader(bytes.NewReader(buf.Bytes())),
		"HalfReader":    iotest.HalfReader(bytes.NewReader(buf.Bytes())),
	} {
		var got [3]Model[float32]
		var read int64
		for i, want := range []*Model[float32]{a, b, c} {
			n, err := got[i].ReadFrom(r)
			if err != nil {
				t.Fatalf("%s: model %d: %v", name, i, err)
			}
			if d := persistDiff(want, &got[i]); d != "" {
				t.Fatalf("%s: model %d differs (-want +got):\n%s", name, i, d)
			}
			read += n
		}
		if read != total {
			t.Errorf("%s: read %d bytes, want %d", name, read, total)
		}
		var end Model[float32]
		if n, err := end.ReadFrom(r); n != 0 || !errors.Is(err, io.EOF) || !errors.Is(err, ErrTruncated) {
			t.Errorf("%s: at the end of the stream ReadFrom = %d, %v; want 0 and an error matching io.EOF and ErrTruncated", name, n, err)
		}
	}

	boom := errors.New("boom")
	for _, cut := range []int{0, 5, headerLen, headerLen + 7} {
		var m Model[float32]
		r := io.MultiReader(bytes.NewReader(buf.Bytes()[:cut]), iotest.ErrReader(boom))
		if n, err := m.ReadFrom(r); !errors.Is(err, boom) || n != int64(cut) {
			t.Errorf("read error after %d bytes: ReadFrom = %d, %v; want %d, boom", cut, n, err, cut)
		}
	}
}

// FuzzUnmarshal decodes arbitrary bytes as Model[float32] and
// Model[float64], through UnmarshalBinary and ReadFrom. With fixCRC set
// the target first rewrites both CRCs, since random bytes almost never
// pass them and the checks behind them would go unexplored. Properties: no
// panic or hang; at most one sentinel per error and the receiver left
// zero; allocation bounded by a small multiple of len(data); UnmarshalBinary
// and ReadFrom agree; a model that loads re-encodes to the same bytes in
// its own type, loads in float32 exactly when in float64 and without
// float32 overflow, with the float64 parameters rounded, and re-encodes
// the same after a reload or a Clone; it predicts finite values for a
// finite input wherever its weights cannot overflow; and its records,
// predictions and intervals keep their invariants (fuzzMethods).
func FuzzUnmarshal(f *testing.F) {
	// Every seed enters with fixCRC set; only the damaged copies of the
	// last one (truncated, or a bit flipped) enter without it too, for
	// the checksum and length checks. A mutation without fixCRC almost
	// never passes the checksum, and the fuzzer draws its next input
	// uniformly from the corpus: with every seed entered both ways, half
	// the draws reached no section, and in 60-second runs no new entry of
	// format version 5 or 6 appeared (issue 32).
	seeds := fuzzUnmarshalSeeds(f)
	fresh := seeds[len(seeds)-1]
	for _, b := range seeds {
		f.Add(b, true)
	}
	for _, n := range []int{0, 7, 9, headerLen - 1, headerLen, headerLen + 5, len(fresh) / 2, len(fresh) - 1} {
		f.Add(fresh[:n], false)
		f.Add(fresh[:n], true)
	}
	for _, bit := range []int{3, 8*10 + 1, 8*11 + 6, 8*headerLen + 2, 8*len(fresh) - 9} {
		b := slices.Clone(fresh)
		b[bit/8] ^= 1 << (bit % 8)
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Fuzz(fuzzUnmarshal)
}

// fuzzUnmarshal is FuzzUnmarshal's check of one input.
func fuzzUnmarshal(t *testing.T, data []byte, fixCRC bool) {
	if fixCRC {
		data = persistFixCRCs(data)
	}
	var d32 fuzzDecoded[float32]
	var d64 fuzzDecoded[float64]
	// A decode holds the parameters at most twice as wide as stored
	// (float32 → float64) and the standardization as stored, and
	// ReadFrom's buffer adds under 4× what it read (geometric growth):
	// under 10× len(data) per type. The layouts, hidden widths and
	// error texts add a few KiB per call (≤ 64 layers). An ML_Bayes
	// model adds its MC-dropout masks, at most maxMCMask elements, in
	// each of the four calls: 4 + 4 + 8 + 8 bytes per element.
	bound := 20*uint64(len(data)) + 64<<10 + 24*fuzzMCMask(data)
	alloc := fuzzAllocated(bound, func() {
		d32, d64 = fuzzDecoded[float32]{}, fuzzDecoded[float64]{}
		d32.decode(data)
		d64.decode(data)
	})
	if alloc > bound {
		t.Fatalf("decoding allocated %d bytes for %d bytes of data", alloc, len(data))
	}
	m32, err32 := d32.check(t, data)
	m64, err64 := d64.check(t, data)
	switch {
	case err32 == nil && err64 == nil:
		if !reflect.DeepEqual(m64.cfg, m32.cfg) {
			t.Fatalf("Config depends on the element type: float64 %+v, float32 %+v", m64.cfg, m32.cfg)
		}
		bitsEqual := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		if !slices.EqualFunc(m64.xMean, m32.xMean, bitsEqual) || !slices.EqualFunc(m64.xScale, m32.xScale, bitsEqual) ||
			!slices.EqualFunc(m64.xInvScale, m32.xInvScale, bitsEqual) || !bitsEqual(m64.yMean, m32.yMean) ||
			!bitsEqual(m64.yScale, m32.yScale) || m64.standardized != m32.standardized {
			t.Fatal("standardization depends on the element type")
		}
		for i, v := range m64.params {
			if math.Float32bits(m32.params[i]) != math.Float32bits(float32(v)) {
				t.Fatalf("parameter %d: %v as float64, %v as float32, want %v", i, v, m32.params[i], float32(v))
			}
		}
	case err64 == nil:
		if !errors.Is(err32, ErrOverflow) || data[10] != 8 {
			t.Fatalf("loads as float64 but not as float32: %v", err32)
		}
	case err32 == nil:
		t.Fatalf("loads as float32 but not as float64: %v", err64)
	case err32.Error() != err64.Error():
		// regression: a float32 load stopped at a float32 overflow, and
		// a float64 load went on to a later NaN or an unknown section.
		t.Fatalf("errors depend on the element type: float32 %v, float64 %v", err32, err64)
	}
}

// fuzzSeedConfigs are the shapes of FuzzUnmarshal's seed models: every
// format version, loss, activation, stored option and element type, each
// with one input and hidden layers of one unit (two of them, for depth),
// so that a seed is 100 to 300 bytes. Seed size sets the cost of the fuzz
// engine's minimization, which tries removing every run of bytes of an
// input that found new coverage (internal/fuzz's minimizeBytes): quadratic
// in its length. With the golden files and the wider persistConfigs as
// seeds (up to 3.3 KB) a minute of fuzzing spent about 50 s minimizing one
// input; with these it takes a second or two.
var fuzzSeedConfigs = []Config{
	{Inputs: 1, Hidden: []int{1}, Seed: 1},
	{Inputs: 1, Hidden: []int{1, 1}, Activation: Tanh, Dropout: 0.25, Seed: 2},
	{Inputs: 1, Hidden: []int{1}, FixedAlpha: 1.5, Seed: 3},
	{Inputs: 1, Hidden: []int{1}, Loss: LossGaussianML, Seed: 4},
	{Inputs: 1, Hidden: []int{1}, Loss: LossDPD, DPDGamma: 0.25, Dropout: 0.1, Seed: 5},
	{Inputs: 1, Hidden: []int{1}, Loss: LossMLBayes, Dropout: 0.4, MCSamples: 3, Seed: 6},
	{Inputs: 1, Hidden: []int{1}, Members: 2, Seed: 7},
	{Inputs: 1, Hidden: []int{1}, Loss: LossMLBayes, Dropout: 0.3, MCSamples: 2, Members: 2, Seed: 8},
	{Inputs: 1, Hidden: []int{1}, Targets: 2, Members: 2, Seed: 9}, // version 7's targets section
}

// fuzzUnmarshalSeeds returns FuzzUnmarshal's seed models, each as
// Model[float32] and Model[float64]: the fresh models of fuzzSeedConfigs,
// and the first two fitted with everything version 3 adds (names, ranges,
// calibration); the golden model of version 6, with a date column; and
// fuzzSeedsV5's.
func fuzzUnmarshalSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for i, cfg := range fuzzSeedConfigs {
		for _, m := range []interface{ encode() []byte }{mustModel[float32](f, cfg), mustModel[float64](f, cfg)} {
			seeds = append(seeds, m.encode())
		}
		if i < 2 {
			seeds = append(seeds, persistFittedV3[float32](f, cfg).encode(), persistFittedV3[float64](f, cfg).encode())
		}
	}
	// The golden model with a date column, trained rather than new.
	golden, err := os.ReadFile(filepath.Join("testdata", "model_v6_dates_float64.gcpm"))
	if err != nil {
		f.Fatal(err)
	}
	// A model of two targets with a calibrated joint region and its
	// conformal calibration (the joint-region section).
	// The same with target 0 logged (the target-transforms section).
	// A copula model of two marginals (version 8, the copula section).
	for _, m := range []interface{ encode() []byte }{regionSeed[float32](f), regionSeed[float64](f), transformsSeed[float32](f), transformsSeed[float64](f),
		copulaSeed[float32](f), copulaSeed[float64](f)} {
		seeds = append(seeds, m.encode())
	}
	return append(append(seeds, golden), fuzzSeedsV5(f)...)
}

// fuzzDecoded holds the results of decoding one input as Model[T] through
// UnmarshalBinary (m, err) and ReadFrom (r, n, rerr).
// fuzzMCMask returns how many MC-dropout mask elements a decode of data
// allocates if its header and Config claim a LossMLBayes model that
// Config.validate accepts: MCSamples × 2 heads × Members × the last
// hidden width, read at the offsets MarshalBinary documents (versions 3
// to 6 shifted by their longer headers). Otherwise it returns 0.
func fuzzMCMask(data []byte) uint64 {
	if len(data) < headerLenV3 {
		return 0
	}
	v := le.Uint16(data[8:])
	if v < fileVersionLoss || v > fileVersionDates {
		return 0
	}
	hlen := int(header{version: int(v)}.headerLen())
	off := hlen + 4*int(data[11]) // the end of Hidden
	// Activation, standardized, Dropout, FixedAlpha and Seed take 26
	// bytes; then Loss, DPDGamma and MCSamples (lossLen), and Members.
	if data[11] == 0 || len(data) < off+26+lossLen+membersLen || Loss(data[off+26]) != LossMLBayes {
		return 0
	}
	members := uint64(1)
	if v >= fileVersionMembers {
		// regression: Members was read after yScale, 16 bytes too far, and
		// a fuzzed ensemble's masks (a valid allocation) broke the bound.
		members = uint64(le.Uint32(data[off+26+lossLen:]))
	}
	n := uint64(le.Uint32(data[off+35:])) * 2 * members * uint64(le.Uint32(data[off-4:]))
	if n > maxMCMask {
		return 0
	}
	return n
}

type fuzzDecoded[T Float] struct {
	m, r      Model[T]
	err, rerr error
	n         int64
}

func (f *fuzzDecoded[T]) decode(data []byte) {
	f.err = f.m.UnmarshalBinary(data)
	f.n, f.rerr = f.r.ReadFrom(bytes.NewReader(data))
}

// check checks the properties of FuzzUnmarshal that hold for one element
// type and returns the model or the error of UnmarshalBinary.
func (f *fuzzDecoded[T]) check(t *testing.T, data []byte) (*Model[T], error) {
	for _, c := range []struct {
		how string
		err error
		m   *Model[T]
	}{{"UnmarshalBinary", f.err, &f.m}, {"ReadFrom", f.rerr, &f.r}} {
		if c.err == nil {
			continue
		}
		if _, kerr := persistKind(c.err); kerr != nil {
			t.Fatalf("%s: %v", c.how, kerr)
		}
		if !reflect.ValueOf(c.m).Elem().IsZero() {
			t.Fatalf("failed %s changed the receiver", c.how)
		}
	}
	switch {
	case f.err == nil && (f.rerr != nil || f.n != int64(len(data))):
		t.Fatalf("UnmarshalBinary succeeds, ReadFrom = %d, %v", f.n, f.rerr)
	case f.rerr == nil && f.err != nil:
		var first Model[T]
		if ferr := first.UnmarshalBinary(data[:f.n]); ferr != nil || !errors.Is(f.err, ErrFormat) {
			t.Fatalf("ReadFrom reads a model from the first %d bytes; UnmarshalBinary of them: %v, of all: %v", f.n, ferr, f.err)
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	m := &f.m
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("a loaded model does not marshal: %v", err)
	}
	if int(data[10]) == elemSize[T]() && !bytes.Equal(b, data) {
		t.Fatal("a loaded model re-encodes to other bytes")
	}
	if rb, err := f.r.MarshalBinary(); err != nil || !bytes.Equal(rb, b) {
		t.Fatalf("UnmarshalBinary and ReadFrom load different models (err %v)", err)
	}
	var again Model[T]
	if err := again.UnmarshalBinary(b); err != nil {
		t.Fatalf("a re-encoded model does not load: %v", err)
	}
	if b2, err := again.MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
		t.Fatalf("a re-encoded model re-loads to other bytes (err %v)", err)
	}
	if b2, err := m.Clone().MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
		t.Fatalf("a loaded model's clone encodes to other bytes (err %v)", err)
	}

	// Predict reports an overflowing network as ErrNonFinite. Where
	// interval arithmetic bounds every value of the network (the
	// standardized input, every layer's sums, the raw outputs) below 1e30
	// (at least 1e8 below float32 overflow, far more than rounding can
	// add, and small enough that the margins to 1e300 keep the mapping to
	// original units finite) it must succeed, with Mean, Alpha, Beta and Nu finite; Var
	// and VarCorrected may be +Inf by design (α ≤ 1, ν underflowing). For
	// the Gaussian losses Alpha is +Inf by design and Mean and Var must be
	// finite.
	x := make([]T, m.cfg.Inputs)
	if m.cfg.Targets > 1 { // several targets predict by PredictMulti alone
		var mp MultiPrediction
		err := m.PredictMulti(m.NewWorkspace(), x, &mp)
		if err != nil && !errors.Is(err, ErrNonFinite) {
			t.Fatalf("PredictMulti on a loaded model: %v", err)
		}
		if err == nil { // the joint regions at the mean: a level, a density, no panic
			y := make([]float64, mp.Dim())
			for j := range y {
				y[j] = mp.Mean(j)
			}
			if _, err := mp.CalibratedInside(y, 0.9); err != nil {
				t.Fatalf("CalibratedInside on a loaded model: %v", err)
			}
			if _, err := mp.ConformalInside(y, 0.5); err != nil && !errors.Is(err, ErrNoConformal) && !errors.Is(err, ErrLevel) {
				t.Fatalf("ConformalInside on a loaded model: %v", err)
			}
			_ = mp.CalibratedLogPDF(y)
		}
		return m, nil
	}
	p, err := m.Predict(m.NewWorkspace(), x)
	if err != nil && !errors.Is(err, ErrNonFinite) {
		t.Fatalf("Predict on a loaded model: %v", err)
	}
	if m.ext.transform != TransformNone {
		// Under a target transform the prediction of the modeled target
		// z is mapped back through exp, which overflows or underflows
		// however small the network's values are (a mean of z of 800,
		// or a variance of 1e12 from the calibration scales, has no
		// float64 image): the bound below speaks of z's prediction.
		// regression: a fuzzed log model with scales 1e6 was required to
		// predict in original units.
		var out [1]Prediction
		err = m.predictModeled(m.NewWorkspace(), x, out[:])
		p = out[0]
	}
	bound := persistRawBound(m, x)
	// The calibration scales multiply the variances: a file may hold any
	// positive one, and one far from 1 (such as 1e-307) under- or
	// overflows them, which Predict refuses with ErrNonFinite as
	// documented. So the scales enter the bound on the variances, and
	// neither may be below 1e-30: the least variance a network can give,
	// its link floor 2⁻²⁵⁶ times a target scale of at least 2⁻²⁵⁶
	// squared, times 1e-30, is still about 2⁻⁸⁶⁸, far above float64's
	// smallest 2⁻¹⁰⁷⁴.
	// regression: a fuzzed ML_Bayes file with VarScale 9e-308 and
	// CorrectedScale 1.4e-76 was required to predict.
	// An ensemble's variances add the spread of its members' means, the
	// square of a difference of raw outputs, and its corrected variance
	// holds that spread times both scales (mixRows): the bound enters
	// squared, with the product of the scales.
	// regression: a fuzzed ensemble with raw means ±7.7e14/2, VarScale
	// 3.5e274 and CorrectedScale 1.1e6 was required to predict (its
	// corrected variance is 5.5e309).
	scale := max(m.varScale, m.corrScale, m.varScale*m.corrScale, 1)
	spread := (bound + 1) * (bound + 1)
	if bound < 1e30 && math.Abs(m.yMean)+m.yScale*bound < 1e300 && spread*m.yScale*m.yScale*scale < 1e300 && min(m.varScale, m.corrScale) >= 1e-30 {
		if err != nil {
			t.Fatalf("Predict: %v, though every value of the network is below %g", err, bound)
		}
		want := []float64{p.Mean, p.Alpha, p.Beta, p.Nu}
		if m.cfg.Loss.gaussian() {
			want = []float64{p.Mean, p.Var}
		}
		for _, v := range want {
			if !finite(v) {
				t.Fatalf("prediction %+v is not finite, though every raw output is below %g", p, bound)
			}
		}
	}
	fuzzMethods(t, m)
	return m, nil
}

// persistRawBound bounds every value of m's network on input x by
// interval arithmetic: the standardized input, each layer's sums (at most
// its largest |bias| plus fan-in × its largest |weight| × the bound on its
// inputs) and so the raw outputs; a tanh layer's outputs are at most 1,
// but the sums before it count, since a sum that overflows T makes the
// prediction fail however tanh would saturate. It reads only each layer's
// weight and bias ranges, so it does not depend on the order of weights
// within a layer. MC dropout scales the output layer's inputs by up to
// 1/(1 − Dropout).
func persistRawBound[T Float](m *Model[T], x []T) float64 {
	var in float64
	for j, v := range x {
		in = max(in, math.Abs((float64(v)-m.xMean[j])*m.xInvScale[j]))
	}
	maxAbs := func(s []T) float64 {
		var a float64
		for _, v := range s {
			a = max(a, math.Abs(float64(v)))
		}
		return a
	}
	peak := in
	for i, ly := range m.lay.layers {
		if i == len(m.lay.hidden) && m.cfg.Loss == LossMLBayes {
			in /= 1 - m.cfg.Dropout
		}
		in = maxAbs(m.params[ly.b:ly.b+ly.blocks*ly.rows]) + float64(ly.cols)*maxAbs(m.params[ly.w:ly.b])*in
		peak = max(peak, in)
		if i < len(m.lay.hidden) && m.cfg.Activation == Tanh {
			in = min(in, 1)
		}
	}
	return peak
}

// stalledReader returns no data and no error forever, breaking the
// io.Reader contract.
type stalledReader struct{}

func (stalledReader) Read([]byte) (int, error) { return 0, nil }

func TestReadFromStalledReader(t *testing.T) {
	m, err := New[float32](Config{Inputs: 2, Hidden: []int{3}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model[float32]
	r := io.MultiReader(bytes.NewReader(b[:30]), stalledReader{})
	if _, err := got.ReadFrom(r); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("ReadFrom on a stalled reader = %v, want io.ErrNoProgress", err)
	}
}
