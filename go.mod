module github.com/gcpnet/gcp

go 1.22

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/sys v0.30.0
)
