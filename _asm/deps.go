//go:build tools

// The generator loads the library's stubs through go/packages (avo's
// Package); this import keeps the library in go.mod without linking it
// into the generator, so a stub without its TEXT yet does not stop the
// generator from running.
package main

import _ "github.com/gcpnet/gcp"
