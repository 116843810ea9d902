package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gcpnet/gcp"
)

// isTerminal reports whether w is a terminal (a character device), where
// a progress bar that redraws itself with \r is readable. /dev/null is a
// character device too, which costs nothing.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// The progress bar is progressWidth characters wide and redrawn at most
// every progressRedraw, so that fast epochs do not flood the terminal.
const (
	progressWidth  = 30
	progressRedraw = 100 * time.Millisecond
)

// progressBar draws the progress of training, counted in epochs, on one
// terminal line. A nil *progressBar draws nothing. It is safe for
// concurrent use: the folds of gcp repro share one bar.
type progressBar struct {
	mu    sync.Mutex
	w     io.Writer
	total int    // units of work, epochs unless unit says otherwise
	unit  string // what the count counts, before it on the line
	start time.Time
	drawn time.Time // when the line was last drawn; zero before the first draw
}

// newProgressBar returns a bar for total epochs that writes to w.
func newProgressBar(w io.Writer, total int) *progressBar {
	return &progressBar{w: w, total: total, unit: "epoch", start: time.Now()}
}

// update redraws the bar after an epoch of one Fit, with the epoch's
// -log p. It always returns true, to go on training: it is Fit's Progress
// callback.
func (p *progressBar) update(st gcp.EpochStats) bool {
	if p != nil {
		p.draw(st.Epoch, fmt.Sprintf("-log p %.4g", st.TrainNLL))
	}
	return true
}

// draw redraws the bar at done of the total epochs, with detail after the
// count, at most every progressRedraw and always at the end.
func (p *progressBar) draw(done int, detail string) {
	if p != nil {
		p.drawAt(done, detail, done == p.total)
	}
}

// drawAt is draw, which redraws at the end, or every time if last: then
// the line says how long the bar took rather than how long it has left
// (a phase that early stopping ends before its total).
func (p *progressBar) drawAt(done int, detail string, last bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if !last && done < p.total && now.Sub(p.drawn) < progressRedraw {
		return
	}
	p.drawn = now
	bar := progressWidth * min(done, p.total) / max(p.total, 1)
	elapsed := now.Sub(p.start)
	timing := fmt.Sprintf("%s left", time.Duration(float64(elapsed)*float64(p.total-done)/float64(max(done, 1))).Round(time.Second))
	if last {
		timing = fmt.Sprintf("took %s", elapsed.Round(time.Millisecond))
	}
	// \r returns to the line's start; \x1b[K clears what a longer
	// previous line left behind.
	fmt.Fprintf(p.w, "\r[%s%s] %s %d/%d  %s  %s\x1b[K",
		strings.Repeat("=", bar), strings.Repeat(" ", progressWidth-bar),
		p.unit, done, p.total, detail, timing)
}

// finish ends the bar's line, if one was drawn.
func (p *progressBar) finish() {
	if p != nil && !p.drawn.IsZero() {
		fmt.Fprintln(p.w)
	}
}
