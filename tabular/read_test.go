package tabular

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	bt "github.com/tgms-go/tgms/bitemporal"
)

func write(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type pqEvent struct {
	From   string    `parquet:"from"`
	To     string    `parquet:"to"`
	At     time.Time `parquet:"at,timestamp(microsecond)"`
	Amount float64   `parquet:"amount"`
	Count  *int64    `parquet:"count,optional"`
	OK     bool      `parquet:"ok"`
	Note   *string   `parquet:"note,optional"`
}

func writeParquet[T any](t testing.TB, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.MaxRowsPerRowGroup(2))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func readEvents(t *testing.T, path string, m Mapping) ([]bt.Event, error) {
	t.Helper()
	rd, err := Open(path, "")
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	et, err := ReadEvents(rd, &m, Options{MaxProblems: 10})
	if err != nil {
		return nil, err
	}
	return et.Events, nil
}

// The same table in the four formats reads to the same events, with
// typed props.
func TestFormatsAgree(t *testing.T) {
	dir := t.TempDir()
	csv := "from,to,at,amount,count,ok,note\n" +
		"a,b,2024-03-01T09:30:00.000001Z,1.5,3,true,\"x, y\"\n" +
		"b,c,2024-03-01T10:30:00+01:00,2,,false,\n" +
		"c,a,2024-03-02T00:00:00Z,-0.25,7,1,z\n"
	paths := []string{
		write(t, dir, "e.csv", csv),
		write(t, dir, "e.tsv", strings.NewReplacer("\"x, y\"", "x, y", ",", "\t").Replace(csv)),
		write(t, dir, "e.jsonl", `{"from":"a","to":"b","at":"2024-03-01T09:30:00.000001Z","amount":1.5,"count":3,"ok":true,"note":"x, y"}
{"from":"b","to":"c","at":"2024-03-01T10:30:00+01:00","amount":2,"count":null,"ok":false}

{"from":"c","to":"a","at":"2024-03-02T00:00:00Z","amount":-0.25,"count":7,"ok":true,"note":"z"}
`),
	}
	three, seven := int64(3), int64(7)
	xy, z := "x, y", "z"
	pq := filepath.Join(dir, "e.parquet")
	base := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	writeParquet(t, pq, []pqEvent{
		{"a", "b", base.Add(time.Microsecond), 1.5, &three, true, &xy},
		{"b", "c", base, 2, nil, false, nil},
		{"c", "a", time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC), -0.25, &seven, true, &z},
	})
	paths = append(paths, pq)
	m := Mapping{Src: "from", Dst: "to", Time: "at", RelType: "PAID", Props: []string{"amount", "count", "ok", "note"},
		Types: map[string]string{"amount": "float", "count": "int", "ok": "bool"}}
	us := base.UnixMicro()
	want := []bt.Event{
		{Src: "a", Dst: "b", RelType: "PAID", VtS: us + 1, Props: `{"amount":1.5,"count":3,"note":"x, y","ok":true}`},
		{Src: "b", Dst: "c", RelType: "PAID", VtS: us, Props: `{"amount":2.0,"ok":false}`},
		{Src: "c", Dst: "a", RelType: "PAID", VtS: time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC).UnixMicro(), Props: `{"amount":-0.25,"count":7,"note":"z","ok":true}`},
	}
	for _, p := range paths {
		got, err := readEvents(t, p, m)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", filepath.Base(p), got, want)
		}
	}
}

func TestEventMappingRules(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "e.csv", "s,d,t,e,kind,w\nx,y,10,20,A,1\nx,y,30,,B,2\n")
	got, err := readEvents(t, p, Mapping{Src: "s", Dst: "d", Time: "t", End: "e", TimeFormat: "unix_us", RelTypeCol: "kind", Props: []string{"*"}, UIDPrefix: "u:"})
	if err != nil {
		t.Fatal(err)
	}
	want := []bt.Event{
		{Src: "u:x", Dst: "u:y", RelType: "A", VtS: 10, VtE: 20, Props: `{"w":"1"}`},
		{Src: "u:x", Dst: "u:y", RelType: "B", VtS: 30, VtE: bt.OpenEnd, Props: `{"w":"2"}`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	for _, c := range []struct {
		m   Mapping
		err string
	}{
		{Mapping{Src: "s", Dst: "d", Time: "t"}, "no rel type"},
		{Mapping{Src: "s", Dst: "nope", Time: "t", RelType: "R"}, `column "nope"`},
		{Mapping{Dst: "d", Time: "t", RelType: "R"}, "--src"},
		{Mapping{Src: "s", Dst: "d", Time: "t", RelType: "R", RelTypeCol: "kind"}, "not both"},
		{Mapping{Src: "s", Dst: "d", Time: "t", RelType: "R", Types: map[string]string{"w": "int"}}, "not a property column"},
		{Mapping{Src: "s", Dst: "d", Time: "t", RelType: "R", Props: []string{"w"}, Types: map[string]string{"w": "decimal"}}, "unknown type"},
	} {
		if _, err := readEvents(t, p, c.m); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: %v, want %q", c.m, err, c.err)
		}
	}
}

// Every bad cell is named with file, line, column, value and what was
// expected; a dry run lists them all up to the limit.
func TestErrorsPointAtTheCell(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "bad.csv", "s,d,t,amount\n"+
		"a,b,2024-03-01T00:00:00Z,1\n"+
		"a,,2024-03-01T00:00:00Z,1\n"+ // line 3: empty dst
		"a,b,yesterday,1\n"+ // line 4: bad time
		"a,b,2024-03-01T00:00:00Z,lots\n"+ // line 5: bad float
		"a,b,2024-03-01T00:00:00.0000001Z,1\n"+ // line 6: finer than µs
		"a,b\n") // line 7: short row
	m := Mapping{Src: "s", Dst: "d", Time: "t", RelType: "R", Props: []string{"amount"}, Types: map[string]string{"amount": "float"}}
	_, err := readEvents(t, p, m)
	var pr *Problems
	if !errors.As(err, &pr) {
		t.Fatalf("want *Problems, got %v", err)
	}
	want := []struct {
		line       int64
		col, value string
		expected   string
	}{
		{3, "d", "", "a node uid"},
		{4, "t", "yesterday", "RFC 3339"},
		{5, "amount", "lots", "a finite number"},
		{6, "t", "2024-03-01T00:00:00.0000001Z", "RFC 3339"},
		{7, "", "", "one cell per header column"},
	}
	if len(pr.List) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(pr.List), len(want), err)
	}
	for i, w := range want {
		e := pr.List[i]
		if e.Pos.File != p || e.Pos.Line != w.line || e.Column != w.col || e.Value != w.value || !strings.Contains(e.Expected, w.expected) {
			t.Errorf("problem %d = %+v, want line %d column %q value %q expected ~%q", i, e, w.line, w.col, w.value, w.expected)
		}
	}
	if s := err.Error(); !strings.Contains(s, "bad.csv:4: column \"t\": value \"yesterday\"") || !strings.Contains(s, "nothing was written") {
		t.Errorf("message: %s", s)
	}
	// A load stops at the first.
	rd, _ := Open(p, "")
	defer rd.Close()
	if _, err := ReadEvents(rd, &m, Options{}); !errors.As(err, &pr) || pr.Count() != 1 || pr.List[0].Pos.Line != 3 {
		t.Errorf("load: %v", err)
	}
	// The limit bounds the list and counts the rest.
	rd2, _ := Open(p, "")
	defer rd2.Close()
	if _, err := ReadEvents(rd2, &m, Options{MaxProblems: 2}); !errors.As(err, &pr) || len(pr.List) != 2 || pr.More != 0 {
		t.Errorf("limit: %v", err)
	}
}

func TestParquetErrorsNameRowGroupAndRow(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "e.parquet")
	base := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	writeParquet(t, pq, []pqEvent{{"a", "b", base, 1, nil, true, nil}, {"b", "c", base, 1, nil, true, nil}, {"", "c", base, 1, nil, true, nil}})
	_, err := readEvents(t, pq, Mapping{Src: "from", Dst: "to", Time: "at", RelType: "R"})
	var pr *Problems
	if !errors.As(err, &pr) || pr.List[0].Pos.RowGroup != 1 || pr.List[0].Pos.Row != 0 || pr.List[0].Column != "from" {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(err.Error(), "row group 1 row 0") {
		t.Errorf("message: %v", err)
	}
}

func TestHeaderRequired(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, err string }{
		{"", "empty"},
		{"a,,c\n1,2,3\n", "header cell 2 is empty"},
		{"a,b,a\n1,2,3\n", "twice"},
	} {
		p := write(t, dir, "h.csv", c.text)
		if _, err := Open(p, ""); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.text, err, c.err)
		}
	}
}

func TestTypedCells(t *testing.T) {
	for _, c := range []struct {
		typ  Type
		in   string
		want string
		ok   bool
	}{
		{TypeString, "x\"y", `"x\"y"`, true},
		{TypeInt, "42", "42", true},
		{TypeInt, "-9223372036854775808", "-9223372036854775808", true},
		{TypeInt, "9223372036854775808", "", false},
		{TypeInt, "4.0", "", false},
		{TypeFloat, "4", "4.0", true},
		{TypeFloat, "1e300", "1e+300", true},
		{TypeFloat, "NaN", "", false},
		{TypeFloat, "Inf", "", false},
		{TypeBool, "TRUE", "true", true},
		{TypeBool, "0", "false", true},
		{TypeBool, "yes", "", false},
		{TypeJSON, `{"b":1, "a":[1,2]}`, `{"a":[1,2],"b":1}`, true},
		{TypeJSON, `{`, "", false},
	} {
		got, err := appendText(nil, c.typ, c.in)
		if (err == nil) != c.ok || (c.ok && string(got) != c.want) {
			t.Errorf("%s %q = %s, %v", c.typ, c.in, got, err)
		}
	}
	for _, c := range []struct {
		typ  Type
		in   any
		want string
		ok   bool
	}{
		{TypeAuto, int64(3), "3", true},
		{TypeAuto, 2.5, "2.5", true},
		{TypeAuto, "s", `"s"`, true},
		{TypeInt, 3.0, "3", true},
		{TypeInt, 3.5, "", false},
		{TypeFloat, int64(3), "3.0", true},
		{TypeString, int64(3), "", false},
		{TypeInt, "12", "12", true},
		{TypeBool, int64(1), "", false},
	} {
		got, err := appendTyped(nil, c.typ, c.in)
		if (err == nil) != c.ok || (c.ok && string(got) != c.want) {
			t.Errorf("%s %v = %s, %v", c.typ, c.in, got, err)
		}
	}
}

func TestNodeTable(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "people.csv", "id,kind,risk,from,to\n"+
		"ana,Person,low,2024-01-01T00:00:00Z,2024-03-01T00:00:00Z\n"+
		"ana,Person,high,2024-03-01T00:00:00Z,\n"+
		"ben,Company,,,\n")
	rd, _ := Open(p, "")
	nt, err := ReadNodes(rd, &Mapping{UID: "id", LabelCol: "kind", ValidFrom: "from", ValidTo: "to", Props: []string{"risk"}}, Options{})
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	jan, mar := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	want := []bt.Op{
		bt.AssertNode("ana", "Person", `{"risk":"low"}`, bt.Interval{Start: jan, End: mar}),
		bt.AssertNode("ana", "Person", `{"risk":"high"}`, bt.Interval{Start: mar, End: bt.OpenEnd}),
		bt.AssertNode("ben", "Company", "", bt.Interval{Start: 0, End: bt.OpenEnd}),
	}
	if !reflect.DeepEqual(nt.Ops, want) {
		t.Fatalf("got %+v\nwant %+v", nt.Ops, want)
	}
	bad := write(t, dir, "overlap.csv", "id,from,to\nana,2024-01-01T00:00:00Z,2024-03-02T00:00:00Z\nana,2024-03-01T00:00:00Z,\nben,2024-03-01T00:00:00Z,2024-02-01T00:00:00Z\n")
	rd, _ = Open(bad, "")
	_, err = ReadNodes(rd, &Mapping{UID: "id", ValidFrom: "from", ValidTo: "to"}, Options{MaxProblems: 5})
	rd.Close()
	var pr *Problems
	if !errors.As(err, &pr) || pr.List[0].Pos.Line != 4 || pr.List[0].Column != "to" {
		t.Fatalf("%v", err)
	}
	rd, _ = Open(bad, "")
	bad2 := write(t, dir, "overlap2.csv", "id,from,to\nana,2024-01-01T00:00:00Z,2024-03-02T00:00:00Z\nana,2024-03-01T00:00:00Z,\n")
	rd.Close()
	rd, _ = Open(bad2, "")
	_, err = ReadNodes(rd, &Mapping{UID: "id", ValidFrom: "from", ValidTo: "to"}, Options{})
	rd.Close()
	if !errors.As(err, &pr) || pr.List[0].Pos.Line != 3 || !strings.Contains(err.Error(), "overlaps") {
		t.Fatalf("%v", err)
	}
}

func TestChangeLogBatches(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "ch.csv", "when,op,uid,src,dst,rel_type,valid_from,valid_to,props,amount\n"+
		"2024-03-02T00:00:00Z,correct,ana,,,,2024-01-01T00:00:00Z,,\"{\"\"risk\"\":\"\"high\"\"}\",\n"+
		"2024-03-01T00:00:00Z,assert,ana,,,,2024-01-01T00:00:00Z,,\"{\"\"risk\"\":\"\"low\"\"}\",\n"+
		"2024-03-01T00:00:00Z,ingest,,ana,ben,PAID,2024-02-01T00:00:00Z,,,5\n"+
		"2024-03-01T00:00:00Z,ingest,,ben,ana,PAID,2024-02-02T00:00:00Z,,,6\n"+
		"2024-03-03T00:00:00Z,retract,,ana,ben,PAID,2024-02-15T00:00:00Z,,,\n")
	rd, _ := Open(p, "")
	cl, err := ReadChanges(rd, &Mapping{RecordedAt: "when", Props: []string{"amount"}, Types: map[string]string{"amount": "int"}}, Options{})
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(cl.Batches) != 3 {
		t.Fatalf("%d batches", len(cl.Batches))
	}
	b0 := cl.Batches[0]
	if b0.TT != time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC).UnixMicro() || len(b0.Ops) != 2 || b0.Ops[0].Kind != bt.OpAssertNode || b0.Ops[1].Kind != bt.OpIngest || len(b0.Ops[1].Events) != 2 {
		t.Fatalf("batch 0: %+v", b0)
	}
	if b0.Ops[1].Events[1].Props != `{"amount":6}` || b0.Where(1, 1).Line != 5 {
		t.Errorf("event props %q, row %v", b0.Ops[1].Events[1].Props, b0.Where(1, 1))
	}
	if op := cl.Batches[1].Ops[0]; op.Kind != bt.OpCorrect || op.Ref != bt.NodeRef("ana") || op.Props != `{"risk":"high"}` {
		t.Errorf("batch 1: %+v", op)
	}
	if op := cl.Batches[2].Ops[0]; op.Kind != bt.OpRetract || op.Ref.Edge.Src != "ana" || op.At != time.Date(2024, 2, 15, 0, 0, 0, 0, time.UTC).UnixMicro() {
		t.Errorf("batch 2: %+v", op)
	}
	badp := write(t, dir, "bad.csv", "recorded_at,op,uid,src,dst\n2024-03-01T00:00:00Z,delete,ana,,\n2024-03-01T00:00:00Z,assert,ana,a,b\n,assert,ana,,\n")
	rd, _ = Open(badp, "")
	_, err = ReadChanges(rd, &Mapping{}, Options{MaxProblems: 10})
	rd.Close()
	var pr *Problems
	if !errors.As(err, &pr) || pr.Count() != 3 || pr.List[0].Column != "op" || pr.List[0].Value != "delete" || pr.List[2].Column != "recorded_at" {
		t.Fatalf("%v", err)
	}
}

func TestMappingYAML(t *testing.T) {
	m, err := ParseMapping([]byte("src: a\ndst: b\ntime: t\nprops: [x, y]\ntypes: {x: int}\n"), "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o := m.Override(&Mapping{Dst: "B", RelType: "R"})
	if o.Src != "a" || o.Dst != "B" || o.RelType != "R" || len(o.Props) != 2 || o.Types["x"] != "int" {
		t.Fatalf("%+v", o)
	}
	if _, err := ParseMapping([]byte("sourc: a\n"), "m.yaml"); err == nil || !strings.Contains(err.Error(), "sourc") {
		t.Fatalf("unknown key accepted: %v", err)
	}
}

// Override merges types column by column and leaves both inputs alone.
func TestOverrideMergesTypes(t *testing.T) {
	file := Mapping{Src: "a", Types: map[string]string{"amount": "float", "count": "int"}}
	flags := Mapping{Types: map[string]string{"count": "string", "ok": "bool"}}
	o := file.Override(&flags)
	want := map[string]string{"amount": "float", "count": "string", "ok": "bool"}
	if !reflect.DeepEqual(o.Types, want) || o.Src != "a" {
		t.Fatalf("merged %+v, want types %v", o, want)
	}
	if len(file.Types) != 2 || file.Types["count"] != "int" || len(flags.Types) != 2 {
		t.Fatalf("Override changed its inputs: %v %v", file.Types, flags.Types)
	}
	if o := file.Override(&Mapping{}); !reflect.DeepEqual(o.Types, file.Types) {
		t.Fatalf("no flag types: %v", o.Types)
	}
}
