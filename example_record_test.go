package gcp_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gcpnet/gcp"
)

// house is a program's own record type: it becomes a gcp.Record through
// its Field method, which maps the model's column names to its fields'
// text. Numbers are formatted by strconv.FormatFloat with precision −1,
// which gcp.ParseNumber reads back exactly; an unknown number of rooms
// is a missing value ("NA").
type house struct {
	City  string
	Rooms int // 0: unknown
	Area  float64
}

func (h house) Field(column string) (string, bool) {
	switch column {
	case "city":
		return h.City, true
	case "rooms":
		if h.Rooms == 0 {
			return "NA", true
		}
		return strconv.Itoa(h.Rooms), true
	case "area":
		return strconv.FormatFloat(h.Area, 'g', -1, 64), true
	}
	return "", false
}

// A table with a text column, missing values and a positive, skewed
// target: LearnEncoding learns its encoding from the training rows,
// ChooseTargetTransform picks the log of the target, and the model,
// which keeps both, predicts a record of the program's own type in
// original units.
func ExampleModel_PredictRecord() {
	header := []string{"city", "rooms", "area", "price"}
	r := rand.New(rand.NewPCG(1, 2))
	var rows [][]string
	for range 300 {
		city := []string{"Madrid", "Paris", "Roma"}[r.IntN(3)]
		rooms := 1 + r.IntN(4)
		area := 30 + 100*r.Float64()
		price := math.Exp(4 + 0.01*area + 0.1*float64(rooms) + 0.3*r.NormFloat64())
		rec := house{City: city, Rooms: rooms, Area: area}
		if r.IntN(10) == 0 {
			rec.Rooms = 0 // unknown
		}
		var row []string
		for _, c := range header[:3] {
			f, _ := rec.Field(c)
			row = append(row, f)
		}
		rows = append(rows, append(row, strconv.FormatFloat(price, 'g', -1, 64)))
	}
	enc, data, err := gcp.LearnEncoding(header, rows, "price", '.')
	if err != nil {
		panic(err)
	}
	choice := gcp.ChooseTargetTransform(data.Y)
	z := make([]float64, len(data.Y))
	for i, y := range data.Y {
		z[i], _ = choice.Transform.Apply(y) // training works in the modeled units
	}
	m, err := gcp.New[float64](gcp.Config{Inputs: enc.Inputs(), Seed: 1})
	if err != nil {
		panic(err)
	}
	trainer, err := gcp.NewTrainer(m, gcp.TrainConfig{BatchSize: 32, Seed: 1})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(data.X, z, gcp.FitOptions[float64]{Epochs: 50}); err != nil {
		panic(err)
	}
	if err := m.SetEncoding(enc); err != nil {
		panic(err)
	}
	if err := m.SetTargetTransform(choice.Transform); err != nil {
		panic(err)
	}
	fmt.Println("transform:", choice.Transform)
	fmt.Println("inputs:", enc.InputNames())
	ws := m.NewWorkspace()
	for _, h := range []house{{City: "Paris", Rooms: 3, Area: 80}, {City: "Lyon", Area: 80}} {
		p, notes, err := m.PredictRecord(ws, h)
		if err != nil {
			panic(err)
		}
		// A city training never saw has a calibrated interval that is
		// unknown: 0 to +Inf for a log-transformed target.
		lo, hi, _ := p.CalibratedInterval(0.9)
		fmt.Printf("%s: unseen levels: %d; ", h.City, notes.Unseen)
		if math.IsInf(hi, 1) {
			fmt.Println("90% interval unknown:", lo, hi)
		} else {
			fmt.Println("90% interval above 0 and around the mean:", 0 < lo && lo < p.Mean && p.Mean < hi)
		}
	}
	// Output:
	// transform: log
	// inputs: [city=Madrid city=Paris city=Roma rooms rooms=(missing) area]
	// Paris: unseen levels: 0; 90% interval above 0 and around the mean: true
	// Lyon: unseen levels: 1; 90% interval unknown: 0 +Inf
}

// A table held by column, as a program that reads a large file keeps
// it: a column of numbers as float64 (NaN where a value is missing) and
// a column of text as a code per row into its distinct levels.
// LearnEncodingColumns learns the encoding that LearnEncoding learns from
// the same rows as text, and EncodeRow encodes a row as EncodeFields
// encodes its text.
func ExampleLearnEncodingColumns() {
	header := []string{"city", "area", "price"}
	cols := []gcp.TableColumn{
		{Codes: []uint32{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2}, Levels: []string{"Madrid", "Paris", "Roma"}},
		{Numbers: []float64{50, 60, math.NaN(), 80, 90, 100, 110, 120, 130, 140, 150}},
		{Numbers: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, math.NaN()}},
	}
	enc, data, err := gcp.LearnEncodingColumns(header, cols, nil, "price", '.')
	if err != nil {
		panic(err)
	}
	fmt.Println("inputs:", enc.InputNames())
	fmt.Println("rows with a target:", len(data.Rows), "row 2:", data.X[2*enc.Inputs():3*enc.Inputs()])
	// Output:
	// inputs: [city=Madrid city=Paris area area=(missing)]
	// rows with a target: 10 row 2: [1 0 100 1]
}
