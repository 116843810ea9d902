//go:build !purego

package gcp

// puregoTag reports whether the tests run with the purego build tag, which
// turns every assembly kernel off (see TestKernelPath).
const puregoTag = false
