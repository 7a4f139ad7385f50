package main

import (
	"strings"
	"testing"
)

// --version prints the version and commit; -ldflags values win over the
// build information.
func TestVersion(t *testing.T) {
	out, _, code := runCLI(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "tgms ") || !strings.Contains(out, "commit ") {
		t.Fatalf("exit %d: %q", code, out)
	}
	defer func(v, c string) { buildVersion, buildCommit = v, c }(buildVersion, buildCommit)
	buildVersion, buildCommit = "v9.9.9", "0123abc"
	if v := version(); !strings.HasPrefix(v, "v9.9.9, commit 0123abc") {
		t.Fatalf("version with link-time values: %q", v)
	}
}
