package main

import (
	"runtime/debug"
	"strings"
)

// Version and commit are set at link time when a release is built:
//
//	go build -ldflags "-X main.buildVersion=v1.2.0 -X main.buildCommit=abc123" ./cmd/tgms
//
// Otherwise they come from the module and VCS information the Go tool
// stamps into the binary (a go build inside a git checkout records the
// commit; go run and go test do not).
var buildVersion, buildCommit string

// version is what 'tgms --version' prints: the version, the commit (with
// "+dirty" for a modified checkout) and the Go version.
func version() string {
	v, commit, dirty, goVersion := buildVersion, buildCommit, false, ""
	if info, ok := debug.ReadBuildInfo(); ok {
		goVersion = info.GoVersion
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if commit == "" {
					commit = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true" && buildCommit == ""
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	if commit == "" {
		commit = "unknown"
	} else if dirty {
		commit += "+dirty"
	}
	parts := []string{v, "commit " + commit}
	if goVersion != "" {
		parts = append(parts, goVersion)
	}
	return strings.Join(parts, ", ")
}
