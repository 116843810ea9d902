// Golden files. testdata/model_v1_float{32,64}.gcpm are version-1 files
// (GCP), testdata/model_v2_float{32,64}.gcpm version-2 files (ML_Bayes and
// DPD), and testdata/model_golden.txt holds what they must decode to: the
// Config, the standardization and every parameter as IEEE 754 bits, and
// the predictions for a few fixed inputs. TestGoldenFiles fails if the
// decoder or the encoder changes what a file of either version means.
// Regenerate the files, only for a deliberate change, with
//
//	go test -run TestGoldenFiles -update-golden
//
// and read testdata/golden.md first: a change that alters what existing
// files decode to needs a new format version, not new golden files.

package gcp

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/model_v*.gcpm and testdata/model_golden.txt (see testdata/golden.md)")

// goldenFiles are the golden files of every format version and the
// models they are generated from under -update-golden.
var goldenFiles = []struct {
	name   string
	inputs [][]float64 // rows to predict
	build  func(t *testing.T) interface{ MarshalBinary() ([]byte, error) }
}{
	{
		name:   "model_v1_float32.gcpm",
		inputs: [][]float64{{0.5, -1, 2}, {0, 0, 0}, {-3.25, 0.125, 1}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// Fitted, so standardized; ReLU, two layers, dropout. The
			// activation and standardized bytes differ in each file, so
			// swapping them cannot go unnoticed.
			return persistFitted[float32](t, Config{Inputs: 3, Hidden: []int{5, 4}, Dropout: 0.1, Seed: 11})
		},
	},
	{
		name:   "model_v1_float64.gcpm",
		inputs: [][]float64{{0.5, -1}, {0, 0}, {2.5, 3}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// Stepped without Fit, so unstandardized; tanh, fixed α.
			m, err := New[float64](Config{Inputs: 2, Hidden: []int{6}, Activation: Tanh, FixedAlpha: 2.5, Seed: 12})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := NewTrainer(m, TrainConfig{LearningRate: 1e-2, BatchSize: 8, Seed: 13})
			if err != nil {
				t.Fatal(err)
			}
			x, y := persistData[float64](14, 8, 2)
			for i := 0; i < 10; i++ {
				if _, err := tr.Step(x, y); err != nil {
					t.Fatal(err)
				}
			}
			return m
		},
	},
	{
		name:   "model_v2_float32.gcpm",
		inputs: [][]float64{{0.5, -1, 2}, {0, 0, 0}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// ML_Bayes: the MC-dropout masks come from the seed, so the
			// predictions also check that they are drawn as before.
			return persistFitted[float32](t, Config{Inputs: 3, Hidden: []int{4}, Loss: LossMLBayes, Dropout: 0.3, MCSamples: 5, Seed: 15})
		},
	},
	{
		name:   "model_v2_float64.gcpm",
		inputs: [][]float64{{0.5, -1}, {2.5, 3}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			return persistFitted[float64](t, Config{Inputs: 2, Hidden: []int{3, 2}, Activation: Tanh, Loss: LossDPD, DPDGamma: 0.75, Seed: 16})
		},
	},
	{
		name:   "model_v3_float32.gcpm",
		inputs: [][]float64{{0.5, -1}, {40, 3}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// GCP with names (one not ASCII), recorded ranges and both
			// calibration scales.
			m := persistFitted[float32](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 17})
			x, _ := persistData[float32](17, 64, 2)
			m.extendRanges(x)
			goldenMust(t, m.SetFeatureNames([]string{"größe", "temp"}, "y"))
			goldenMust(t, m.SetVarScale(1.25))
			goldenMust(t, m.SetCorrectedScale(0.75))
			return m
		},
	},
	{
		name:   "model_v3_float64.gcpm",
		inputs: [][]float64{{0.5, -1, 2}, {0, 0, 0}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A comparator with names and a variance scale but no
			// recorded ranges.
			m := persistFitted[float64](t, Config{Inputs: 3, Hidden: []int{3}, Loss: LossGaussianML, Seed: 18})
			goldenMust(t, m.SetFeatureNames([]string{"a", "b", "c"}, ""))
			goldenMust(t, m.SetVarScale(2))
			return m
		},
	},
	{
		name:   "model_v4_float32.gcpm",
		inputs: [][]float64{{0.5, -1}, {40, 3}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A GCP ensemble of three with names, ranges and both scales:
			// the predictions check the mixture and its VarScale.
			m := persistFitted[float32](t, Config{Inputs: 2, Hidden: []int{4}, Members: 3, Seed: 19})
			x, _ := persistData[float32](19, 64, 2)
			m.extendRanges(x)
			goldenMust(t, m.SetFeatureNames([]string{"x1", "x2"}, "target"))
			goldenMust(t, m.SetVarScale(1.5))
			goldenMust(t, m.SetCorrectedScale(0.8))
			return m
		},
	},
	{
		name:   "model_v4_float64.gcpm",
		inputs: [][]float64{{0.5, -1, 2}, {0, 0, 0}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// An ML_Bayes ensemble of two, two layers, nothing else set:
			// version 4 even without names, ranges or calibration, and
			// the MC-dropout masks of both members drawn as before.
			return persistFitted[float64](t, Config{Inputs: 3, Hidden: []int{4, 3}, Loss: LossMLBayes, Dropout: 0.25, MCSamples: 4, Members: 2, Seed: 20})
		},
	},
	{
		name:   "model_v5_float32.gcpm",
		inputs: [][]float64{{0.5, 0, 1, 0, 0, 0}, {-1.25, 1, 0, 0, 0, 1}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A single GCP network with both sections, the log target
			// transform and an encoding (a numeric column with missing
			// values, a categorical one with two levels, pooled levels and
			// missing values), ranges and both scales: its predictions
			// are in original units, through exp.
			m := persistFitted[float32](t, Config{Inputs: 6, Hidden: []int{4}, Seed: 51})
			x, _ := persistData[float32](51, 64, 6)
			m.extendRanges(x)
			// The targets of ln y: a centre of 2 and a scale of 0.5.
			xMean, xScale, _, _ := m.Standardization()
			goldenMust(t, m.SetStandardization(xMean, xScale, 2, 0.5))
			goldenMust(t, m.SetVarScale(1.25))
			goldenMust(t, m.SetCorrectedScale(0.9))
			goldenMust(t, m.SetTargetTransform(TransformLog))
			goldenMust(t, m.SetEncoding(persistEncoding(6)))
			return m
		},
	},
	{
		name:   "model_v5_float64.gcpm",
		inputs: [][]float64{{2, 0, 1}, {-0.5, 1, 0}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A Gaussian ensemble of two with an encoding alone (a
			// numeric column with missing values and a categorical one of
			// one level), no ranges, no calibration.
			m := persistFitted[float64](t, Config{Inputs: 3, Hidden: []int{3}, Loss: LossGaussianML, Members: 2, Seed: 52})
			goldenMust(t, m.SetEncoding(persistEncoding(3)))
			return m
		},
	},
	{
		name: "model_v6_dates_float64.gcpm",
		// 2024-03-17 (a Sunday in March, day 19799) with 3 rooms, and a
		// missing date (the median, its indicator set) with 5.
		inputs: [][]float64{{19799, -0.7818314824680298, 0.6234898018587336, 0.8660254037844386, 0.5, 0, 3}, {19000, 0, 0, 0, 0, 1, 5}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A GCP network with an encoding of a date column with missing
			// values (its days, weekday and month, and its indicator) and
			// a numeric column: version 6, which releases that know no
			// date column refuse as newer.
			m := persistFitted[float64](t, Config{Inputs: 7, Hidden: []int{4}, Seed: 61})
			goldenMust(t, m.SetEncoding(newEncoding("price", []Column{
				{Name: "sold", Kind: Date, Missing: true, Impute: 19000},
				{Name: "rooms"},
			})))
			return m
		},
	},
	{
		name:   "model_v5_conformal_float32.gcpm",
		inputs: [][]float64{{0.5, -1}, {2, 0.25}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A GCP network calibrated by Calibrate on 40 rows it did not
			// train on: both scales, and the conformal section of the
			// rows' 40 normalized residuals.
			m := persistFitted[float32](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 53})
			x, y := persistData[float32](54, 40, 2)
			if _, _, err := m.Calibrate(x, y); err != nil {
				t.Fatal(err)
			}
			return m
		},
	},
	{
		name: "model_v5_bound_float64.gcpm",
		// A row within the bound and one far beyond it: x₀ = 1e4 lies
		// thousands of robust scales from the median.
		inputs: [][]float64{{0.5, -1}, {1e4, 0.25}},
		build: func(t *testing.T) interface{ MarshalBinary() ([]byte, error) } {
			// A GCP network with the input-bound section (tag 7) alone,
			// bound 50: version 5, which releases that know no bound
			// refuse as newer.
			m := persistFitted[float64](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 71})
			goldenMust(t, m.SetInputBound(50))
			return m
		},
	},
}

func goldenMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

const goldenExpectPath = "testdata/model_golden.txt"

// goldenExpect is what one golden file must decode to, as stored in
// goldenExpectPath: every float as its IEEE 754 bits, except the
// predictions, which depend on the kernels' arithmetic.
type goldenExpect struct {
	File                        string
	Elem                        int // element size of Params
	Inputs                      int
	Hidden                      []int
	Activation                  Activation
	DropoutBits, FixedAlphaBits uint64
	Seed                        uint64
	Loss                        Loss   // version 2 only, like the next two
	DPDGammaBits                uint64 // version 2
	MCSamples                   int    // version 2
	Members                     int    // version 4 only; 0 for one network
	Standardized                bool
	YMeanBits, YScaleBits       uint64
	XMeanBits, XScaleBits       []uint64
	// Version 3 only: the calibration, the names and the ranges.
	VarScaleBits, CorrScaleBits uint64
	Target                      string
	Features                    []string
	XMinBits, XMaxBits          []uint64
	// Version 5 only: the target transform, the encoding's columns, the
	// conformal calibration's rows and order statistics, and the input
	// bound.
	Transform      TargetTransform
	Columns        []Column
	ConformalRows  int
	ConformalBits  []uint64
	InputBoundBits uint64
	Params         []uint64
	Preds          []goldenPrediction
}

type goldenPrediction struct {
	X    []float64
	Want [6]float64 // Mean, Var, VarCorrected, Alpha, Beta, Nu
}

func TestGoldenFiles(t *testing.T) {
	if *updateGolden {
		writeGolden(t)
	}
	text, err := os.ReadFile(goldenExpectPath)
	if err != nil {
		t.Fatal(err)
	}
	expects, err := parseGolden(string(text))
	if err != nil {
		t.Fatalf("%s: %v", goldenExpectPath, err)
	}
	if len(expects) != len(goldenFiles) {
		t.Fatalf("%s describes %d files, want %d", goldenExpectPath, len(expects), len(goldenFiles))
	}
	for i, g := range goldenFiles {
		want := expects[i]
		if want.File != g.name {
			t.Fatalf("%s: section %d is for %s, want %s", goldenExpectPath, i, want.File, g.name)
		}
		data, err := os.ReadFile(filepath.Join("testdata", g.name))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(g.name+"/float32", func(t *testing.T) { checkGolden[float32](t, data, want, g.inputs) })
		t.Run(g.name+"/float64", func(t *testing.T) { checkGolden[float64](t, data, want, g.inputs) })
	}
}

// checkGolden decodes a golden file as Model[T] and compares it with want:
// Config and standardization exactly, every parameter bit for bit (rounded
// to float32 first when the file holds float64 and T is float32), and the
// predictions within a tolerance. In the file's own type the model must
// also re-encode to the file's bytes.
func checkGolden[T Float](t *testing.T, data []byte, want goldenExpect, inputs [][]float64) {
	var m Model[T]
	if err := m.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	got := goldenExpectOf(t, want.File, &m, inputs)
	inT := want
	inT.Elem = elemSize[T]()
	inT.Params = make([]uint64, len(want.Params))
	for i, bits := range want.Params {
		v := math.Float64frombits(bits)
		if want.Elem == 4 {
			v = float64(math.Float32frombits(uint32(bits)))
		}
		inT.Params[i] = persistBits(T(v))
	}
	if d := cmp.Diff(inT, got, cmpopts.IgnoreFields(goldenExpect{}, "Preds")); d != "" {
		t.Errorf("decoded model differs from %s (-want +got):\n%s", goldenExpectPath, d)
	}
	// The expected predictions were computed in the file's type on one
	// machine. Another may fuse multiply-adds in the layer kernels (arm64,
	// assembly), which moves the last bit of each dot product: through two
	// layers of at most 6 terms with O(1) weights, well under 100 ulps, so
	// 1e-12 relative for float64 (ulp 1.1e-16). In float32, or across
	// types, where float32 rounding of each weight or operation (6e-8
	// relative) adds up over a few dozen terms, 1e-4. A decoding fault (a
	// wrong parameter, a swapped standardization) moves predictions by
	// orders of magnitude more.
	tol := 1e-12
	if want.Elem == 4 || elemSize[T]() == 4 {
		tol = 1e-4
	}
	for i, p := range got.Preds {
		w := want.Preds[i]
		for k, v := range p.Want {
			if e := w.Want[k]; !(math.Abs(v-e) <= tol*(1+math.Abs(e)) || v == e) { // v == e for Alpha = +Inf
				t.Errorf("prediction for %v, field %d: %v, want %v within %g", w.X, k, v, e, tol)
			}
		}
	}
	if want.Elem == elemSize[T]() {
		b, err := m.MarshalBinary()
		if err != nil || !bytes.Equal(b, data) {
			t.Errorf("re-encoding %s does not reproduce its bytes (err %v)", want.File, err)
		}
	}
}

// goldenExpectOf describes m as a goldenExpect, predictions included.
func goldenExpectOf[T Float](t *testing.T, name string, m *Model[T], inputs [][]float64) goldenExpect {
	t.Helper()
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, f := range v {
			out[i] = math.Float64bits(f)
		}
		return out
	}
	e := goldenExpect{
		File: name, Elem: elemSize[T](),
		Inputs: m.cfg.Inputs, Hidden: m.cfg.Hidden, Activation: m.cfg.Activation,
		DropoutBits: math.Float64bits(m.cfg.Dropout), FixedAlphaBits: math.Float64bits(m.cfg.FixedAlpha),
		Seed: m.cfg.Seed, Standardized: m.standardized,
		Loss: m.cfg.Loss, DPDGammaBits: math.Float64bits(m.cfg.DPDGamma), MCSamples: m.cfg.MCSamples,
		YMeanBits: math.Float64bits(m.yMean), YScaleBits: math.Float64bits(m.yScale),
		XMeanBits: bits(m.xMean), XScaleBits: bits(m.xScale),
	}
	if m.cfg.Members > 1 {
		e.Members = m.cfg.Members
	}
	if m.featureNames != nil || m.xMin != nil || m.varScale != 1 || m.corrScale != 1 || m.ext != (extensions{}) { // versions 3 and 5
		e.VarScaleBits, e.CorrScaleBits = math.Float64bits(m.varScale), math.Float64bits(m.corrScale)
		e.Target, e.Features = m.targetName, m.featureNames
		e.XMinBits, e.XMaxBits = bits(m.xMin), bits(m.xMax)
		if m.xMin == nil {
			e.XMinBits, e.XMaxBits = nil, nil
		}
	}
	e.Transform = m.ext.transform
	if m.ext.encoding != nil {
		e.Columns = m.ext.encoding.Columns()
	}
	if c := m.ext.conformal; c != nil {
		e.ConformalRows, e.ConformalBits = c.n, bits(c.q)
	}
	e.InputBoundBits = math.Float64bits(m.ext.inputBound)
	for _, v := range m.params {
		e.Params = append(e.Params, persistBits(v))
	}
	ws := m.NewWorkspace()
	for _, in := range inputs {
		x := make([]T, len(in))
		for j, v := range in {
			x[j] = T(v)
		}
		p, err := m.Predict(ws, x)
		if err != nil {
			t.Fatal(err)
		}
		e.Preds = append(e.Preds, goldenPrediction{X: in, Want: [6]float64{p.Mean, p.Var, p.VarCorrected, p.Alpha, p.Beta, p.Nu}})
	}
	return e
}

// writeGolden writes the golden files of goldenFiles that are missing
// from testdata, built from their recipes, and rewrites goldenExpectPath:
// the expectations of the new files come from the models in memory (so the
// check that follows tests the files just written), those of the files
// already there are kept as they are. A file in the wild must keep loading
// as it always did, so an existing file is never rebuilt: to regenerate
// one deliberately, delete it first (see testdata/golden.md).
func writeGolden(t *testing.T) {
	old, err := os.ReadFile(goldenExpectPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	kept, err := parseGolden(string(old))
	if err != nil {
		t.Fatalf("%s: %v", goldenExpectPath, err)
	}
	var text strings.Builder
	text.WriteString(`# What the golden files testdata/model_v*.gcpm
# must decode to: the Config, the standardization and every parameter as
# IEEE 754 bits in hex (parameters in the file's element width), and the
# predictions "inputs = Mean Var VarCorrected Alpha Beta Nu" for a few
# inputs. Written by "go test -run TestGoldenFiles -update-golden"; see
# golden.md before regenerating.
`)
	for _, g := range goldenFiles {
		path := filepath.Join("testdata", g.name)
		if _, err := os.Stat(path); err == nil {
			i := slices.IndexFunc(kept, func(e goldenExpect) bool { return e.File == g.name })
			if i < 0 {
				t.Fatalf("%s exists but %s has no section for it: delete it to rebuild it", path, goldenExpectPath)
			}
			formatGolden(&text, kept[i])
			continue
		}
		m := g.build(t)
		data, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *Model[float32]:
			formatGolden(&text, goldenExpectOf(t, g.name, m, g.inputs))
		case *Model[float64]:
			formatGolden(&text, goldenExpectOf(t, g.name, m, g.inputs))
		}
	}
	if err := os.WriteFile(goldenExpectPath, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// formatGolden appends e to w in the format parseGolden reads: one
// "key values…" line per field, one "param" line per parameter, one
// "predict" line per input.
func formatGolden(w *strings.Builder, e goldenExpect) {
	list := func(v any) string { return strings.Trim(fmt.Sprintf("%#x", v), "[]") }
	fmt.Fprintf(w, "\nfile %s\nelem %d\ninputs %d\nhidden %s\nactivation %d\n", e.File, e.Elem, e.Inputs, list(e.Hidden), e.Activation)
	fmt.Fprintf(w, "dropout %#x\nfixedalpha %#x\nseed %#x\nstandardized %t\n", e.DropoutBits, e.FixedAlphaBits, e.Seed, e.Standardized)
	if e.Loss != LossGCP { // version 2's fields
		fmt.Fprintf(w, "loss %d\ndpdgamma %#x\nmcsamples %d\n", e.Loss, e.DPDGammaBits, e.MCSamples)
	}
	if e.Members > 1 { // version 4's field
		fmt.Fprintf(w, "members %d\n", e.Members)
	}
	fmt.Fprintf(w, "ymean %#x\nyscale %#x\nxmean %s\nxscale %s\n", e.YMeanBits, e.YScaleBits, list(e.XMeanBits), list(e.XScaleBits))
	if e.VarScaleBits != 0 { // version 3's fields; names are quoted and have no spaces
		fmt.Fprintf(w, "varscale %#x\ncorrscale %#x\ntarget %s\n", e.VarScaleBits, e.CorrScaleBits, strconv.QuoteToASCII(e.Target))
		if e.Features != nil {
			w.WriteString("features")
			for _, f := range e.Features {
				w.WriteString(" " + strconv.QuoteToASCII(f))
			}
			w.WriteString("\n")
		}
		if e.XMinBits != nil {
			fmt.Fprintf(w, "xmin %s\nxmax %s\n", list(e.XMinBits), list(e.XMaxBits))
		}
	}
	if e.Transform != TransformNone { // version 5's sections
		fmt.Fprintf(w, "transform %d\n", e.Transform)
	}
	for _, c := range e.Columns {
		fmt.Fprintf(w, "column %s %d %t %t %#x", strconv.QuoteToASCII(c.Name), c.Kind, c.Missing, c.Other, math.Float64bits(c.Impute))
		for _, l := range c.Levels {
			w.WriteString(" " + strconv.QuoteToASCII(l))
		}
		w.WriteString("\n")
	}
	if e.ConformalRows > 0 {
		fmt.Fprintf(w, "conformal %d %s\n", e.ConformalRows, list(e.ConformalBits))
	}
	if e.InputBoundBits != 0 {
		fmt.Fprintf(w, "inputbound %#x\n", e.InputBoundBits)
	}
	for _, p := range e.Params {
		fmt.Fprintf(w, "param %#x\n", p)
	}
	for _, p := range e.Preds {
		fmt.Fprintf(w, "predict %s =", strings.Trim(fmt.Sprint(p.X), "[]"))
		for _, v := range p.Want {
			w.WriteString(" " + strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.WriteString("\n")
	}
}

// parseGolden reads the sections of goldenExpectPath.
func parseGolden(text string) ([]goldenExpect, error) {
	var out []goldenExpect
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: %q has no value", line, f[0])
		}
		if f[0] == "file" {
			out = append(out, goldenExpect{File: f[1]})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("line %d: %q before the first file", line, f[0])
		}
		if err := parseGoldenLine(&out[len(out)-1], f[0], f[1:]); err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", line, f[0], err)
		}
	}
	return out, sc.Err()
}

// parseGoldenLine stores the values of one line of key in e.
func parseGoldenLine(e *goldenExpect, key string, f []string) error {
	switch key {
	case "standardized":
		v, err := strconv.ParseBool(f[0])
		e.Standardized = v
		return err
	case "column":
		return parseGoldenColumn(e, f)
	case "conformal":
		n, err := strconv.Atoi(f[0])
		if err != nil {
			return err
		}
		e.ConformalRows = n
		for _, h := range f[1:] {
			v, err := strconv.ParseUint(h, 0, 64)
			if err != nil {
				return err
			}
			e.ConformalBits = append(e.ConformalBits, v)
		}
		return nil
	case "target", "features":
		var names []string
		for _, q := range f {
			name, err := strconv.Unquote(q)
			if err != nil {
				return err
			}
			names = append(names, name)
		}
		if key == "target" {
			e.Target = names[0]
		} else {
			e.Features = names
		}
		return nil
	case "predict":
		var p goldenPrediction
		i := slices.Index(f, "=")
		if i < 0 || len(f)-i-1 != len(p.Want) {
			return fmt.Errorf("want inputs, \"=\" and %d values", len(p.Want))
		}
		for k, s := range slices.Delete(slices.Clone(f), i, i+1) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return err
			}
			if k < i {
				p.X = append(p.X, v)
			} else {
				p.Want[k-i] = v
			}
		}
		e.Preds = append(e.Preds, p)
		return nil
	}
	nums := make([]uint64, len(f))
	for i, s := range f {
		n, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			return err
		}
		nums[i] = n
	}
	switch key {
	case "varscale":
		e.VarScaleBits = nums[0]
	case "corrscale":
		e.CorrScaleBits = nums[0]
	case "xmin":
		e.XMinBits = nums
	case "xmax":
		e.XMaxBits = nums
	case "elem":
		e.Elem = int(nums[0])
	case "inputs":
		e.Inputs = int(nums[0])
	case "hidden":
		for _, n := range nums {
			e.Hidden = append(e.Hidden, int(n))
		}
	case "activation":
		e.Activation = Activation(nums[0])
	case "dropout":
		e.DropoutBits = nums[0]
	case "fixedalpha":
		e.FixedAlphaBits = nums[0]
	case "seed":
		e.Seed = nums[0]
	case "loss":
		e.Loss = Loss(nums[0])
	case "dpdgamma":
		e.DPDGammaBits = nums[0]
	case "mcsamples":
		e.MCSamples = int(nums[0])
	case "members":
		e.Members = int(nums[0])
	case "transform":
		e.Transform = TargetTransform(nums[0])
	case "inputbound":
		e.InputBoundBits = nums[0]
	case "ymean":
		e.YMeanBits = nums[0]
	case "yscale":
		e.YScaleBits = nums[0]
	case "xmean":
		e.XMeanBits = nums
	case "xscale":
		e.XScaleBits = nums
	case "param":
		e.Params = append(e.Params, nums...)
	default:
		return errors.New("unknown key")
	}
	return nil
}

// parseGoldenColumn stores a column of an encoding, written as
// "column NAME KIND MISSING OTHER IMPUTE LEVELS…", in e.
func parseGoldenColumn(e *goldenExpect, f []string) error {
	if len(f) < 5 {
		return errors.New("want a name, a kind, two flags, an imputed value and the levels")
	}
	var c Column
	var err error
	var kind, impute uint64
	name, err1 := strconv.Unquote(f[0])
	kind, err2 := strconv.ParseUint(f[1], 0, 8)
	missing, err3 := strconv.ParseBool(f[2])
	other, err4 := strconv.ParseBool(f[3])
	impute, err5 := strconv.ParseUint(f[4], 0, 64)
	if err = errors.Join(err1, err2, err3, err4, err5); err != nil {
		return err
	}
	c.Name, c.Kind, c.Missing, c.Other, c.Impute = name, ColumnKind(kind), missing, other, math.Float64frombits(impute)
	for _, q := range f[5:] {
		l, err := strconv.Unquote(q)
		if err != nil {
			return err
		}
		c.Levels = append(c.Levels, l)
	}
	e.Columns = append(e.Columns, c)
	return nil
}
