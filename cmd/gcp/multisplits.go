package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// gcp splits -target a,b,c: each split trains a model of several targets
// as gcp train -target does and scores its held-out rows as gcp eval does,
// so that the joint recipe is validated on the same protocol, inner
// hold-outs included, as one target.

// multiSplits trains and scores a model of the targets names of tab on
// each split, the rows trains[i] to train on and evals[i] to score, and
// prints each split's measures and their mean ± standard error.
func multiSplits(ctx context.Context, c *command, rf *recipeFlags, tab *table.Table, names []string, trains, evals [][]int, out splitsOutput) error {
	var res [][]tallyLine
	start := time.Now()
	notes := precisionNotes{w: out.stderr}
	for i, train := range trains {
		t0 := time.Now()
		lines, fr, err := multiSplit(ctx, c, rf, tab, names, train, evals[i])
		if err != nil {
			return splitError(ctx, i, err)
		}
		res = append(res, lines)
		notes.add(i, precisionName(fr.f32), fr.precision)
		a, secs := fr.auto, math.Round(time.Since(t0).Seconds()*1000)/1000
		if out.json {
			rec := map[string]any{"split": i, "lr": a.LearningRate, "dropout": a.Dropout, "epoch": a.Epoch, "mean_epoch": a.MeanEpoch, "seconds": secs, "logged": loggedTargets(names, a.Transforms), "precision": precisionName(fr.f32)}
			for _, l := range lines {
				rec[l.key] = jsonFloat(l.value)
			}
			b, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			fmt.Fprintf(out.stdout, "%s\n", b)
			continue
		}
		pairs := make([]string, len(lines))
		for j, l := range lines {
			pairs[j] = l.key + " " + l.text()
		}
		fmt.Fprintf(out.stderr, "split %d: %s (lr %g, dropout %g, epoch %d, logged %q, %.1f s)\n", i, strings.Join(pairs, ", "), a.LearningRate, a.Dropout, a.Epoch, loggedTargets(names, a.Transforms), secs)
	}
	return writeSummary(out.stdout, out.name, out.inner, out.json, len(res), summaryOf(res), time.Since(start))
}

// summaryOf returns the measures of the splits res that every split has
// (unseen-rows only where some row was unseen), in the first split's
// order, named by their keys.
func summaryOf(res [][]tallyLine) []summaryMeasure {
	var ms []summaryMeasure
	for j, l := range res[0] {
		m := summaryMeasure{l.key, l.key, nil}
		for _, lines := range res {
			if j >= len(lines) || lines[j].key != l.key {
				break
			}
			m.v = append(m.v, lines[j].value)
		}
		if len(m.v) == len(res) {
			ms = append(ms, m)
		}
	}
	return ms
}

// multiSplit trains a model of the targets names on the rows train of tab
// as gcp train -target does (prepareMultiTraining, the recipe's flags)
// and returns gcp eval's measures of the rows eval (multiTally) and what
// the fit did. The model is scored as eval scores the saved one: read
// back as float64, whatever it was trained in.
func multiSplit(ctx context.Context, c *command, rf *recipeFlags, tab *table.Table, names []string, train, eval []int) ([]tallyLine, fitResult, error) {
	td, err := prepareMultiTraining(tab, names, train)
	if err != nil {
		return nil, fitResult{}, err
	}
	f32, note, err := rf.precision(td)
	if err != nil {
		return nil, fitResult{}, err
	}
	job := rf.job(c, td)
	var b []byte
	var fr fitResult
	if f32 {
		b, fr, err = fitMarshaled[float32](ctx, job)
	} else {
		b, fr, err = fitMarshaled[float64](ctx, job)
	}
	fr.f32, fr.precision = f32, note
	if err != nil {
		return nil, fr, err
	}
	m := new(gcp.Model[float64])
	if _, err := m.ReadFrom(bytes.NewReader(b)); err != nil {
		return nil, fr, err
	}
	t := newMultiTally(names)
	if err := tallyRows(network{m, storedBits(b)}, tab.Select(eval), t); err != nil {
		return nil, fr, err
	}
	return t.lines(), fr, nil
}

// fitMarshaled trains a Model[T] as job says and returns it as saved.
func fitMarshaled[T gcp.Float](ctx context.Context, job fitJob) ([]byte, fitResult, error) {
	m, fr, err := fitModel[T](ctx, job)
	if err != nil {
		return nil, fr, err
	}
	b, err := m.MarshalBinary()
	return b, fr, err
}

// tallyRows adds every row of tab, its features picked by name, to t as
// gcp eval does (eachMultiTarget).
func tallyRows(n network, tab *table.Table, t *multiTally) error {
	sel, err := selectColumns(n, tab, "", true, false)
	if err != nil {
		return err
	}
	e, err := encodeRows(n, tab, sel)
	if err != nil {
		return err
	}
	preds := make([]gcp.MultiPrediction, tab.Rows())
	if err := predictMultiRows(n, n.NewWorkspace(), tab, e.x, preds); err != nil {
		return err
	}
	cols := make([]int, len(t.names))
	for j, name := range t.names {
		if cols[j], err = tab.Column(name); err != nil {
			return err
		}
	}
	return eachRowTargets(tab, cols, preds, make([]float64, len(cols)), t.add)
}

// loggedTargets returns the names of the targets that the recipe logged
// (AutoResult.Transforms), joined by commas: "" for none.
func loggedTargets(names []string, choices []gcp.TransformChoice) string {
	var logged []string
	for j, c := range choices {
		if c.Transform == gcp.TransformLog {
			logged = append(logged, names[j])
		}
	}
	return strings.Join(logged, ",")
}
