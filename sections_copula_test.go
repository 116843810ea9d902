package gcp

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// copulaSeed returns a small copula model of two marginals of one input
// and one hidden unit (a GCP network and an ensemble of two), with a
// calibrated region and a conformal calibration: FuzzUnmarshal's seed of
// the copula section.
func copulaSeed[T Float](t testing.TB) *Model[T] {
	g := []*Model[T]{
		copulaMargin[T](t, Config{Inputs: 1, Hidden: []int{1}, Members: 2, Seed: 50}, 1, 2),
		copulaMargin[T](t, Config{Inputs: 1, Hidden: []int{1}, Members: 2, Seed: 51}, -1, 0.5),
	}
	return mustCopula(t, g, []float64{1, 0.5, math.Sqrt(0.75)}, 1.3, 6, sortedScores([]float64{0.5, 1, 2, 3}))
}

// goldenCopulaModel returns the model of the golden files
// testdata/model_v8_copula_float{32,64}.gcpm: two marginals of 2 inputs
// and hidden {3}, New's weights drawn as copulaMargin draws them, the
// first a GCP network under the log transform with VarScale 1.25,
// CorrectedScale 0.8 and a conformal calibration, the second an
// ensemble of two, both named and with ranges; R_01 = −0.4, the region's
// scale 1.7, ν 4.5 and a conformal calibration of four distances.
func goldenCopulaModel[T Float](t *testing.T) *Model[T] {
	g := []*Model[T]{
		copulaMargin[T](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 60}, 0.5, 0.7),
		copulaMargin[T](t, Config{Inputs: 2, Hidden: []int{3}, Members: 2, Seed: 61}, -2, 3),
	}
	goldenMust(t, g[0].SetTargetTransform(TransformLog))
	goldenMust(t, g[0].SetVarScale(1.25))
	goldenMust(t, g[0].SetCorrectedScale(0.8))
	g[0].ext.conformal = sortedScores([]float64{0.2, 0.9, 1.4, 2.5, 3})
	for j, h := range g {
		goldenMust(t, h.SetFeatureNames([]string{"p", "q"}, []string{"y1", "y2"}[j]))
		h.xMin, h.xMax = []float64{-1, 0}, []float64{2, 3 + float64(j)}
	}
	rho := -0.4
	return mustCopula(t, g, []float64{1, rho, math.Sqrt(1 - rho*rho)}, 1.7, 4.5, sortedScores([]float64{0.5, 1, 2, 3}))
}

// copulaRoundTrip checks that m and back, its copy read from a file,
// predict alike, bit for bit, at x.
func copulaRoundTrip[T, U Float](t *testing.T, m *Model[T], back *Model[U], x []float64) {
	t.Helper()
	xt, xu := make([]T, len(x)), make([]U, len(x))
	for i, v := range x {
		xt[i], xu[i] = T(v), U(v)
	}
	var p, q MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), xt, &p); err != nil {
		t.Fatal(err)
	}
	if err := back.PredictMulti(back.NewWorkspace(), xu, &q); err != nil {
		t.Fatal(err)
	}
	y := make([]float64, p.Dim())
	for j := range y {
		y[j] = p.Mean(j) * 1.3
		if p.Marginal(j) != q.Marginal(j) {
			t.Errorf("Marginal(%d): %+v read back, %+v saved", j, q.Marginal(j), p.Marginal(j))
		}
	}
	r0, err0 := p.ConformalRadius(0.5)
	r1, err1 := q.ConformalRadius(0.5)
	for name, v := range map[string][2]float64{
		"LogPDF":                {p.LogPDF(y), q.LogPDF(y)},
		"CalibratedLogPDF":      {p.CalibratedLogPDF(y), q.CalibratedLogPDF(y)},
		"Mahalanobis":           {p.Mahalanobis(y), q.Mahalanobis(y)},
		"CalibratedMahalanobis": {p.CalibratedMahalanobis(y), q.CalibratedMahalanobis(y)},
		"Corr":                  {p.Corr(0, 1), q.Corr(0, 1)},
		"RegionNu":              {p.RegionNu(), q.RegionNu()},
		"ConformalRadius":       {r0, r1},
	} {
		if math.Float64bits(v[0]) != math.Float64bits(v[1]) {
			t.Errorf("%s: %v read back, %v saved", name, v[1], v[0])
		}
	}
	if !errors.Is(err0, err1) && (err0 != nil || err1 != nil) {
		t.Errorf("ConformalRadius errors %v, %v", err0, err1)
	}
}

func TestCopulaSaveAndLoad(t *testing.T) {
	m32, m64 := copulaMargins[float32](t, 70), copulaMargins[float64](t, 70)
	l := copulaFactor3()
	c32 := mustCopula(t, m32, l, 1.3, 5, sortedScores([]float64{1, 2, 3, 4, 5}))
	c64 := mustCopula(t, m64, l, 1, math.Inf(1), nil)
	for _, b := range [][]byte{mustMarshal(t, c32), mustMarshal(t, c64)} {
		if v := le.Uint16(b[8:]); v != fileVersionCopula {
			t.Errorf("version %d, want %d", v, fileVersionCopula)
		}
	}
	var back32 Model[float32]
	var wide Model[float64]
	b := mustMarshal(t, c32)
	if err := back32.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := wide.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for _, x := range copulaRows {
		copulaRoundTrip(t, c32, &back32, x)
	}
	if b2 := mustMarshal(t, &back32); !bytes.Equal(b2, b) {
		t.Error("the loaded float32 model re-encodes to other bytes")
	}
	// Read as float64, the float32 weights are exact, and the model
	// re-encodes as float64: every marginal then in float64 too.
	if wide.NumParams() != c32.NumParams() || wide.Config().Targets != 3 {
		t.Errorf("read as float64: %d parameters, Config %+v", wide.NumParams(), wide.Config())
	}
	var back64 Model[float64]
	b = mustMarshal(t, c64)
	if err := back64.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for _, x := range copulaRows {
		copulaRoundTrip(t, c64, &back64, x)
	}
	if b2 := mustMarshal(t, &back64); !bytes.Equal(b2, b) {
		t.Error("the loaded float64 model re-encodes to other bytes")
	}
	if f, target := back64.FeatureNames(); !slices.Equal(f, []string{"a", "b", "c"}) || target != "u,v,w" {
		t.Errorf("FeatureNames read back %v %q", f, target)
	}
	if lo, _, ok := back64.FeatureRanges(); !ok || !slices.Equal(lo, []float64{-1, -2, 0}) {
		t.Errorf("FeatureRanges read back %v %v", lo, ok)
	}
	// A stream of a copula model and another model reads one at a time.
	stream := append(slices.Clone(b), mustMarshal(t, m64[0])...)
	var first, second Model[float64]
	r := bytes.NewReader(stream)
	if n, err := first.ReadFrom(r); err != nil || n != int64(len(b)) {
		t.Fatalf("ReadFrom: %d bytes, %v; want %d", n, err, len(b))
	}
	if _, err := second.ReadFrom(r); err != nil || second.Config().Targets > 1 {
		t.Fatalf("ReadFrom of the model after it: %v", err)
	}
	path := filepath.Join(t.TempDir(), "copula.gcpm")
	if err := SaveFile(path, c64); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadFile[float64](path)
	if err != nil {
		t.Fatal(err)
	}
	copulaRoundTrip(t, c64, loaded, copulaRows[2])
}

func mustMarshal[T Float](t testing.TB, m *Model[T]) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldenCopula checks the copula section's golden files byte for byte
// against the model they were made from, in both element types, and that
// they load to predictions of that model, bit for bit. -update-golden
// writes a file that is missing (see testdata/golden.md).
func TestGoldenCopula(t *testing.T) {
	for name, m := range map[string]interface {
		MarshalBinary() ([]byte, error)
	}{
		"model_v8_copula_float32.gcpm": goldenCopulaModel[float32](t),
		"model_v8_copula_float64.gcpm": goldenCopulaModel[float64](t),
	} {
		path := filepath.Join("testdata", name)
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); *updateGolden && errors.Is(err, os.ErrNotExist) {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, want) {
			t.Fatalf("%s: the model encodes to %d bytes unlike the file's %d", name, len(b), len(want))
		}
	}
	want32, _ := os.ReadFile(filepath.Join("testdata", "model_v8_copula_float32.gcpm"))
	want64, _ := os.ReadFile(filepath.Join("testdata", "model_v8_copula_float64.gcpm"))
	var m32 Model[float32]
	var m64 Model[float64]
	if err := m32.UnmarshalBinary(want32); err != nil {
		t.Fatal(err)
	}
	if err := m64.UnmarshalBinary(want64); err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{{0.5, 1}, {-1, 2.5}, {30, -4}} {
		copulaRoundTrip(t, goldenCopulaModel[float32](t), &m32, x)
		copulaRoundTrip(t, goldenCopulaModel[float64](t), &m64, x)
	}
	if m64.TargetTransforms()[0] != TransformLog || m64.CorrectedScale() != 1.7 || m64.margins[0].ConformalRows() != 5 {
		t.Errorf("read back: transforms %v, region scale %v, marginal 0's conformal rows %d", m64.TargetTransforms(), m64.CorrectedScale(), m64.margins[0].ConformalRows())
	}
}

// TestCopulaFileRejects checks the copula section's checks: each
// malformed file gets its error with both CRCs fixed, and a receiver is
// left as it was.
func TestCopulaFileRejects(t *testing.T) {
	c := copulaSeed[float64](t)
	base := mustMarshal(t, c)
	h, err := parseHeader(base)
	if err != nil {
		t.Fatal(err)
	}
	sections := base[len(base)-crcLen-h.sections : len(base)-crcLen]
	// The sections: targets, region, copula; the copula's is the last.
	law := c.ext.copula
	files := [][]byte{mustMarshal(t, c.margins[0]), mustMarshal(t, c.margins[1])}
	copulaSection := func(chol []float64, files [][]byte, extra ...byte) []byte {
		b := appendFloats(nil, chol)
		for _, f := range files {
			b = le.AppendUint64(b, uint64(len(f)))
			b = append(b, f...)
		}
		return section(sectionCopula, append(b, extra...)...)
	}
	good := copulaSection(law.chol, files)
	if !bytes.HasSuffix(sections, good) {
		t.Fatal("the copula section is not the last, as copulaSection writes it")
	}
	rest := sections[:len(sections)-len(good)]
	with := func(s []byte) []byte { return persistWithSections(base, append(slices.Clone(rest), s...), -1) }
	if !bytes.Equal(with(good), base) {
		t.Fatal("with does not rebuild the model it was given")
	}
	flipped := slices.Clone(files[1])
	flipped[40] ^= 4 // inside the marginal, its own CRC now wrong
	other := mustMarshal(t, copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{1}, Seed: 52}, 0, 1))
	dpd := mustMarshal(t, copulaMargin[float64](t, Config{Inputs: 1, Hidden: []int{1}, Loss: LossDPD, Seed: 53}, 0, 1))
	multi := mustMarshal(t, mustModel[float64](t, Config{Inputs: 1, Hidden: []int{1}, Targets: 2, Members: 2}))
	long := slices.Clone(good)
	le.PutUint64(long[sectionHeaderLen+8*3:], uint64(len(files[0]))+1<<40)
	v7 := slices.Clone(base)
	le.PutUint16(v7[8:], fileVersionTargets)
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"R's row not of norm 1", with(copulaSection([]float64{1, 0.5, 0.9}, files)), ErrFormat},
		{"R's diagonal negative", with(copulaSection([]float64{1, 0.5, -math.Sqrt(0.75)}, files)), ErrFormat},
		{"one marginal", with(copulaSection(law.chol, files[:1])), ErrFormat},
		{"three marginals", with(copulaSection(law.chol, append(files, files[0]))), ErrFormat},
		{"bytes after the marginals", with(copulaSection(law.chol, files, 0)), ErrFormat},
		{"a marginal's length beyond the section", with(long), ErrFormat},
		{"a marginal truncated", with(copulaSection(law.chol, [][]byte{files[0], files[1][:len(files[1])-3]})), ErrFormat},
		{"a marginal's bit flipped", with(copulaSection(law.chol, [][]byte{files[0], flipped})), ErrFormat},
		{"a marginal of other inputs", with(copulaSection(law.chol, [][]byte{files[0], other})), ErrFormat},
		{"a marginal of LossDPD", with(copulaSection(law.chol, [][]byte{files[0], dpd})), ErrFormat},
		{"a marginal of two targets", with(copulaSection(law.chol, [][]byte{files[0], multi})), ErrFormat},
		{"a copula as a marginal", with(copulaSection(law.chol, [][]byte{files[0], base})), ErrFormat},
		{"version 8 without the copula", with(nil), ErrFormat},
		{"the copula in version 7", persistFixCRCs(v7), ErrFormat},
		{"truncated", base[:len(base)-10], ErrTruncated},
	} {
		m := goldenCopulaModel[float64](t)
		before := mustMarshal(t, m)
		err := m.UnmarshalBinary(tc.data)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if after := mustMarshal(t, m); !bytes.Equal(after, before) {
			t.Errorf("%s: the receiver changed", tc.name)
		}
	}
}

// TestCopulaFileOverflow checks a float64 copula model with a marginal's
// parameter beyond float32: it loads as Model[float64], and as
// Model[float32] fails with ErrOverflow alone, unless something else is
// wrong with the file, which then takes precedence, as in any file.
func TestCopulaFileOverflow(t *testing.T) {
	c := copulaSeed[float64](t)
	c.margins[0].params[0] = 1e300
	b := mustMarshal(t, c)
	var wide Model[float64]
	if err := wide.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	var narrow Model[float32]
	if err := narrow.UnmarshalBinary(b); !errors.Is(err, ErrOverflow) || errors.Is(err, ErrFormat) {
		t.Errorf("as float32: %v, want ErrOverflow alone", err)
	}
	// The second marginal named unlike the first: ErrFormat in both types.
	goldenMust(t, c.margins[1].SetFeatureNames([]string{"other"}, "t"))
	b = mustMarshal(t, c)
	for _, err := range []error{wide.UnmarshalBinary(b), narrow.UnmarshalBinary(b)} {
		if !errors.Is(err, ErrFormat) || errors.Is(err, ErrOverflow) {
			t.Errorf("marginals named apart: %v, want ErrFormat", err)
		}
	}
}
