package main

import (
	"fmt"
	"io"
	"os"
	"strings"
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

// progressBar draws the progress of Fit on one terminal line. A nil
// *progressBar draws nothing.
type progressBar struct {
	w     io.Writer
	total int // epochs
	start time.Time
	drawn time.Time // when the line was last drawn; zero before the first draw
}

// newProgressBar returns a bar for total epochs that writes to w.
func newProgressBar(w io.Writer, total int) *progressBar {
	return &progressBar{w: w, total: total, start: time.Now()}
}

// update redraws the bar after an epoch, at most every progressRedraw and
// always after the last epoch. It always returns true, to go on training:
// it is Fit's Progress callback.
func (p *progressBar) update(st gcp.EpochStats) bool {
	if p == nil {
		return true
	}
	now := time.Now()
	if st.Epoch < p.total && now.Sub(p.drawn) < progressRedraw {
		return true
	}
	p.drawn = now
	done := progressWidth * st.Epoch / p.total
	elapsed := now.Sub(p.start)
	timing := fmt.Sprintf("%s left", time.Duration(float64(elapsed)*float64(p.total-st.Epoch)/float64(st.Epoch)).Round(time.Second))
	if st.Epoch == p.total {
		timing = fmt.Sprintf("took %s", elapsed.Round(time.Millisecond))
	}
	// \r returns to the line's start; \x1b[K clears what a longer
	// previous line left behind.
	fmt.Fprintf(p.w, "\r[%s%s] epoch %d/%d  -log p %.4g  %s\x1b[K",
		strings.Repeat("=", done), strings.Repeat(" ", progressWidth-done),
		st.Epoch, p.total, st.TrainNLL, timing)
	return true
}

// finish ends the bar's line, if one was drawn.
func (p *progressBar) finish() {
	if p != nil && !p.drawn.IsZero() {
		fmt.Fprintln(p.w)
	}
}
