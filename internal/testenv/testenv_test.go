package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestCI(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "1": true, "TRUE": true, "false": false, "0": false, "": false, "yes": false} {
		t.Setenv("CI", v)
		if got := CI(); got != want {
			t.Errorf("CI=%q: CI() = %v, want %v", v, got, want)
		}
	}
}

// TestMissingChild is the test the parent runs in a child process.
func TestMissingChild(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") != "1" {
		return
	}
	Missing(t, "the tool %s is not installed", "frobnicate")
}

// Missing skips without CI and fails under CI=true: run in a child
// process so the parent can see the outcome.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		ci     string
		failed bool
		word   string
	}{{"", false, "SKIP"}, {"false", false, "SKIP"}, {"true", true, "FAIL"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingChild$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", "CI="+c.ci)
		out, err := cmd.CombinedOutput()
		if (err != nil) != c.failed || !strings.Contains(string(out), "--- "+c.word) || !strings.Contains(string(out), "frobnicate is not installed") {
			t.Errorf("CI=%q: err %v, want failed=%v with %s\n%s", c.ci, err, c.failed, c.word, out)
		}
	}
}
