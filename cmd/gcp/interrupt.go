package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptContext returns the context of a command that trains or
// writes a file: the first SIGINT or SIGTERM cancels it, so that training
// stops within an epoch and a save leaves its file as it was, and the
// command then returns an error saying so (interrupted) and exits
// non-zero. The signals then get their default action back, so that a
// second one ends the process at once. A signal the process ignores (as a
// shell makes a background job ignore SIGINT) stays ignored. stop
// releases the signals; call it when the command returns.
func interruptContext() (ctx context.Context, stop context.CancelFunc) {
	var sigs []os.Signal
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return context.WithCancel(context.Background())
	}
	ctx, stop = signal.NotifyContext(context.Background(), sigs...)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// interrupted returns err, or, if ctx (an interruptContext) was cancelled,
// an error saying that the command was interrupted while it was doing
// what, and that out, if named, was left as it was.
func interrupted(ctx context.Context, err error, what, out string) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	if out == "" {
		return fmt.Errorf("interrupted while %s", what)
	}
	return fmt.Errorf("interrupted while %s: %s was left as it was", what, out)
}
