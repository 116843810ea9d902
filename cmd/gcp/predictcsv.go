package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp"
)

// predictLevel is one interval level of gcp predict's -levels: the level
// and its percentage as the column names spell it, "95" for 0.95.
type predictLevel struct {
	p     float64
	label string
}

// maxLevelText is the longest level -levels takes, in bytes: a float64
// tells apart at most 17 significant digits, so that "0." and 17 digits
// say all a level can, with room for an exponent; the label of a longer
// one would take time quadratic in its length to find.
const maxLevelText = 24

// parseLevels parses -levels: levels in (0, 1), separated by commas, each
// named after its exact decimal percentage (0.975 gives lo97.5_cal), and
// each at most maxLevelText bytes long.
func parseLevels(s string) ([]predictLevel, error) {
	var out []predictLevel
	seen := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if len(f) > maxLevelText {
			return nil, fmt.Errorf("-levels %q: %q is longer than %d characters; a level has at most 17 significant digits", shorten(s), shorten(f), maxLevelText)
		}
		r, ok := new(big.Rat).SetString(f)
		p, err := strconv.ParseFloat(f, 64)
		if !ok || err != nil || !(p > 0 && p < 1) {
			return nil, fmt.Errorf("-levels %q: %q is not a level in (0, 1); want levels like 0.5,0.9,0.95", shorten(s), f)
		}
		label := percent(r)
		if seen[label] {
			return nil, fmt.Errorf("-levels %q: %s%% twice", shorten(s), label)
		}
		seen[label] = true
		out = append(out, predictLevel{p, label})
	}
	return out, nil
}

// percent returns 100·r with as many decimals as it needs: r is a
// decimal written with finitely many digits, so some count is exact.
func percent(r *big.Rat) string {
	r = new(big.Rat).Mul(r, big.NewRat(100, 1))
	for d := 0; ; d++ {
		s := r.FloatString(d)
		if back, _ := new(big.Rat).SetString(s); back.Cmp(r) == 0 {
			return s
		}
	}
}

// rowWriter writes rows of numbers under named columns: as CSV, the
// header, then a line per row; or as JSON Lines (-format json), an object
// per row whose keys are the CSV's column names. Each row's numbers are
// vals, which the caller fills before write.
type rowWriter struct {
	w     *bufio.Writer
	bits  int // 32 for a float32 model: fewer digits
	hasID bool
	keys  [][]byte // JSON: each column's name, quoted, and a colon; nil for CSV
	vals  []float64
	buf   []byte
}

// newRowWriter returns a writer of rows under the columns cols, the
// first an id column if hasID, with the digits of a model of the given
// bits, as JSON Lines if asJSON, else as CSV, whose header it writes.
func newRowWriter(w io.Writer, cols []string, bits int, hasID, asJSON bool) *rowWriter {
	rw := &rowWriter{w: bufio.NewWriter(w), bits: bits, hasID: hasID}
	if asJSON {
		for _, c := range cols {
			rw.keys = append(rw.keys, append(jsonString(nil, c), ':'))
		}
		return rw
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = csvField(c)
	}
	rw.w.WriteString(strings.Join(quoted, ",") + "\n")
	return rw
}

// predictWriter writes gcp predict's rows of a model of one target.
type predictWriter struct {
	*rowWriter
	m         model
	levels    []predictLevel
	conformal bool // the model has a conformal calibration
}

// newPredictWriter returns a writer of m's predictions at the levels,
// with an id column first if idName is not empty, as JSON Lines if
// asJSON, else as CSV, whose header it writes.
func newPredictWriter(w io.Writer, m model, levels []predictLevel, idName string, asJSON bool) *predictWriter {
	pw := &predictWriter{m: m, levels: levels, conformal: hasConformal(m)}
	var cols []string
	if idName != "" {
		cols = append(cols, idName)
	}
	cols = append(cols, "mean")
	interval := func(suffix string) {
		for _, l := range levels {
			cols = append(cols, "lo"+l.label+suffix, "hi"+l.label+suffix)
		}
	}
	interval("_cal")
	if pw.conformal {
		interval("_conformal")
	}
	cols = append(cols, "sd_corrected")
	interval("_student_t")
	cols = append(cols, "sd_student_t", "alpha", "input_z", "outside", "unseen", "sd_epistemic", "disagreement")
	pw.rowWriter = newRowWriter(w, cols, m.bits(), idName != "", asJSON)
	return pw
}

// csvField quotes s as a CSV field where it needs quotes.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// jsonString appends s as a JSON string.
func jsonString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// row writes the line of the prediction p of the input row x, whose
// encoding noted notes, after the field id, as it was in the file, if the
// writer has an id column.
func (pw *predictWriter) row(id string, x []float64, p gcp.Prediction, notes gcp.RecordNotes) error {
	pw.vals = append(pw.vals[:0], p.Mean)
	type intervalFunc func(gcp.Prediction, float64) (float64, float64, error)
	intervals := func(f intervalFunc) error {
		for _, l := range pw.levels {
			lo, hi, err := f(p, l.p)
			if err != nil {
				return err
			}
			pw.vals = append(pw.vals, lo, hi)
		}
		return nil
	}
	if err := intervals(gcp.Prediction.CalibratedInterval); err != nil {
		return err
	}
	if pw.conformal {
		if err := intervals(pw.m.ConformalInterval); err != nil {
			return err
		}
	}
	pw.vals = append(pw.vals, math.Sqrt(p.VarCorrected))
	if err := intervals(gcp.Prediction.Interval); err != nil {
		return err
	}
	outside, _ := pw.m.OutsideRange(x)
	pw.vals = append(pw.vals, math.Sqrt(p.Var), p.Alpha, p.InputZ, float64(outside), float64(notes.Unseen), math.Sqrt(p.VarEpistemic), p.Disagreement)
	return pw.write(id)
}

// write writes the line of vals after the field id, as it was in the
// file, if the writer has an id column.
func (rw *rowWriter) write(id string) error {
	if rw.keys != nil {
		rw.buf = rw.jsonLine(id)
	} else {
		rw.buf = rw.csvLine(id)
	}
	_, err := rw.w.Write(rw.buf)
	return err
}

// csvLine returns the CSV line of the id, if the writer has an id
// column, and the values, in rw.buf.
func (rw *rowWriter) csvLine(id string) []byte {
	b := rw.buf[:0]
	if rw.hasID {
		b = append(append(b, csvField(id)...), ',')
	}
	for i, v := range rw.vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNumber(b, v, rw.bits)
	}
	return append(b, '\n')
}

// jsonLine returns the JSON object of the id, if the writer has an id
// column, and the values, in rw.buf. JSON has no infinity and no NaN:
// those are written as the strings "Infinity", "-Infinity" and "NaN",
// which keep the sign of an unknown interval's ends (a null would not)
// and which Go's strconv.ParseFloat, Python's float and JavaScript's
// Number read back.
func (rw *rowWriter) jsonLine(id string) []byte {
	b := append(rw.buf[:0], '{')
	keys := rw.keys
	if rw.hasID {
		b = jsonString(append(b, keys[0]...), id)
		keys = keys[1:]
	}
	for i, v := range rw.vals {
		if i > 0 || rw.hasID {
			b = append(b, ',')
		}
		b = append(b, keys[i]...)
		switch {
		case math.IsInf(v, 1):
			b = append(b, `"Infinity"`...)
		case math.IsInf(v, -1):
			b = append(b, `"-Infinity"`...)
		case math.IsNaN(v):
			b = append(b, `"NaN"`...)
		default:
			b = appendNumber(b, v, rw.bits)
		}
	}
	return append(b, "}\n"...)
}

// flush writes what is buffered.
func (rw *rowWriter) flush() error { return rw.w.Flush() }

// appendNumber appends v with the digits it has: the shortest decimal
// that reads back as the same float64, or for a float32 model (bits 32)
// as the same float32, since its parameters hold no more; a value beyond
// float32's normal range is written with float32's 9 significant digits.
func appendNumber(b []byte, v float64, bits int) []byte {
	if bits != 32 {
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	if a := math.Abs(v); a == 0 || a >= 0x1p-126 && a <= math.MaxFloat32 || math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.AppendFloat(b, v, 'g', -1, 32)
	}
	return strconv.AppendFloat(b, v, 'g', 9, 64)
}
