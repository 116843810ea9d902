package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// release is the version of gcp this source is: the library's API as
// api/v0.1.0.txt records it, and the command's behaviour as CHANGELOG.md
// describes it.
const release = "0.1.0"

// version prints which gcp this is: its release, and the module version
// and source revision it was built from, as the Go toolchain recorded them.
func version(args []string, stdout, stderr io.Writer) error {
	c := newCommand("version", "version",
		`Print the release of gcp this command was built from, the
version-control revision of its source (with the commit time, and
"modified" if the work tree had uncommitted changes), and the Go version
and platform. A command built inside a checkout ("go build")
has the checkout's revision; one installed with "go install
github.com/gcpnet/gcp/cmd/gcp@VERSION" has no revision, and names the
module version VERSION where it is not the release's tag.`)
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
	module, ver := "github.com/gcpnet/gcp", ""
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
	line := fmt.Sprintf("gcp %s (%s)", release, module)
	if ver != "" && ver != "(devel)" && ver != "v"+release {
		line = fmt.Sprintf("gcp %s (%s %s)", release, module, ver)
	}
	if rev != "" {
		line += fmt.Sprintf(", revision %s", rev)
		if when != "" || modified != "" {
			line += fmt.Sprintf(" (%s%s)", when, modified)
		}
	}
	return line + fmt.Sprintf(", %s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH)
}
