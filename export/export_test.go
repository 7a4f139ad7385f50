package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/export"
)

func TestExportAsOf(t *testing.T) {
	dir := t.TempDir()
	db, err := tgms.Open(filepath.Join(dir, "st"), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p1, _ := bt.ParseProps([]byte(`{"risk":"low"}`))
	p2, _ := bt.ParseProps([]byte(`{"risk":"high"}`))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.WriteAt(10, []bt.Op{bt.AssertNode("a", "Person", p1, bt.Always)}))
	must(db.WriteAt(20, []bt.Op{bt.Correct(bt.NodeRef("a"), p2, bt.Always)}))
	must(db.WriteAt(30, []bt.Op{bt.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "R", VtS: 5}}, "Node")}))
	read := func(asOf bt.Time, name string) string {
		t.Helper()
		out := filepath.Join(dir, "out", name)
		err := db.Read(bt.MaxBelief, func(r engine.Reader) error {
			_, err := export.Write(r.Store(), filepath.Join(db.Dir(), tgms.LogFile), out, "csv", asOf)
			return err
		})
		must(err)
		var all []string
		for _, f := range []string{"nodes.csv", "edges.csv", "changes.csv"} {
			b, err := os.ReadFile(filepath.Join(out, f))
			must(err)
			all = append(all, string(b))
		}
		return strings.Join(all, "--\n")
	}
	got := read(15, "early")
	want := "uid,label,valid_from,valid_to,recorded_from,recorded_to,created_by,closed_by,props\n" +
		"a,Person,1970-01-01T00:00:00Z,,1970-01-01T00:00:00.00001Z,,assert_node,,\"{\"\"risk\"\":\"\"low\"\"}\"\n" +
		"--\nsrc,dst,rel_type,disc,valid_from,valid_to,recorded_from,recorded_to,created_by,closed_by,props\n" +
		"--\nrecorded_at,op,uid,label,src,dst,rel_type,disc,valid_from,valid_to,to_valid_from,to_valid_to,props,prov_authority,prov_source,prov_actor,prov_ref,prov_note,override\n" +
		"1970-01-01T00:00:00.00001Z,assert,a,Person,,,,,1970-01-01T00:00:00Z,,,,\"{\"\"risk\"\":\"\"low\"\"}\",,,,,,\n"
	if got != want {
		t.Fatalf("as of 15:\n%s\nwant\n%s", got, want)
	}
	all := read(bt.OpenEnd, "all")
	for _, w := range []string{
		",1970-01-01T00:00:00.00001Z,1970-01-01T00:00:00.00002Z,assert_node,correct,",  // closed by the correction
		",1970-01-01T00:00:00.00002Z,,correct,,",                                       // the corrected version
		"a,b,R,#3.0,1970-01-01T00:00:00.000005Z,1970-01-01T00:00:00.000006Z,",          // store-assigned disc
		"1970-01-01T00:00:00.00003Z,ingest,,Node,a,b,R,,1970-01-01T00:00:00.000005Z,,", // the event as ingested
	} {
		if !strings.Contains(all, w) {
			t.Errorf("export lacks %q:\n%s", w, all)
		}
	}
	if _, err := export.Write(nil, "", dir, "xlsx", bt.OpenEnd); err == nil {
		t.Error("unknown format accepted")
	}
}
