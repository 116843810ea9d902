package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gcpnet/gcp"
)

// fitProgress follows the phases of gcp.AutoFit that its Progress callback
// reports (gcp.AutoProgress): the search, an ensemble's run and the
// calibration folds; where the recipe compares target transforms, the
// search and its winner's folds for each, then the kept one's ensemble
// and folds. On a terminal it draws each phase on a line of its
// own, a progress bar that ends by saying how long the phase took; always
// it records each phase's span for the summary.
type fitProgress struct {
	w      io.Writer // the terminal; nil off one: nothing drawn
	bar    *progressBar
	phases []phaseSpan
	since  time.Time // when the current phase began
	detail string    // the current phase's last detail, for its last line
}

// phaseSpan is how far one phase of a fit went and how long it took.
type phaseSpan struct {
	phase       gcp.AutoPhase
	transform   gcp.TargetTransform
	marginal    int // gcp.AutoProgress.Marginal
	done, total int
	took        time.Duration
}

// newFitProgress returns a fitProgress that draws on w, if not nil, and
// whose first phase begins now.
func newFitProgress(w io.Writer) *fitProgress {
	return &fitProgress{w: w, since: time.Now()}
}

// update records the round r and redraws; it is AutoFit's Progress.
func (f *fitProgress) update(r gcp.AutoProgress) {
	now := time.Now()
	if n := len(f.phases); n == 0 || f.phases[n-1].phase != r.Phase || f.phases[n-1].transform != r.Transform || f.phases[n-1].marginal != r.Marginal {
		f.end()
		f.phases = append(f.phases, phaseSpan{phase: r.Phase, transform: r.Transform, marginal: r.Marginal})
		if f.w != nil {
			f.bar = &progressBar{w: f.w, total: r.Total, unit: phaseUnits[r.Phase], start: f.since}
		}
	}
	p := &f.phases[len(f.phases)-1]
	p.done, p.total, p.took = r.Done, r.Total, now.Sub(f.since)
	switch r.Phase {
	case gcp.PhaseSearch:
		f.detail = fmt.Sprintf("%d candidates, %d epochs, best held-out NLL %.4g", r.Candidates, r.Epochs, r.BestValNLL)
	case gcp.PhaseEnsemble:
		f.detail = fmt.Sprintf("best held-out NLL %.4g", r.BestValNLL)
	default:
		f.detail = "5 fold models, each to predict the rows it does not train on"
	}
	f.bar.draw(r.Done, f.detail)
}

// phaseUnits names what each phase's bar counts.
var phaseUnits = map[gcp.AutoPhase]string{
	gcp.PhaseSearch:      "search round",
	gcp.PhaseEnsemble:    "ensemble epoch",
	gcp.PhaseCalibration: "calibration fold epoch",
}

// end closes the current phase, if any: its line, drawn once more as
// finished, and its span, which the next phase begins at.
func (f *fitProgress) end() {
	if len(f.phases) == 0 {
		return
	}
	p := &f.phases[len(f.phases)-1]
	p.took = time.Since(f.since)
	f.since = f.since.Add(p.took)
	f.bar.drawAt(p.done, f.detail, true)
	f.bar.finish()
}

// summary describes the phases' spans on one line. An ensemble's span
// says that the calibration folds trained behind it only where there were
// folds: from 5000 rows on, AutoFit calibrates on held-out rows instead.
// Where the recipe compared target transforms, their searches and
// comparison folds trained side by side, so that only their time
// together means anything: it comes first, with what each transform
// ran, then the kept transform's ensemble and calibration after its
// name, and after the other's name the other's where the kept one's
// model failed to train and the recipe fell back to it.
//
// For several targets whose copula law the recipe fitted too, the
// one-target recipes of its marginals trained beside the joint network's
// and reported after it (gcp.AutoProgress.Marginal): their phases follow
// the joint network's, target by target, with what each ran but no
// times, which running side by side leaves meaningless.
func (f *fitProgress) summary() string {
	i := slices.IndexFunc(f.phases, func(p phaseSpan) bool { return p.marginal > 0 })
	if i < 0 {
		return summarizePhases(f.phases)
	}
	head := "the one-target recipes of the copula's marginals:"
	if i > 0 {
		head = summarizePhases(f.phases[:i]) + "; the one-target recipes of the copula's marginals, beside it:"
	}
	var b strings.Builder
	b.WriteString(head)
	for k, p := range f.phases[i:] {
		switch {
		case k == 0:
			fmt.Fprintf(&b, " target %d:", p.marginal)
		case p.marginal != f.phases[i+k-1].marginal:
			fmt.Fprintf(&b, "; target %d:", p.marginal)
		default:
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %d of %d", p.phase, p.done, p.total)
	}
	return b.String()
}

// summarizePhases describes the phases of one recipe, as summary says.
func summarizePhases(phases []phaseSpan) string {
	folds := slices.ContainsFunc(phases, func(p phaseSpan) bool { return p.phase == gcp.PhaseCalibration })
	transforms := slices.ContainsFunc(phases, func(p phaseSpan) bool { return p.transform != phases[0].transform })
	what := func(p phaseSpan) string {
		switch p.phase {
		case gcp.PhaseSearch:
			return fmt.Sprintf("%d rounds", p.done)
		case gcp.PhaseEnsemble:
			if folds {
				return fmt.Sprintf("%d epochs, the calibration folds training behind it", p.done)
			}
			return fmt.Sprintf("%d epochs", p.done)
		}
		return fmt.Sprintf("%d fold epochs", p.done)
	}
	var b strings.Builder
	kept := phases
	if transforms {
		k := slices.IndexFunc(phases, func(p phaseSpan) bool { return p.phase == gcp.PhaseEnsemble })
		if k < 0 {
			k = len(phases)
		}
		var names, runs []string
		var took time.Duration
		for i, p := range phases[:k] {
			took += p.took
			if i == 0 || p.transform != phases[i-1].transform {
				names = append(names, p.transform.String())
				runs = append(runs, p.transform.String()+": "+what(p))
			} else {
				runs[len(runs)-1] += ", " + what(p)
			}
		}
		fmt.Fprintf(&b, "target transforms %s searched side by side %s (%s)", strings.Join(names, " and "), took.Round(time.Millisecond), strings.Join(runs, "; "))
		kept = phases[k:]
	}
	for i, p := range kept {
		switch {
		case transforms && (i == 0 || p.transform != kept[i-1].transform):
			fmt.Fprintf(&b, "; target transform %s: ", p.transform)
		case i > 0:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s (%s)", p.phase, p.took.Round(time.Millisecond), what(p))
	}
	return b.String()
}
