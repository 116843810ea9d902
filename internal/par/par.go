// Package par is the worker pool of the automatic recipe's search and of
// the gcp command's folds: n independent calls on a bounded number of
// goroutines, the first failure stopping the rest.
package par

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrStopped is what a call returns when it ended early because another
// call failed (its stop function reported true): Do reports the failure,
// never ErrStopped.
var ErrStopped = errors.New("stopped")

// Do calls do(0), …, do(n−1) on up to workers goroutines and returns the
// error of the lowest-numbered call that failed with an error other than
// ErrStopped. After a failure, stop reports true, so that calls under way
// can end early; calls not yet started are skipped.
func Do(n, workers int, do func(i int, stop func() bool) error) error {
	var failed atomic.Bool
	stop := failed.Load
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if failed.Load() {
					continue // skip what was handed out before the failure
				}
				if err := do(i, stop); err != nil {
					errs[i] = err
					failed.Store(true)
				}
			}
		}()
	}
	for i := 0; i < n && !failed.Load(); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, ErrStopped) {
			return err
		}
	}
	return nil
}

// Each calls do(0), …, do(n−1) on up to workers goroutines and returns
// when all have returned: Do for calls that cannot fail.
func Each(n, workers int, do func(i int)) {
	_ = Do(n, workers, func(i int, _ func() bool) error {
		do(i)
		return nil
	})
}

// Slots bounds how many calls run at once across pools that share it:
// the automatic recipe searches several target transforms at once, each
// on its own pool, and their calls together must not exceed its workers.
// Calls waiting for a slot take them in the order they asked. A nil Slots
// bounds nothing.
type Slots chan struct{}

// NewSlots returns Slots of n slots.
func NewSlots(n int) Slots { return make(Slots, n) }

// Run calls do once a slot is free, holding the slot until do returns.
func (s Slots) Run(do func()) {
	if s == nil {
		do()
		return
	}
	s <- struct{}{}
	defer func() { <-s }()
	do()
}
