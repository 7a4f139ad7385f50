// Package testenv decides what a test does when something it needs from
// outside the repository is missing: a tool (PostgreSQL, Chromium,
// flock), a SNAP data file beside the repository. Outside CI the test
// skips, so a fresh clone runs `go test ./...` anywhere; under CI=true it
// fails, so a CI run can never be green while testing nothing.
package testenv

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// CI reports whether the tests run under CI (the environment variable CI
// holds a true value: "true", "1", …).
func CI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Missing stops a test that cannot run because what it needs is missing:
// it skips the test, or under CI=true fails it. The message says what is
// missing and how to provide it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("%s (CI=true: a required tool or data file must be present; install it in .ci/run)", msg)
	}
	t.Skip(msg)
}

// Require stops the test as Missing does unless ok holds.
func Require(t testing.TB, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		Missing(t, format, args...)
	}
}
