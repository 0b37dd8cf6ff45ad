package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"time"
)

// The build's identity: Version is the release (reported to MCP clients too,
// and the Debian package's version: build/package.sh reads it here); the
// package build sets Commit and BuildDate with -ldflags "-X
// github.com/waymark/waymark/backend/cli.Commit=…", so `waymark --version`
// names the build a bug report is about. A plain `go build` leaves them
// empty; the commit and its date then come from what Go records of the
// repository (-buildvcs).
var (
	Version   = "0.1.0"
	Commit    = ""
	BuildDate = ""
)

// VersionInfo is what `waymark --version` says: the version, the commit (with
// "-modified" when built from a changed tree) and the build date.
type VersionInfo struct{ Version, Commit, BuildDate string }

// BuildVersion returns the build's identity: the linker-set values, else what
// Go recorded of the repository, else "unknown".
func BuildVersion() VersionInfo {
	v := VersionInfo{Version: Version, Commit: Commit, BuildDate: BuildDate}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, at string
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if v.Commit == "" && rev != "" {
			v.Commit = rev
			if len(v.Commit) > 12 {
				v.Commit = v.Commit[:12]
			}
			if modified {
				v.Commit += "-modified"
			}
		}
		if v.BuildDate == "" && at != "" {
			if t, err := time.Parse(time.RFC3339, at); err == nil {
				v.BuildDate = t.UTC().Format("2006-01-02") + " (commit date)"
			}
		}
	}
	if v.Version == "" {
		v.Version = "unknown"
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	if v.BuildDate == "" {
		v.BuildDate = "unknown"
	}
	return v
}

// printVersion writes `waymark --version`: one line a bug report can quote.
func printVersion(w io.Writer) {
	v := BuildVersion()
	fmt.Fprintf(w, "waymark %s (commit %s, built %s)\n", v.Version, v.Commit, v.BuildDate)
}
