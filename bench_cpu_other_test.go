//go:build !linux

package gcp

import "testing"

// benchCPU reports nothing where the thread's CPU time is not read (see
// the Linux version).
func benchCPU(b *testing.B) func() { return func() {} }
