package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// orcaPlatform is where Orca keeps its version, below a root: Debian's Python
// path first, then the others Orca is installed to.
var orcaPlatform = []string{
	"usr/lib/python3/dist-packages/orca/orca_platform.py",
	"usr/lib/python3*/site-packages/orca/orca_platform.py",
	"usr/local/lib/python3*/site-packages/orca/orca_platform.py",
	"usr/local/lib/python3*/dist-packages/orca/orca_platform.py",
}

var orcaVersionLine = regexp.MustCompile(`(?m)^version\s*=\s*["'](\d+)`)

// orcaVersion is the major version of the Orca installed below root, 0 when
// none is found or its version cannot be read.
func orcaVersion(root string) int {
	for _, pat := range orcaPlatform {
		files, _ := filepath.Glob(filepath.Join(root, pat))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			if m := orcaVersionLine.FindSubmatch(b); m != nil {
				if v, err := strconv.Atoi(string(m[1])); err == nil {
					return v
				}
			}
		}
	}
	return 0
}

// orcaNeedsNotices: Orca 47 and later read a WebKitGTK page with their web
// script, live regions included (Orca's NEWS, 47.alpha); older ones (Debian
// 12 has 43) read none, and hear the window's messages only through its
// native notice. Not knowing the version, the notice is shown: a message
// heard twice is better than one not heard.
func orcaNeedsNotices(major int) bool { return major == 0 || major < 47 }
