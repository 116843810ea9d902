package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version prints which gcp this is: the module's version and the source
// revision it was built from, as the Go toolchain recorded them.
func version(args []string, stdout, stderr io.Writer) error {
	c := newCommand("version", "version",
		`Print the version of the gcp module this command was built from, the
version-control revision of its source (with the commit time, and
"modified" if the work tree had uncommitted changes), and the Go version
and platform. A command built by "go build" inside a git checkout has the
version Go derives from it: the commit's tag, or else a pseudo-version
such as v0.0.0-20261128142711-81d42c755f0f (the commit's time and
revision), with +dirty for uncommitted changes, and the checkout's
revision; one installed with "go install
github.com/gcpnet/gcp/cmd/gcp@VERSION" has that version and no revision;
one from "go run", or built with -buildvcs=false, has (devel) and no
revision.`)
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintln(stdout, versionLine(info))
	return err
}

// versionLine describes the build info on one line; a nil info (a binary
// built without module support) has no module version or revision.
func versionLine(info *debug.BuildInfo) string {
	module, ver := "github.com/gcpnet/gcp", "unknown"
	goVersion := runtime.Version()
	var rev, when, modified string
	if info != nil {
		if info.Main.Path != "" {
			module = info.Main.Path
		}
		if info.Main.Version != "" {
			ver = info.Main.Version
		}
		goVersion = info.GoVersion
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", modified"
				}
			}
		}
	}
	line := fmt.Sprintf("gcp %s (%s)", ver, module)
	if rev != "" {
		line += fmt.Sprintf(", revision %s", rev)
		if when != "" || modified != "" {
			line += fmt.Sprintf(" (%s%s)", when, modified)
		}
	}
	return line + fmt.Sprintf(", %s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH)
}
