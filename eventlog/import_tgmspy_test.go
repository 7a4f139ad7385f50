package eventlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

const appendixA = "testdata/anchor-appendix-a.jsonl"

type pyBatchT struct {
	tt  bt.Time
	ops []bt.Op
}

func importString(t *testing.T, s string) ([]pyBatchT, error) {
	t.Helper()
	var got []pyBatchT
	err := ImportTGMSPy(strings.NewReader(s), "log.jsonl", func(tt bt.Time, ops []bt.Op) error {
		got = append(got, pyBatchT{tt, ops})
		return nil
	})
	return got, err
}

func readAppendixA(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(appendixA)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestImportAppendixA(t *testing.T) {
	got, err := importString(t, readAppendixA(t))
	if err != nil {
		t.Fatal(err)
	}
	ab := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}
	want := []pyBatchT{
		{1, []bt.Op{bt.AssertNode("a", "Person", `{"name":"Alice"}`, bt.Always)}},
		{2, []bt.Op{bt.AssertNode("b", "Person", `{"name":"Bob"}`, bt.Always)}},
		{3, []bt.Op{bt.AssertEdge(ab, `{"w":1}`, bt.Interval{Start: 10, End: 100})}},
		{4, []bt.Op{bt.Correct(bt.EdgeRef(ab), `{"w":2}`, bt.Interval{Start: 40, End: 60})}},
		{5, []bt.Op{bt.Retract(bt.EdgeRef(ab), 80)}},
		{6, []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20, Disc: "#0"},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30, Disc: "#1"},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 35, Disc: "#2"},
		}, "Node")}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("imported:\n%+v\nwant:\n%+v", got, want)
	}
}

type row struct {
	id                 string // uid or src>dst:rel:disc
	vtS, vtE, ttS, ttE int64
	props              string
}

func rows(m *bt.MemStore) []row {
	var out []row
	for _, v := range m.Nodes {
		out = append(out, row{v.UID + "/" + v.Label, v.Valid.Start, v.Valid.End, v.TTs, v.TTe, v.Props.JSON()})
	}
	for _, v := range m.Edges {
		k := v.Key
		out = append(out, row{fmt.Sprintf("%s>%s:%s:%s", k.Src, k.Dst, k.RelType, k.Disc), v.Valid.Start, v.Valid.End, v.TTs, v.TTe, v.Props.JSON()})
	}
	slices.SortFunc(out, func(a, b row) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return out
}

// TestImportAppendixAStore applies the imported batches to the model store
// and compares its rows with the ones Appendix A lists; it also round-trips
// the batches through a Log and checks that replay rebuilds the same store.
func TestImportAppendixAStore(t *testing.T) {
	live := bt.NewMemStore()
	path := filepath.Join(t.TempDir(), "a.wal")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = ImportTGMSPy(strings.NewReader(readAppendixA(t)), appendixA, func(tt bt.Time, ops []bt.Op) error {
		if _, err := l.Append(&Record{TT: tt, Seq: l.LastSeq() + 1, Ops: ops}); err != nil {
			return err
		}
		return live.Write(tt, ops)
	})
	if err != nil {
		t.Fatal(err)
	}
	const open = bt.OpenEnd
	want := []row{
		{"a/Person", 0, open, 1, open, `{"name":"Alice"}`},
		{"b/Person", 0, open, 2, open, `{"name":"Bob"}`},
		{"c/Node", 20, open, 6, open, `{}`},
		{"a>b:KNOWS:", 10, 100, 3, 4, `{"w":1}`},
		{"a>b:KNOWS:", 10, 40, 4, open, `{"w":1}`},
		{"a>b:KNOWS:", 40, 60, 4, open, `{"w":2}`},
		{"a>b:KNOWS:", 60, 100, 4, 5, `{"w":1}`},
		{"a>b:KNOWS:", 60, 80, 5, open, `{"w":1}`},
		{"a>c:MSG:#2", 35, 36, 6, open, `{}`},
		{"c>a:MSG:#1", 30, 31, 6, open, `{}`},
		{"a>c:MSG:#0", 20, 21, 6, open, `{}`},
	}
	slices.SortFunc(want, func(a, b row) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	if got := rows(live); !reflect.DeepEqual(got, want) {
		t.Fatalf("store rows:\n%v\nwant:\n%v", got, want)
	}
	replayed := bt.NewMemStore()
	if err := l.Replay(HeaderSize, func(r *Record, _ int64) error { return replayed.Write(r.TT, r.Ops) }); err != nil {
		t.Fatal(err)
	}
	if replayed.Digest() != live.Digest() {
		t.Fatal("replaying the log gives another store")
	}
}

func TestImportErrors(t *testing.T) {
	lines := strings.SplitAfter(readAppendixA(t), "\n")
	lines = lines[:len(lines)-1] // drop the empty piece after the last newline
	join := func(ls ...string) string { return strings.Join(ls, "") }
	with := func(i int, line string) string {
		ls := slices.Clone(lines)
		ls[i] = line
		return join(ls...)
	}
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"bad batch_id", with(3, strings.Replace(lines[3], "10a09919bfca5228", "10a09919bfca5229", 1)),
			`log.jsonl:4: batch_id "10a09919bfca5229" does not match its content (computed "10a09919bfca5228")`},
		{"altered content", with(2, strings.Replace(lines[2], `"Bob"`, `"Rob"`, 1)),
			`log.jsonl:3: batch_id "364d7c021872e5c4" does not match its content`},
		{"non-monotonic tt", join(lines[0], lines[1], lines[2], lines[4], lines[3]),
			"log.jsonl:5: non-monotonic tt: 3 does not follow 4"},
		{"repeated tt", join(lines[0], lines[1], lines[1]),
			"log.jsonl:3: non-monotonic tt: 1 does not follow 1"},
		{"truncated JSON line", join(lines[0], lines[1], lines[2][:60]+"\n", lines[3]),
			"log.jsonl:3: invalid JSON"},
		{"torn last line", join(lines[0], lines[1], lines[2][:60]),
			"log.jsonl:3: the last line has no terminating newline"},
		{"unknown op", join(lines[0], lines[1], pyLine(t, `[{"op":"merge_nodes","a":"x","b":"y"}]`, 7)),
			`log.jsonl:3: op 0: unknown op "merge_nodes"`},
		{"unknown field", join(lines[0], pyLine(t, `[{"op":"retract","ref":{"kind":"node","uid":"a"},"t":5,"when":1}]`, 7)),
			`log.jsonl:2: op 0: retract: unknown field "when"`},
		{"missing field", join(lines[0], pyLine(t, `[{"op":"assert_node","label":"L"}]`, 7)),
			`log.jsonl:2: op 0: assert_node: missing field "uid"`},
		{"props not an object", join(lines[0], pyLine(t, `[{"op":"assert_node","uid":"u","label":"L","props":[1]}]`, 7)),
			`log.jsonl:2: op 0: assert_node: props: props must be a JSON object, got an array`},
		{"float time", join(lines[0], pyLine(t, `[{"op":"retract","ref":{"kind":"node","uid":"a"},"t":5.0}]`, 7)),
			`log.jsonl:2: op 0: retract: t must be an integer, got a non-integral number`},
		{"bad ref kind", join(lines[0], pyLine(t, `[{"op":"retract","ref":{"kind":"vertex","uid":"a"},"t":5}]`, 7)),
			`log.jsonl:2: op 0: retract ref: kind must be "node" or "edge", got "vertex"`},
		{"bad event", join(lines[0], pyLine(t, `[{"op":"ingest_events","events":[{"src":"a","dst":"b","rel_type":"R","vt_s":1},{"src":"a","dst":"b","vt_s":2}]}]`, 7)),
			`log.jsonl:2: op 0: ingest_events event 1: event: missing field "rel_type"`},
		{"wrong header", join(`{"format":"other","version":1}`+"\n", lines[1]),
			`log.jsonl:1: header: format is "other", want "tgms-eventlog"`},
		{"header version", join(`{"format":"tgms-eventlog","version":2}`+"\n", lines[1]),
			"log.jsonl:1: header: unsupported version 2"},
		{"no header", join(lines[1]), "log.jsonl:1: header: format is missing"},
		{"empty", "\n\n", "log.jsonl: empty file"},
		{"ops not array", join(lines[0], `{"batch_id":"x","ops":{},"tt":1}`+"\n"), "log.jsonl:2: batch: ops must be an array, got an object"},
		{"extra top-level field", join(lines[0], `{"batch_id":"x","ops":[],"tt":1,"z":0}`+"\n"), `log.jsonl:2: batch: unknown field "z"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importString(t, tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant an error containing %q", err, tc.want)
			}
		})
	}
}

// pyLine builds a canonical batch line with a correct batch_id.
func pyLine(t *testing.T, ops string, tt int64) string {
	t.Helper()
	v, err := canon.Parse([]byte(ops))
	if err != nil {
		t.Fatal(err)
	}
	body, err := canon.Marshal(map[string]any{"ops": v, "tt": tt})
	if err != nil {
		t.Fatal(err)
	}
	line, err := canon.Marshal(map[string]any{"batch_id": canon.DigestBytes(body)[:16], "ops": v, "tt": tt})
	if err != nil {
		t.Fatal(err)
	}
	return string(line) + "\n"
}

func TestImportDetails(t *testing.T) {
	header := `{"format":"tgms-eventlog","version":1}` + "\n"
	ops := `[{"events":[` +
		`{"dst":"b","rel_type":"R","src":"a","vt_s":5},` +
		`{"dst":"b","rel_type":"R","src":"a","vt_s":6,"vt_e":0,"disc":""},` +
		`{"dst":"b","rel_type":"R","src":"a","vt_s":7,"vt_e":9,"disc":"mine","props":{"k":[1,2]}},` +
		`{"dst":"b","rel_type":"R","src":"a","vt_s":8,"props":{}}` +
		`],"node_label":"User","offset":50000,"op":"ingest_events","provenance_ref":null,"source":"ingest"},` +
		`{"op":"assert_edge","src":"a","dst":"b","rel_type":"R","src_label":"U","dst_label":null},` +
		`{"op":"ingest_events","events":[]}]`
	in := "\n" + header + "\n" + pyLine(t, ops, 10) + "\n\n"
	got, err := importString(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := []pyBatchT{{10, []bt.Op{
		bt.Ingest([]bt.Event{
			{Src: "a", Dst: "b", RelType: "R", VtS: 5, Disc: "#50000"},
			{Src: "a", Dst: "b", RelType: "R", VtS: 6, Disc: "#50001"},
			{Src: "a", Dst: "b", RelType: "R", VtS: 7, VtE: 9, Disc: "mine", Props: `{"k":[1,2]}`},
			{Src: "a", Dst: "b", RelType: "R", VtS: 8, Disc: "#50003"},
		}, "User"),
		bt.AssertEdge(bt.EdgeKey{Src: "a", Dst: "b", RelType: "R"}, "", bt.Always),
		bt.Ingest(nil, "Node"),
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	// Errors from fn carry the line number and unwrap.
	sentinel := fmt.Errorf("refused")
	err = ImportTGMSPy(bytes.NewReader([]byte(readAppendixA(t))), "x", func(tt bt.Time, _ []bt.Op) error {
		if tt == 4 {
			return sentinel
		}
		return nil
	})
	if err == nil || err.Error() != "x:5: refused" {
		t.Fatalf("fn error: %v", err)
	}
}
