package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A CR LF inside a quoted CSV cell comes back byte-exact through ingest
// and export: in a uid (a raw cell of the export) and in a property (a
// JSON string there), while the records themselves end in CR LF; and the
// export's change log rebuilds the same store.
func TestCSVCellCRLFRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "events.csv")
	data := "src,dst,ts,note\r\n" +
		"\"a\r\nx\",b,1000,\"line one\r\nline two\"\r\n" +
		"b,c,2000,\"lf\nonly\"\r\n"
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	st := filepath.Join(dir, "st")
	mustRun(t, "ingest", "--store", st, "--file", in, "--src", "src", "--dst", "dst", "--time", "ts", "--time-format", "unix_s", "--props", "note", "--rel-type", "R", "--no-sync")
	out := filepath.Join(dir, "out")
	mustRun(t, "export", "--store", st, "--out", out)
	edges, err := os.ReadFile(filepath.Join(out, "edges.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n\"a\r\nx\",b,R,",                 // the uid's cell, raw
		`""note"":""line one\r\nline two""`, // the property, JSON-escaped CR LF
		`""note"":""lf\nonly""`,             // a lone LF stays a lone LF
	} {
		if !bytes.Contains(edges, []byte(want)) {
			t.Errorf("edges.csv lacks %q:\n%q", want, edges)
		}
	}
	back := filepath.Join(dir, "back")
	mustRun(t, "ingest", "--store", back, "--changes", filepath.Join(out, "changes.csv"), "--no-sync")
	if a, b := digestOf(t, st), digestOf(t, back); a != b {
		t.Fatalf("digest after the round trip %s, want %s", b, a)
	}
}
