package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// provHistory is a history with batches of every authority, an override,
// a note that needs CSV quoting, an ingest with a source and batches that
// state nothing. plain drops every stated provenance and override.
func provHistory(t *testing.T, dir string, plain bool) string {
	return provHistoryNote(t, dir, plain, "Munich, not \"Berlin\"\nsaid twice,\n\tonce quoted")
}

func provHistoryNote(t *testing.T, dir string, plain bool, note string) string {
	t.Helper()
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	props := func(s string) bt.Props {
		p, err := bt.ParseProps([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ab := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS", Disc: "x"}
	batches := []struct {
		tt     bt.Time
		source string
		b      bt.Batch
	}{
		{10, "", bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthUser, Actor: "dana", Ref: "chat-0007", Note: note}, Ops: []bt.Op{bt.AssertNode("a", "Person", props(`{"city":"Munich"}`), bt.Always)}}},
		{20, "", bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthModel, Actor: "hr-agent", Ref: "episode-17"}, Override: true, Ops: []bt.Op{bt.AssertNode("b", "Person", "", bt.Always), bt.AssertEdge(ab, "", bt.Interval{Start: 5, End: bt.OpenEnd})}}},
		{30, "sha256=" + strings.Repeat("ab", 32) + " part=1/1 name=file crm.csv", bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthImport, Source: "crm nightly", Actor: "etl"}, Ops: []bt.Op{bt.Ingest([]bt.Event{{Src: "a", Dst: "c", RelType: "PAID", VtS: 7}}, "Account")}}},
		{40, "", bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthSystem, Note: "nightly fix"}, Ops: []bt.Op{bt.Correct(bt.NodeRef("a"), props(`{"city":"Berlin"}`), bt.Always)}}},
		{50, "", bt.Batch{Ops: []bt.Op{bt.AssertNode("d", "Person", "", bt.Always)}}},
		{60, "", bt.Batch{Override: true, Ops: []bt.Op{bt.Retract(bt.EdgeRef(ab), 9)}}},
		{70, "", bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthUser}, Ops: []bt.Op{bt.Retract(bt.NodeRef("d"), 3)}}},
	}
	for _, x := range batches {
		b := x.b
		if plain {
			b.Prov, b.Override = nil, false
		}
		if err := db.WriteRecordAt(x.tt, x.source, b); err != nil {
			t.Fatalf("batch at %d: %v", x.tt, err)
		}
	}
	return db.Digest()
}

// readTable reads a CSV file as rows.
func readTable(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func writeTable(t *testing.T, path string, rows [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestExportChangesProvenanceRoundTrip(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig")
	want := provHistory(t, orig, false)
	plainDigest := provHistory(t, filepath.Join(dir, "plain"), true)
	if plainDigest == want {
		t.Fatal("the digest does not see stated provenance: the round trip below proves nothing")
	}
	if _, errs, code := runCLI(t, "export", "--store", orig, "--out", filepath.Join(dir, "tables")); code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	changes := filepath.Join(dir, "tables", "changes.csv")
	rows := readTable(t, changes)
	if got := strings.Join(rows[0][len(rows[0])-6:], ","); got != "prov_authority,prov_source,prov_actor,prov_ref,prov_note,override" {
		t.Fatalf("changes.csv header ends %q", got)
	}
	for _, line := range []string{
		"1970-01-01T00:00:00.00001Z,assert,a,Person,,,,,1970-01-01T00:00:00Z,,,,\"{\"\"city\"\":\"\"Munich\"\"}\",user,,dana,chat-0007,\"Munich, not \"\"Berlin\"\"\nsaid twice,\n\tonce quoted\",\n",
		",model,,hr-agent,episode-17,,true\n",
		",import,crm nightly,etl,,,\n",
		",system,,,,nightly fix,\n",
		"1970-01-01T00:00:00.00005Z,assert,d,Person,,,,,1970-01-01T00:00:00Z,,,,,,,,,,\n", // no provenance stated
		",,,,,,true\n", // override alone
		",user,,,,,\n",
	} {
		b, _ := os.ReadFile(changes)
		if !strings.Contains(string(b), line) {
			t.Errorf("changes.csv lacks %q:\n%s", line, b)
		}
	}
	again := filepath.Join(dir, "again")
	if _, errs, code := runCLI(t, "ingest", "--store", again, "--changes", changes, "--no-sync"); code != 0 {
		t.Fatalf("ingest --changes: exit %d %s", code, errs)
	}
	if got, _, _ := runCLI(t, "digest", "--store", again); strings.TrimSpace(got) != want {
		t.Fatalf("rebuilt store's digest %q, the original's %q", got, want)
	}
	// The rebuilt store exports the same change log.
	if _, errs, code := runCLI(t, "export", "--store", again, "--out", filepath.Join(dir, "tables2")); code != 0 {
		t.Fatalf("export again: exit %d %s", code, errs)
	}
	a, _ := os.ReadFile(changes)
	b, _ := os.ReadFile(filepath.Join(dir, "tables2", "changes.csv"))
	if string(a) != string(b) {
		t.Fatalf("changes.csv of the rebuilt store differs:\n%s\nwant\n%s", b, a)
	}
}

func TestIngestChangesOldFormat(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig")
	provHistory(t, orig, false)
	plainDigest := provHistory(t, filepath.Join(dir, "plain"), true)
	if _, errs, code := runCLI(t, "export", "--store", orig, "--out", filepath.Join(dir, "tables")); code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	rows := readTable(t, filepath.Join(dir, "tables", "changes.csv"))
	for i := range rows {
		rows[i] = rows[i][:len(rows[i])-6] // the columns before provenance was exported
	}
	if got := strings.Join(rows[0], ","); got != "recorded_at,op,uid,label,src,dst,rel_type,disc,valid_from,valid_to,to_valid_from,to_valid_to,props" {
		t.Fatalf("old header %q", got)
	}
	old := filepath.Join(dir, "old.csv")
	writeTable(t, old, rows)
	st := filepath.Join(dir, "st")
	if _, errs, code := runCLI(t, "ingest", "--store", st, "--changes", old, "--no-sync"); code != 0 {
		t.Fatalf("ingest of an old change log: exit %d %s", code, errs)
	}
	if got, _, _ := runCLI(t, "digest", "--store", st); strings.TrimSpace(got) != plainDigest {
		t.Fatalf("old change log gives digest %q, want that of the history without provenance %q", got, plainDigest)
	}
}

func TestIngestChangesBadProvenance(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig")
	provHistory(t, orig, false)
	if _, errs, code := runCLI(t, "export", "--store", orig, "--out", filepath.Join(dir, "tables")); code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	base := readTable(t, filepath.Join(dir, "tables", "changes.csv"))
	col := func(name string) int {
		for i, c := range base[0] {
			if c == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	auth, actor, over := col("prov_authority"), col("prov_actor"), col("override")
	// rows[2] is the model batch's first row (the node b): line 5, as the
	// note of row 1 spans three lines.
	cases := []struct {
		name string
		edit func(rows [][]string)
		want []string
	}{
		{"unknown authority", func(r [][]string) { r[2][auth] = "admin" }, []string{"bad.csv:5", `column "prov_authority"`, `"admin"`, "unknown authority", "user, model, import, system"}},
		{"text without authority", func(r [][]string) { r[2][auth] = ""; r[3][auth] = "" }, []string{"bad.csv:5", `column "prov_authority"`, "without an authority"}},
		{"bad override", func(r [][]string) { r[2][over] = "yes" }, []string{"bad.csv:5", `column "override"`, "true or false"}},
		{"batch disagrees", func(r [][]string) { r[3][actor] = "other-agent" }, []string{"bad.csv:6", "differs from that of", "bad.csv:5", "same provenance"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := make([][]string, len(base))
			for i := range base {
				rows[i] = append([]string(nil), base[i]...)
			}
			c.edit(rows)
			bad := filepath.Join(t.TempDir(), "bad.csv")
			writeTable(t, bad, rows)
			st := filepath.Join(t.TempDir(), "st")
			_, errs, code := runCLI(t, "ingest", "--store", st, "--changes", bad, "--no-sync")
			if code != exitInput {
				t.Fatalf("exit %d, want %d: %s", code, exitInput, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("error lacks %q: %s", w, errs)
				}
			}
			if _, err := os.Stat(filepath.Join(st, tgms.LogFile)); !os.IsNotExist(err) {
				t.Errorf("a refused change log wrote a store (stat: %v)", err)
			}
		})
	}
}

// Parquet keeps every byte of a note, a carriage return before a newline
// included (CSV readers take CR LF in a quoted cell as a line end).
func TestExportChangesProvenanceRoundTripParquet(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig")
	want := provHistoryNote(t, orig, false, "line one,\r\nline \"two\"\x7f é")
	if _, errs, code := runCLI(t, "export", "--store", orig, "--out", filepath.Join(dir, "tables"), "--format", "parquet"); code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	again := filepath.Join(dir, "again")
	if _, errs, code := runCLI(t, "ingest", "--store", again, "--changes", filepath.Join(dir, "tables", "changes.parquet"), "--no-sync"); code != 0 {
		t.Fatalf("ingest --changes: exit %d %s", code, errs)
	}
	if got, _, _ := runCLI(t, "digest", "--store", again); strings.TrimSpace(got) != want {
		t.Fatalf("rebuilt store's digest %q, the original's %q", got, want)
	}
}
