package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"a checkout's build", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gcpnet/gcp", Version: "v0.0.0-20251126014800-ed0d86bf5f3d+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "ed0d86bf5f3d"}, {Key: "vcs.time", Value: "2025-11-26T01:48:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"gcp v0.0.0-20251126014800-ed0d86bf5f3d+dirty (github.com/gcpnet/gcp), revision ed0d86bf5f3d (2025-11-26T01:48:00Z, modified), go1.26.8 " + platform},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gcpnet/gcp", Version: "(devel)"}},
			"gcp (devel) (github.com/gcpnet/gcp), go1.26.8 " + platform},
		{"go install of a version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gcpnet/gcp", Version: "v0.3.0"}},
			"gcp v0.3.0 (github.com/gcpnet/gcp), go1.26.8 " + platform},
		{"no build info", nil, "gcp unknown (github.com/gcpnet/gcp), " + runtime.Version() + " " + platform},
	} {
		if got := versionLine(c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVersionHelp checks that gcp version -h says what Go stamps: since
// Go 1.24 "go build" in a checkout gives a pseudo-version, and only
// "go run" or -buildvcs=false the version (devel).
// regression: it said a checkout's build has (devel).
func TestVersionHelp(t *testing.T) {
	stdout, _, err := gcpRun("version", "-h")
	if err != nil || !strings.Contains(stdout, "pseudo-version") || !strings.Contains(stdout, `"go run"`) || !strings.Contains(stdout, "-buildvcs=false") {
		t.Errorf("gcp version -h: %v, %q; want the pseudo-version of a checkout's build and (devel) of go run and -buildvcs=false", err, stdout)
	}
}

// TestVersionCommand runs gcp version in the test binary, whose build
// info names the module's path.
func TestVersionCommand(t *testing.T) {
	stdout, _, err := gcpRun("version")
	if err != nil || !strings.HasPrefix(stdout, "gcp ") || !strings.Contains(stdout, runtime.Version()) {
		t.Errorf("gcp version: %q, %v", stdout, err)
	}
}
