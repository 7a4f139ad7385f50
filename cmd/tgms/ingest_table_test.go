package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("tgms %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

func digestOf(t *testing.T, store string) string {
	return strings.TrimSpace(mustRun(t, "digest", "--store", store))
}

// Export then a change-log ingest of the export rebuilds the store with
// the same digest, for a store with corrections and retractions: the
// example ledger and a synthetic store with corrected and retracted
// events; CSV and Parquet.
func TestExportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	ledger := filepath.Join(dir, "ledger")
	mustRun(t, "ingest", "--store", ledger, "--changes", "../../examples/own/ledger.csv", "--no-sync")
	synth := filepath.Join(dir, "synth")
	mustRun(t, "synth", "--store", synth, "--events", "3000", "--seed", "7", "--corrections", "0.05", "--no-sync")
	// Node tables and events on top, with store-assigned discriminators.
	mustRun(t, "ingest", "--store", synth, "--nodes", "../../examples/own/people.csv", "--uid", "account", "--label-col", "kind", "--valid-from", "since", "--valid-to", "until", "--props", "name,risk")
	for _, store := range []string{ledger, synth} {
		for _, format := range []string{"csv", "parquet"} {
			out := filepath.Join(dir, "out-"+filepath.Base(store)+"-"+format)
			mustRun(t, "export", "--store", store, "--out", out, "--format", format)
			back := out + "-store"
			mustRun(t, "ingest", "--store", back, "--changes", filepath.Join(out, "changes."+format), "--no-sync")
			if a, b := digestOf(t, store), digestOf(t, back); a != b {
				t.Fatalf("%s %s: digest after the round trip %s, want %s", filepath.Base(store), format, b, a)
			}
		}
	}
	// The synthetic store really has corrections and retractions.
	edges, err := os.ReadFile(filepath.Join(dir, "out-synth-csv", "edges.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(edges), ",correct,") || !strings.Contains(string(edges), ",retract,") {
		t.Fatal("the synthetic store has no corrected or retracted versions")
	}
}

// "As of" one of the change log's recorded times answers from the user's
// history: Dia was recorded low-risk until the correction of March 10.
func TestChangeLogAsOfRecordedTime(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "st")
	mustRun(t, "ingest", "--store", st, "--changes", "../../examples/own/ledger.csv", "--no-sync")
	for _, c := range []struct{ asOf, want string }{
		{"1709596800000000", `"risk":"low"`},  // 2024-03-05
		{"1710201600000000", `"risk":"high"`}, // 2024-03-12
	} {
		out := mustRun(t, "call", "--store", st, "entity_history", `{"uid":"acct-dia","as_of_tt":`+c.asOf+`}`)
		if !strings.Contains(out, c.want) {
			t.Errorf("as of %s: %s, want %s", c.asOf, out, c.want)
		}
	}
	// A change the store's history cannot take (a correction of a node it
	// never held) names its row, and nothing of the log is written.
	before := digestOf(t, st)
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("recorded_at,op,uid,valid_from,props\n"+
		"2024-04-01T00:00:00Z,assert,acct-new,2024-01-01T00:00:00Z,\n"+
		"2024-04-02T00:00:00Z,correct,acct-ghost,2024-01-01T00:00:00Z,\"{\"\"x\"\":1}\"\n"), 0o644)
	_, errs, code := runCLI(t, "ingest", "--store", st, "--changes", bad)
	if code != exitInput || !strings.Contains(errs, "bad.csv:3") || !strings.Contains(errs, "acct-ghost") || !strings.Contains(errs, "nothing was written") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if digestOf(t, st) != before {
		t.Fatal("a refused change log changed the store")
	}
	// A change log recorded before the store's last transaction time is refused.
	_, errs, code = runCLI(t, "ingest", "--store", st, "--changes", "../../examples/own/ledger.csv", "--again")
	if code != exitInput || !strings.Contains(errs, "not after the store's last transaction time") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// A bad cell is named (file, line, column, value, expected) and nothing
// is written; a repeated load is refused unless --again.
func TestTableIngestBadCellWritesNothing(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "st")
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("a,b,t\nx,y,2024-01-01T00:00:00Z\n"), 0o644)
	mustRun(t, "ingest", "--store", st, "--file", good, "--src", "a", "--dst", "b", "--time", "t", "--rel-type", "R")
	before := digestOf(t, st)
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,b,t\nx,y,2024-01-01T00:00:00Z\nx,y,2024-02-30T00:00:00Z\nx,,2024-01-01T00:00:00Z\n"), 0o644)
	_, errs, code := runCLI(t, "ingest", "--store", st, "--file", bad, "--src", "a", "--dst", "b", "--time", "t", "--rel-type", "R")
	if code != exitInput || !strings.Contains(errs, `bad.csv:3: column "t": value "2024-02-30T00:00:00Z"`) || !strings.Contains(errs, "nothing was written") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	out, _, code := runCLI(t, "ingest", "--store", st, "--file", bad, "--src", "a", "--dst", "b", "--time", "t", "--rel-type", "R", "--dry-run")
	_ = out
	if code != exitInput {
		t.Fatalf("dry run of a bad file: exit %d", code)
	}
	_, errs, _ = runCLI(t, "ingest", "--store", st, "--file", bad, "--src", "a", "--dst", "b", "--time", "t", "--rel-type", "R", "--dry-run")
	if !strings.Contains(errs, "2 problems") || !strings.Contains(errs, "bad.csv:4") {
		t.Fatalf("dry run lists: %s", errs)
	}
	if after := digestOf(t, st); after != before {
		t.Fatal("a refused load changed the store")
	}
	_, errs, code = runCLI(t, "ingest", "--store", st, "--file", good, "--src", "a", "--dst", "b", "--time", "t", "--rel-type", "R")
	if code != exitInput || !strings.Contains(errs, "--again") {
		t.Fatalf("repeat: exit %d: %s", code, errs)
	}
	mustRun(t, "ingest", "--store", st, "--file", good, "--src", "a", "--dst", "b", "--time", "t", "--rel-type", "R", "--again")
	// A mapping that names a missing column is an input error.
	_, errs, code = runCLI(t, "ingest", "--store", st, "--file", good, "--src", "a", "--dst", "nope", "--time", "t", "--rel-type", "R")
	if code != exitInput || !strings.Contains(errs, `column "nope"`) {
		t.Fatalf("missing column: exit %d: %s", code, errs)
	}
}

// --types merges with the mapping file's types: a flag entry replaces the
// file's type for its column, the file's other columns keep theirs, and a
// column only the flag names gets its type.
func TestTypesFlagMergesWithMapping(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "e.csv")
	os.WriteFile(csv, []byte("a,b,t,amount,count,ok\nx,y,2024-01-01T00:00:00Z,1.5,7,true\n"), 0o644)
	yml := filepath.Join(dir, "m.yaml")
	os.WriteFile(yml, []byte("src: a\ndst: b\ntime: t\nrel_type: R\nprops: [amount, count, ok]\ntypes: {amount: float, count: int}\n"), 0o644)
	st := filepath.Join(dir, "st")
	mustRun(t, "ingest", "--store", st, "--file", csv, "--mapping", yml, "--types", "count:string,ok:bool")
	out := mustRun(t, "stats", "--store", st)
	for col, typ := range map[string]string{"amount": "float", "count": "string", "ok": "bool"} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 4 && f[0] == "property" && f[1] == "edge" && f[2] == col {
				found = true
				if f[3] != typ {
					t.Errorf("property %s has type %s, want %s (--types overrides the file per column)", col, f[3], typ)
				}
			}
		}
		if !found {
			t.Errorf("no property %s in the card:\n%s", col, out)
		}
	}
}

// A table loaded into a new store is written in one pass; one out of time
// order across batches is loaded again the checked way, and one with a bad
// row leaves no store.
func TestTableIngestNewStore(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int, row func(i int) string) string {
		var b strings.Builder
		b.WriteString("a,b,t\n")
		for i := range n {
			b.WriteString(row(i))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const n = 2*50_000 + 3
	sorted := write("sorted.csv", n, func(i int) string { return fmt.Sprintf("u%d,u%d,%d\n", i%97, i%89, 1_700_000_000+i) })
	unsorted := write("unsorted.csv", n, func(i int) string { return fmt.Sprintf("u%d,u%d,%d\n", i%97, i%89, 1_700_000_000+(i*7919)%n) })
	bad := write("bad.csv", n, func(i int) string {
		if i == n-2 {
			return "u1,,1700000000\n"
		}
		return fmt.Sprintf("u%d,u%d,%d\n", i%97, i%89, 1_700_000_000+i)
	})
	args := func(st, file string) []string {
		return []string{"ingest", "--store", st, "--file", file, "--src", "a", "--dst", "b", "--time", "t", "--time-format", "unix_s", "--rel-type", "R"}
	}
	for _, c := range []struct {
		file, want string
	}{
		{sorted, "read and written in one pass"},
		{unsorted, "write "},
	} {
		st := filepath.Join(dir, "st-"+filepath.Base(c.file))
		out := mustRun(t, args(st, c.file)...)
		if !strings.Contains(out, fmt.Sprintf("ingested %d events", n)) || !strings.Contains(out, c.want) || !strings.Contains(out, fmt.Sprintf("%d edge versions", n)) {
			t.Fatalf("%s: %s", c.file, out)
		}
		if out := mustRun(t, "check", "--store", st); !strings.Contains(out, "clean") {
			t.Fatalf("%s: check: %s", c.file, out)
		}
	}
	st := filepath.Join(dir, "st-bad")
	_, errs, code := runCLI(t, args(st, bad)...)
	if code != exitInput || !strings.Contains(errs, fmt.Sprintf(`bad.csv:%d: column "b"`, n)) {
		t.Fatalf("bad row: exit %d: %s", code, errs)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 5 { // the three tables and the two stores
		t.Fatalf("a refused load left %v", ents)
	}
}
