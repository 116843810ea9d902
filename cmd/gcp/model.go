package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
	"github.com/gcpnet/gcp/internal/atomicfile"
)

// model is a saved model of any method, as predict and eval use it: the
// root package's networks (gcp.Model) or a Bayesian comparator of
// package bayes. The names are those of gcp.Model's methods.
type model interface {
	// inputs is the number of inputs of a row, after its encoding.
	inputs() int
	// columns returns the names of the columns of a record, in the
	// model's order, and the target's; nil and "" for a model without
	// names, which takes inputs() columns by position.
	columns() (names []string, target string)
	// encode encodes row i of the model's columns cols, numbers in text
	// with the decimal mark decimal, into the inputs x, as
	// gcp.Model.EncodeRow does.
	encode(x []float64, cols []gcp.TableColumn, i int, decimal byte) (gcp.RecordNotes, error)
	// categorical returns the names of the columns the model takes as
	// categorical, whose levels are text as written: a data file's
	// reader keeps them as text (table.Read).
	categorical() []string
	// predictor returns a function that predicts one row, for use by one
	// goroutine.
	predictor() func(x []float64) (gcp.Prediction, error)
	// bits is the precision of the model's parameters, 32 or 64: the
	// digits its predictions have.
	bits() int
	FeatureRanges() (lo, hi []float64, ok bool)
	OutsideRange(x []float64) (count, first int)
	ConformalInterval(p gcp.Prediction, level float64) (lo, hi float64, err error)
}

// network is a model of the root package, read as float64 whatever type
// it was trained in: a float32 model loads exactly, and float64
// arithmetic only removes rounding. stored is the precision it was saved
// in, 32 or 64.
type network struct {
	*gcp.Model[float64]
	stored int
}

func (n network) inputs() int { return n.Config().Inputs }

func (n network) bits() int { return n.stored }

func (n network) columns() ([]string, string) {
	e := n.Encoding()
	if e == nil {
		return nil, ""
	}
	var names []string
	for _, c := range e.Columns() {
		names = append(names, c.Name)
	}
	return names, e.Target()
}

func (n network) encode(x []float64, cols []gcp.TableColumn, i int, decimal byte) (gcp.RecordNotes, error) {
	return n.EncodeRow(x, cols, i, decimal)
}

func (n network) categorical() []string {
	var names []string
	if e := n.Encoding(); e != nil {
		for _, c := range e.Columns() {
			if c.Kind == gcp.Categorical {
				names = append(names, c.Name)
			}
		}
	}
	return names
}

func (n network) predictor() func(x []float64) (gcp.Prediction, error) {
	ws := n.NewWorkspace()
	return func(x []float64) (gcp.Prediction, error) { return n.Predict(ws, x) }
}

// predictRowsOf returns m's predictions of the row-major rows x, or the
// error of the first row that fails and that row's index.
func predictRowsOf(m model, x []float64) (preds []gcp.Prediction, failed int, err error) {
	d := m.inputs()
	predict := m.predictor()
	preds = make([]gcp.Prediction, len(x)/d)
	for i := range preds {
		if preds[i], err = predict(x[i*d : (i+1)*d]); err != nil {
			return nil, i, err
		}
	}
	return preds, 0, nil
}

// elementSizeAt is the offset of the element size in the header of a
// saved model of the root package: 4 for float32 parameters, 8 for
// float64 (persist.go).
const elementSizeAt = 10

// storedBits returns the precision of the parameters of the saved model
// whose first bytes are head, 32 or 64, from the element size in its
// header, which ReadFrom then checks.
func storedBits(head []byte) int {
	if len(head) > elementSizeAt && head[elementSizeAt] == 4 {
		return 32
	}
	return 64
}

// loadModel reads a saved model of any method: a network of the root
// package, read as float64 whatever type it was trained in (a float32
// model loads exactly, and float64 arithmetic only removes rounding), or
// a comparator of package bayes. It tells the format by the magic in the
// file's first atomicfile.HeadLen bytes and hands the file to that
// format's ReadFrom, which validates the header before it reads exactly
// the size the header gives, within the format's limits; so a file that
// is no model, however large or endless (/dev/zero, a data file), is
// refused with gcp.ErrMagic after a few bytes, and a pipe is read once.
// A file with bytes after the model gives gcp.ErrFormat.
func loadModel(path string) (model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	head, err := r.Peek(max(atomicfile.HeadLen, elementSizeAt+1))
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	var m model
	var from io.ReaderFrom
	switch {
	case bytes.HasPrefix(head, []byte(atomicfile.MagicGCPM)):
		n := new(gcp.Model[float64])
		m, from = network{n, storedBits(head)}, n
	case bytes.HasPrefix(head, []byte(atomicfile.MagicPBP)):
		p := new(bayes.PBP)
		m, from = pbpModel{PBP: p}, p
	case bytes.HasPrefix(head, []byte(atomicfile.MagicSVGD)):
		s := new(bayes.SVGD)
		m, from = svgdModel{SVGD: s}, s
	default:
		return nil, fmt.Errorf("loading %s: %w: it starts with %q, which no model format does", path, gcp.ErrMagic, head)
	}
	if _, err := from.ReadFrom(r); err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	switch _, err := r.ReadByte(); {
	case err == nil:
		return nil, fmt.Errorf("loading %s: %w: bytes after the model's end", path, gcp.ErrFormat)
	case !errors.Is(err, io.EOF):
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	return m, nil
}
