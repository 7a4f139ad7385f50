package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/datasets"
)

// snapFile finds a SNAP dataset's pinned copy in a shared/data directory
// beside the repository (or a checkout of it). Without it the test is
// skipped, except under CI=true, where it fails.
func snapFile(t *testing.T, name string) string {
	t.Helper()
	spec, err := datasets.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for up := "."; len(dirs) < 6; up = filepath.Join(up, "..") {
		dirs = append(dirs, filepath.Join(up, "shared", "data"))
	}
	path, ok := datasets.Locate(spec, dirs...)
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (%s) not found in a shared/data directory above %s; CI needs the SNAP files", name, spec.FileName, mustWd(t))
		}
		t.Skipf("%s not found in shared/data beside the repository", spec.FileName)
	}
	return path
}

func mustWd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// Every event of the three SNAP datasets lies inside its endpoints'
// validity once ingested: check --full finds no edge outside it. email-EU
// is not in time order (three sorted runs); node n914's first e-mail
// (1971-05-21) comes in a later part of the file than its first mention.
func TestSNAPIngestNodeValidity(t *testing.T) {
	for _, name := range []string{"collegemsg", "email-eu", "bitcoinotc"} {
		t.Run(name, func(t *testing.T) {
			file := snapFile(t, name)
			store := filepath.Join(t.TempDir(), "s")
			if _, errs, code := runCLI(t, "ingest", "--store", store, "--dataset", name, "--file", file, "--no-sync"); code != 0 {
				t.Fatalf("ingest: exit %d: %s", code, errs)
			}
			out, errs, code := runCLI(t, "check", "--store", store, "--full")
			if code != 0 || !strings.Contains(out, "every believed edge lies inside its endpoints' validity") {
				t.Fatalf("check --full: exit %d:\n%s%s", code, out, errs)
			}
			if name != "email-eu" {
				return
			}
			out, errs, code = runCLI(t, "call", "--store", store, "entity_history", `{"uid":"n914"}`)
			if code != 0 || !regexp.MustCompile(`"rows":\[\{"created_by":"ingest",[^\]]*"uid":"n914","vid":"[0-9a-f]+","vt_e":4611686018427387904,"vt_s":43666301000000\}\],"rows_total":1,`).MatchString(out) {
				t.Fatalf("n914's history should be one version from its first e-mail at 43666301000000 (1971-05-21): exit %d: %s%s", code, out, errs)
			}
		})
	}
}
