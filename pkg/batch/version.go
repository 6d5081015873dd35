package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// modulePath is the module this package is part of.
const modulePath = "github.com/mdxrender/mdxrender"

// ModuleVersion is the version of this module the running program was
// built with, from the build information Go records in it: the module's
// version when the program requires it (a release, or a pseudo-version
// naming the commit), or, when the program is built from this module's
// own source, the version or commit of that build ("devel-0123456789ab",
// "+dirty" for uncommitted changes). It is "" when the build recorded
// none (go test, go run, or a build with -buildvcs=false): a gallery
// then says it is a development build rather than show a made-up
// version.
func ModuleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return moduleVersion(bi)
}

func moduleVersion(bi *debug.BuildInfo) string {
	if bi.Main.Path != modulePath {
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				if d.Replace != nil && d.Replace.Version != "" {
					return d.Replace.Version
				}
				return d.Version
			}
		}
		return ""
	}
	return BuildVersion(bi)
}

// BuildVersion is the version of a program built from this module's own
// source, as bi records it: the module's version, else the commit of
// the build ("devel-0123456789ab", "+dirty" for uncommitted changes),
// else "".
func BuildVersion(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return ""
	}
	v := "devel-" + rev[:min(len(rev), 12)]
	if modified == "true" {
		v += "+dirty"
	}
	return v
}

// buildKey is the version as cache keys take it: the version when it
// names one build, else (no version, "dev", or a "+dirty" build, which
// any uncommitted change leaves the same) the version and program, a
// hash of the running program's file, so a rebuilt program does not
// take the results of the one before it for its own.
func buildKey(version string, program func() string) string {
	if knownVersion(version) && !strings.HasSuffix(version, "+dirty") {
		return version
	}
	if p := program(); p != "" {
		return version + "+" + p
	}
	return version
}

// programHash hashes the running program's file, once per process (it
// does not change while the process runs); "" when it cannot be read.
var programHash = sync.OnceValue(func() string {
	name, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
})

// knownVersion reports whether v names a build (not "", nor the "dev"
// a program without build information records).
func knownVersion(v string) bool {
	return v != "" && !strings.EqualFold(v, "dev")
}
