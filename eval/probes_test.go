package eval

import (
	"bytes"
	"strings"
	"testing"
)

// A suite's store basis survives MarshalCanonical and ReadSuite, and a
// malformed one is refused with the field named.
func TestSuiteBasisRoundTrip(t *testing.T) {
	s := &Suite{Dataset: "d", Seed: 3, Dev: []Task{}, Test: []Task{}}
	var err error
	if s.TestSplitSHA, err = splitSHA(s.Test); err != nil {
		t.Fatal(err)
	}
	s.Basis = &Basis{BaseDigest: "aa", Digest: "bb", Probes: []Probe{{UID: "n1", TTBefore: 5, TTAfter: 9, VtS: 10, VtE: 20}}}
	data, err := s.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadSuite(bytes.NewReader(data), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if got.Basis == nil || got.Basis.BaseDigest != "aa" || got.Basis.Digest != "bb" || len(got.Basis.Probes) != 1 || got.Basis.Probes[0] != s.Basis.Probes[0] {
		t.Fatalf("basis %+v", got.Basis)
	}
	bad := strings.Replace(string(data), `"tt_after":9`, `"tt_after":"9"`, 1)
	if _, err := ReadSuite(strings.NewReader(bad), "s.json"); err == nil || !strings.Contains(err.Error(), "tt_after must be an integer") {
		t.Fatalf("malformed basis: %v", err)
	}
}
