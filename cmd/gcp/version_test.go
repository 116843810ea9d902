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
		{"a checkout's build", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gcpnet/gcp", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "ed0d86bf5f3d"}, {Key: "vcs.time", Value: "2025-11-26T01:48:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"gcp 0.1.0 (github.com/gcpnet/gcp), revision ed0d86bf5f3d (2025-11-26T01:48:00Z, modified), go1.26.8 " + platform},
		{"go install of the release's tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gcpnet/gcp", Version: "v0.1.0"}},
			"gcp 0.1.0 (github.com/gcpnet/gcp), go1.26.8 " + platform},
		{"go install of a commit", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gcpnet/gcp", Version: "v0.0.0-20251126014800-ed0d86bf5f3d"}},
			"gcp 0.1.0 (github.com/gcpnet/gcp v0.0.0-20251126014800-ed0d86bf5f3d), go1.26.8 " + platform},
		{"no build info", nil, "gcp 0.1.0 (github.com/gcpnet/gcp), " + runtime.Version() + " " + platform},
	} {
		if got := versionLine(c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVersionCommand runs gcp version in the test binary, whose build
// info names the module's path.
func TestVersionCommand(t *testing.T) {
	stdout, _, err := gcpRun("version")
	if err != nil || !strings.HasPrefix(stdout, "gcp 0.1.0 ") || !strings.Contains(stdout, runtime.Version()) {
		t.Errorf("gcp version: %q, %v", stdout, err)
	}
}
