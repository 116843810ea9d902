package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCentredInputs checks, on four hand-made rows, which inputs at
// least half of the rows hold at the model's centre: a level of one row
// in four (centre 0) and a level of three rows in four (centre 1) are;
// a numeric column is not, nor a column of two 0s and two 1s centred at
// their median 0.5, which no row holds.
func TestCentredInputs(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 4, Hidden: []int{3}})
	x := []float64{
		0, 1, 0.3, 0,
		0, 1, 1.2, 0,
		1, 0, -2, 1,
		0, 1, 5, 1,
	}
	if err := m.SetStandardization([]float64{0, 1, 0.75, 0.5}, []float64{1, 1, 1, 1}, 0, 1); err != nil {
		t.Fatal(err)
	}
	got := m.centredInputs(rowSet[float64]{x: x, y: make([]float64, 4), d: 4})
	if want := []bool{true, true, false, false}; !slices.Equal(got, want) {
		t.Fatalf("centred %v, want %v", got, want)
	}
	// Two rows of four, the second and fourth: the level of centre 1 is
	// held by both, the numeric column by neither.
	got = m.centredInputs(rowSet[float64]{x: x, y: make([]float64, 4), d: 4, rows: []int32{1, 3}})
	if want := []bool{true, true, false, false}; !slices.Equal(got, want) {
		t.Fatalf("rows 1 and 3: centred %v, want %v", got, want)
	}
	if got = m.centredInputs(rowSet[float64]{x: x, d: 4, rows: []int32{}}); slices.Contains(got, true) {
		t.Fatalf("no rows: centred %v, want none", got)
	}
}

// TestRecordedCentredInputs checks the inputs whose centre is an end of
// their recorded range: a level (range [0, 1], centre 0 or 1) is, a
// numeric column centred inside its range is not; and that a model
// without a record or a standardization marks none.
func TestRecordedCentredInputs(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 3, Hidden: []int{3}})
	if got := m.recordedCentredInputs(); got != nil {
		t.Fatalf("new model: %v, want nil", got)
	}
	m.extendRanges([]float64{0, 1, -1, 1, 0, 4})
	if got := m.recordedCentredInputs(); got != nil {
		t.Fatalf("no standardization: %v, want nil", got)
	}
	if err := m.SetStandardization([]float64{0, 1, 2}, []float64{1, 1, 1}, 0, 1); err != nil {
		t.Fatal(err)
	}
	if got, want := m.recordedCentredInputs(), []bool{true, true, false}; !slices.Equal(got, want) {
		t.Fatalf("centred %v, want %v", got, want)
	}
}

// houseTable returns the house-like table's encoded rows (houseRows: four
// numeric columns, and 39 one-hot inputs of three text columns).
func houseTable(t *testing.T, seed uint64, n int) (*Encoding, *EncodedRows) {
	t.Helper()
	header := []string{"area", "lot", "rooms", "age", "district", "type", "condition", "price"}
	enc, data, err := LearnEncoding(header, houseRows(rand.New(rand.NewPCG(seed, 1)), n), "price", '.')
	if err != nil {
		t.Fatal(err)
	}
	return enc, data
}

// TestOneHotTableServedSparse checks that training and prediction on a
// table with text columns serve the one-hot inputs a row of weights at a
// time, with the numbers of the dense product up to rounding: the
// gradient of a step, and a batch of predictions. The first layer's
// values differ by at most 2γ_{d+1} ≈ 1e-14 of their terms' magnitudes
// (TestSparseForwardMatchesDense); the later layers, the loss and the
// predictive's links are smooth with derivatives of order 1 to 100 for
// these small weights, so 1e-9 of the largest gradient (or relatively in
// a prediction) leaves a margin of a thousand, where serving an input
// wrongly moves both by whole terms. Step and Predict allocate nothing.
func TestOneHotTableServedSparse(t *testing.T) {
	_, data := houseTable(t, 5, 300)
	d := len(data.X) / len(data.Y)
	m := mustModel[float64](t, Config{Inputs: d, Hidden: []int{8, 6}, Members: 2, Dropout: 0.1, Seed: 3})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 16, LearningRate: 1e-3})
	if _, err := tr.Fit(data.X, data.Y, FitOptions[float64]{Epochs: 1, Seed: 1, ValidationShare: 0.2}); err != nil {
		t.Fatal(err)
	}
	s := tr.a.sparse
	if s == nil || len(s.dense) != 4 || len(s.sparse) != d-4 {
		t.Fatalf("trainer's plan %+v, want the %d one-hot inputs sparse and the 4 numeric ones dense", s, d-4)
	}
	x, y := data.X[:16*d], data.Y[:16]
	if err := m.standardizeRows(tr.a.x[:len(x)], x, tr.z); err != nil {
		t.Fatal(err)
	}
	for i, v := range y {
		tr.y[i] = (v - m.yMean) / m.yScale
	}
	mask := make([]float64, 16*m.lay.width(m.lay.last()))
	dropoutMaskGeneric(&tr.src, m.cfg.Dropout, mask)
	tr.gradientMasked(16, mask)
	sparse := slices.Clone(tr.grad)
	tr.a.sparse = nil
	tr.gradientMasked(16, mask)
	tr.a.sparse = s
	var largest float64
	for _, g := range tr.grad {
		largest = max(largest, math.Abs(g))
	}
	for i, g := range sparse {
		if math.Abs(g-tr.grad[i]) > 1e-9*largest {
			t.Fatalf("gradient %d: %v served sparse, %v dense (largest %v)", i, g, tr.grad[i], largest)
		}
	}

	ws := m.NewWorkspace()
	if ws.a.sparse == nil {
		t.Fatal("the workspace of a fitted model with one-hot inputs serves them densely")
	}
	got, want := make([]Prediction, 16), make([]Prediction, 16)
	if err := m.PredictBatch(ws, x, got); err != nil {
		t.Fatal(err)
	}
	dense := m.NewWorkspace()
	dense.a.sparse = nil
	if err := m.PredictBatch(dense, x, want); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		for _, v := range [][2]float64{{got[i].Mean, want[i].Mean}, {got[i].Var, want[i].Var}, {got[i].Nu, want[i].Nu}} {
			if math.Abs(v[0]-v[1]) > 1e-9*max(1, math.Abs(v[1])) {
				t.Fatalf("row %d: prediction %+v served sparse, %+v dense", i, got[i], want[i])
			}
		}
	}
	if n := testing.AllocsPerRun(20, func() { _, _ = m.Predict(ws, x[:d]) }); n != 0 {
		t.Fatalf("Predict allocates %v times", n)
	}
	if n := testing.AllocsPerRun(20, func() { _, _ = tr.Step(x, y) }); n != 0 {
		t.Fatalf("Step allocates %v times", n)
	}
}
