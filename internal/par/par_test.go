package par

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDoReportsLowestError fails calls 3 and 5 of 10: the error is that
// of the lowest call that failed, never ErrStopped, and with one worker
// nothing after the failure starts.
func TestDoReportsLowestError(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		var mu sync.Mutex
		started := make([]bool, 10)
		failed := []int{}
		err := Do(10, workers, func(i int, stop func() bool) error {
			mu.Lock()
			started[i] = true
			mu.Unlock()
			switch {
			case i == 3 || i == 5:
				mu.Lock()
				failed = append(failed, i)
				mu.Unlock()
				return fmt.Errorf("call %d failed", i)
			case stop():
				return ErrStopped
			}
			return nil
		})
		// Calls handed out before a failure may be skipped, so call 5 can
		// fail while call 3 never runs.
		if len(failed) == 0 {
			t.Fatalf("%d workers: no call failed", workers)
		}
		if want := fmt.Sprintf("call %d failed", slices.Min(failed)); err == nil || err.Error() != want {
			t.Errorf("%d workers: %v, want %q", workers, err, want)
		}
		if workers == 1 && (slices.Contains(started[4:], true) || !slices.Equal(failed, []int{3})) {
			t.Errorf("1 worker: started %v, failed %v; want calls 0 to 3 and nothing after the failure", started, failed)
		}
	}
	if err := Do(5, 2, func(int, func() bool) error { return nil }); err != nil {
		t.Errorf("no failures: %v", err)
	}
}

// TestEachRunsEveryCallOnBoundedWorkers counts the calls of Each and the
// most under way at once: every index once, at most workers together
// (each call sleeps a millisecond, so that more workers would overlap).
func TestEachRunsEveryCallOnBoundedWorkers(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 3}, {1, 3}, {50, 1}, {50, 3}, {4, 16}} {
		var running, peak atomic.Int64
		calls := make([]atomic.Int64, c.n)
		Each(c.n, c.workers, func(i int) {
			now := running.Add(1)
			for p := peak.Load(); now > p && !peak.CompareAndSwap(p, now); p = peak.Load() {
			}
			time.Sleep(time.Millisecond) // so that calls overlap
			calls[i].Add(1)
			running.Add(-1)
		})
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Errorf("n %d, workers %d: call %d ran %d times", c.n, c.workers, i, got)
			}
		}
		if p := peak.Load(); p > int64(c.workers) {
			t.Errorf("n %d, workers %d: %d calls at once", c.n, c.workers, p)
		}
	}
}

// TestSlotsBoundPoolsTogether runs three pools of four workers at once
// through Slots of two: every call runs once, never more than two at
// once, and a nil Slots runs calls without waiting.
func TestSlotsBoundPoolsTogether(t *testing.T) {
	slots := NewSlots(2)
	var running, peak atomic.Int64
	var calls [3][20]atomic.Int64
	var wg sync.WaitGroup
	for p := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Each(len(calls[p]), 4, func(i int) {
				slots.Run(func() {
					now := running.Add(1)
					for q := peak.Load(); now > q && !peak.CompareAndSwap(q, now); q = peak.Load() {
					}
					time.Sleep(time.Millisecond) // so that calls overlap
					calls[p][i].Add(1)
					running.Add(-1)
				})
			})
		}()
	}
	wg.Wait()
	for p := range calls {
		for i := range calls[p] {
			if got := calls[p][i].Load(); got != 1 {
				t.Errorf("pool %d: call %d ran %d times", p, i, got)
			}
		}
	}
	if got := peak.Load(); got != 2 {
		t.Errorf("%d calls at once through 2 slots, want 2", got)
	}
	ran := false
	Slots(nil).Run(func() { ran = true })
	if !ran {
		t.Error("nil Slots did not run the call")
	}
}
