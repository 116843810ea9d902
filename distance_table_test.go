package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/gcpnet/gcp/internal/synth"
)

// colourRows returns n rows of the colour table: x1 and x2 standard
// normal, a colour of five with effects −1, −0.5, 0, 0.5 and 1, and
// y = sin(x1) + x2/2 + the colour's effect + N(0, 0.5²); the last unseen
// rows have the colour purple, with the effect +3, which the first
// n − unseen rows never hold.
func colourRows(r *rand.Rand, n, unseen int) [][]string {
	colours := []string{"black", "blue", "green", "red", "yellow"}
	effects := []float64{-1, -0.5, 0, 0.5, 1}
	rows := make([][]string, n)
	for i := range rows {
		x1, x2 := r.NormFloat64(), r.NormFloat64()
		k := r.IntN(len(colours))
		colour, effect := colours[k], effects[k]
		if i >= n-unseen {
			colour, effect = "purple", 3
		}
		y := math.Sin(x1) + x2/2 + effect + 0.5*r.NormFloat64()
		rows[i] = []string{fmtFloat(x1), fmtFloat(x2), colour, fmtFloat(y)}
	}
	return rows
}

// fmtFloat formats v as ParseNumber reads it back exactly.
func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// houseRows returns n rows of a house-like table: area and lot
// log-normal, rooms 1 to 6, age uniform over a century, and three text
// columns whose levels are far from equally common: a district of 30,
// the k-th drawn with weight 1/k (the rarest held by about one row in
// 90), a type of four (60%, 25%, 10%, 5%) and a condition of five; the
// price follows from all of them.
func houseRows(r *rand.Rand, n int) [][]string {
	pick := func(w []float64) int { return synth.Pick(r, w) }
	district := make([]float64, 30)
	for k := range district {
		district[k] = 1 / float64(k+1)
	}
	types := []string{"detached", "semi", "terrace", "flat"}
	conditions := []string{"poor", "fair", "good", "very good", "excellent"}
	rows := make([][]string, n)
	for i := range rows {
		area := math.Exp(4.5 + 0.35*r.NormFloat64())
		lot := math.Exp(6 + 0.6*r.NormFloat64())
		rooms := 1 + r.IntN(6)
		age := 100 * r.Float64()
		d, ty, c := pick(district), pick([]float64{60, 25, 10, 5}), pick([]float64{5, 20, 40, 25, 10})
		price := math.Log(area)*2 + math.Log(lot)/2 + 0.1*float64(rooms) - age/200 + float64(d%5)/10 - float64(ty)/5 + float64(c)/5 + 0.2*r.NormFloat64()
		rows[i] = []string{fmtFloat(area), fmtFloat(lot), strconv.Itoa(rooms), fmtFloat(age),
			"d" + strconv.Itoa(d), types[ty], conditions[c], fmtFloat(price)}
	}
	return rows
}

// fitTable learns the encoding of the header and train rows, trains a
// small network on them for epochs epochs (enough to learn the
// standardization and the ranges, and the colours' effects), and returns
// the model with the encoding set.
func fitTable(t *testing.T, header []string, train [][]string, epochs int) *Model[float64] {
	t.Helper()
	enc, data, err := LearnEncoding(header, train, header[len(header)-1], '.')
	if err != nil {
		t.Fatal(err)
	}
	m := fitFresh[float64](t, Config{Inputs: enc.Inputs(), Hidden: []int{16}, Seed: 1}, data.X, data.Y, epochs)
	if err := m.SetEncoding(enc); err != nil {
		t.Fatal(err)
	}
	return m
}

// predictTable predicts every row of rows (their features, the target
// last), and returns the predictions and the notes of their encoding.
func predictTable(t *testing.T, m *Model[float64], rows [][]string) ([]Prediction, []RecordNotes) {
	t.Helper()
	ws, x := m.NewWorkspace(), make([]float64, m.Config().Inputs)
	preds, notes := make([]Prediction, len(rows)), make([]RecordNotes, len(rows))
	for i, row := range rows {
		var err error
		if notes[i], err = m.EncodeFields(x, row[:len(row)-1], '.'); err != nil {
			t.Fatal(err)
		}
		if preds[i], err = m.Predict(ws, x); err != nil {
			t.Fatal(err)
		}
	}
	return preds, notes
}

// TestColourTableUnseenLevelFlagged checks the colour table of 1,500
// training rows and 500 test rows, 84 of them of a colour training never
// saw: each of those is counted as unseen and outside the training data,
// has an InputZ above the 95th percentile of the known rows' and
// calibrated intervals marked unknown; the known rows' intervals stay
// finite. Before, the unseen rows had the lowest InputZ of all (0 in the
// colour's inputs, the numeric ones' alone) and outside 0, and kept
// intervals that held a quarter of their targets.
func TestColourTableUnseenLevelFlagged(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	header := []string{"x1", "x2", "colour", "y"}
	m := fitTable(t, header, colourRows(r, 1500, 0), 20)
	test := colourRows(r, 500, 84)
	preds, notes := predictTable(t, m, test)
	var knownZ []float64
	for i, p := range preds {
		if test[i][2] != "purple" {
			knownZ = append(knownZ, p.InputZ)
			if lo, hi, _ := p.CalibratedInterval(0.95); !finite(lo) || !finite(hi) {
				t.Fatalf("known row %d: calibrated interval (%v, %v), want finite", i, lo, hi)
			}
		}
	}
	slices.Sort(knownZ)
	q95 := knownZ[len(knownZ)*95/100]
	for i, p := range preds[416:] {
		n := notes[416+i]
		lo, hi, _ := p.CalibratedInterval(0.95)
		if n.Unseen != 1 || n.Outside < 1 || !(p.InputZ > q95) || !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
			t.Fatalf("unseen row %d: Unseen %d, Outside %d, InputZ %v (known rows' 95th percentile %v), calibrated interval (%v, %v); want 1, ≥ 1, above, unknown",
				416+i, n.Unseen, n.Outside, p.InputZ, q95, lo, hi)
		}
	}
}

// TestHouseTableOrdinaryRowsNear checks that on a house-like table with
// text columns of common and rare levels, rows drawn as the training rows
// were have a median InputZ of at most 1.5. The largest of four numeric
// robust z-scores alone has a median near 1.3 for normal columns; before,
// the one-hot inputs' z-scores gave these rows a median near 3 (a level
// held by 5% of rows has a z of 4.4).
func TestHouseTableOrdinaryRowsNear(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 2))
	header := []string{"area", "lot", "rooms", "age", "district", "type", "condition", "price"}
	m := fitTable(t, header, houseRows(r, 1500), 1)
	preds, _ := predictTable(t, m, houseRows(r, 500))
	z := make([]float64, len(preds))
	for i, p := range preds {
		z[i] = p.InputZ
	}
	slices.Sort(z)
	t.Logf("median %g q95 %g max %g", z[len(z)/2], z[len(z)*95/100], z[len(z)-1])
	if median := z[len(z)/2]; !(median <= 1.5) {
		t.Errorf("ordinary rows' median InputZ %g, want ≤ 1.5 (95th percentile %g)", median, z[len(z)*95/100])
	}
}
