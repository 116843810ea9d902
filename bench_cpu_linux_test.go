package gcp

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// benchCPU locks the benchmark to its OS thread and returns a function
// that reports the thread's CPU time per operation since the call,
// "cpu-ns/op", and unlocks it. On a machine shared with other work the
// wall-clock ns/op counts the time the thread waited for a core too;
// the CPU time leaves that out (not the caches and cores it shares).
func benchCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPU()
	return func() {
		b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
		runtime.UnlockOSThread()
	}
}

// threadCPU returns the CPU time of the calling thread in nanoseconds.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
