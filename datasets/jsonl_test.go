package datasets

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tgms-go/tgms/bitemporal"
)

func mustProps(t testing.TB, m map[string]any) bitemporal.Props {
	t.Helper()
	p, err := bitemporal.NewProps(m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadEventsJSONL(t *testing.T) {
	in := `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1082040961000000}

  {"vt_s":"2004-04-15T14:56:01Z","dst":"b","src":"a","rel_type":"MSG","vt_e":"2004-04-15T14:56:02.5Z"}
{"src":"a","dst":"c","rel_type":"R","vt_s":5,"vt_e":6,"disc":"#7","props":{"w":1,"x":1.5,"s":"é","n":null,"l":[1,2],"o":{"b":true}}}
{"src":"a","dst":"c","rel_type":"R","vt_s":"2004-04-15","props":{}}
{"src":"a","dst":"c","rel_type":"R","vt_s":"17","disc":""}` + "\r\n"
	got, err := ReadEventsJSONL(strings.NewReader(in), "in.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []bitemporal.Event{
		{Src: "a", Dst: "b", RelType: "MSG", VtS: 1082040961000000},
		{Src: "a", Dst: "b", RelType: "MSG", VtS: 1082040961000000, VtE: 1082040962500000},
		{Src: "a", Dst: "c", RelType: "R", VtS: 5, VtE: 6, Disc: "#7", Props: mustProps(t, map[string]any{
			"w": int64(1), "x": 1.5, "s": "é", "n": nil, "l": []any{int64(1), int64(2)}, "o": map[string]any{"b": true}})},
		{Src: "a", Dst: "c", RelType: "R", VtS: 1081987200000000},
		{Src: "a", Dst: "c", RelType: "R", VtS: 17},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if got[2].Props != `{"l":[1,2],"n":null,"o":{"b":true},"s":"é","w":1,"x":1.5}` {
		t.Errorf("props %s", got[2].Props)
	}
	// Empty input: no events, no error.
	if evs, err := ReadEventsJSONL(strings.NewReader(""), "empty"); err != nil || len(evs) != 0 {
		t.Errorf("empty: %v %v", evs, err)
	}
}

func TestReadEventsJSONLErrors(t *testing.T) {
	good := `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1}` + "\n"
	cases := []struct {
		name, line, errText string
	}{
		{"unknown field", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1,"weight":2}`, `unknown field(s) weight`},
		{"missing src", `{"dst":"b","rel_type":"MSG","vt_s":1}`, `field "src": is required`},
		{"missing dst", `{"src":"a","rel_type":"MSG","vt_s":1}`, `field "dst": is required`},
		{"missing rel_type", `{"src":"a","dst":"b","vt_s":1}`, `field "rel_type": is required`},
		{"missing vt_s", `{"src":"a","dst":"b","rel_type":"MSG"}`, `field "vt_s": is required`},
		{"empty src", `{"src":"","dst":"b","rel_type":"MSG","vt_s":1}`, `src must be a non-empty uid`},
		{"src number", `{"src":1,"dst":"b","rel_type":"MSG","vt_s":1}`, `"src": must be a string, got an integer`},
		{"disc number", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1,"disc":3}`, `"disc": must be a string`},
		{"vt_s float", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1.5}`, `"vt_s": must be an integer`},
		{"vt_s bool", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":true}`, `got a boolean`},
		{"vt_s null", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":null}`, `must not be null`},
		{"vt_s bad string", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":"yesterday"}`, `"vt_s"`},
		{"vt_s negative", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":-1}`, `outside [0, 2^62)`},
		{"vt_s open end", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":4611686018427387904}`, `outside`},
		{"vt_e equal", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":5,"vt_e":5}`, `must be after vt_s`},
		{"vt_e before", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":5,"vt_e":"1970-01-01T00:00:00Z"}`, `must be after vt_s`},
		{"vt_e beyond", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":5,"vt_e":4611686018427387905}`, `at most 2^62`},
		{"props array", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1,"props":[1]}`, `props must be a JSON object, got an array`},
		{"props null", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1,"props":null}`, `must not be null`},
		{"truncated", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1`, `invalid JSON`},
		{"trailing garbage", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1} x`, `invalid JSON`},
		{"two objects", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":1}{}`, `invalid JSON`},
		{"duplicate key", `{"src":"a","src":"b","dst":"b","rel_type":"MSG","vt_s":1}`, `invalid JSON`},
		{"not an object", `[1,2]`, `want a JSON object per line, got an array`},
		{"bare string", `"x"`, `got a string`},
		{"integer overflow", `{"src":"a","dst":"b","rel_type":"MSG","vt_s":99999999999999999999}`, `invalid JSON`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The bad line is line 3: after a good line and a blank one.
			in := good + "\n" + tc.line + "\n" + good
			evs, err := ReadEventsJSONL(strings.NewReader(in), "events.jsonl")
			var pe *ParseError
			if evs != nil || !errors.As(err, &pe) {
				t.Fatalf("events %v, err %v; want a *ParseError", evs, err)
			}
			if pe.File != "events.jsonl" || pe.Line != 3 {
				t.Errorf("error at %s:%d, want events.jsonl:3", pe.File, pe.Line)
			}
			if !strings.Contains(err.Error(), tc.errText) || !strings.HasPrefix(err.Error(), "events.jsonl:3: ") {
				t.Errorf("error %q, want it to mention %q", err, tc.errText)
			}
		})
	}
	// Truncated final line without newline.
	_, err := ReadEventsJSONL(strings.NewReader(good+`{"src":"a","dst`), "t")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("truncated last line: %v", err)
	}
	// Read errors pass through.
	_, err = ReadEventsJSONL(iotest.ErrReader(io.ErrClosedPipe), "r")
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("read error: %v", err)
	}
	// Over-long line.
	long := `{"src":"` + strings.Repeat("a", MaxJSONLLine) + `"}`
	_, err = ReadEventsJSONL(strings.NewReader(good+long), "long")
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("long line: %v", err)
	}
}

func TestEventsJSONLRoundTrip(t *testing.T) {
	events := []bitemporal.Event{
		{Src: "n1", Dst: "n2", RelType: "MSG", VtS: 0},
		{Src: "n1", Dst: "n2", RelType: "MSG", VtS: 5, VtE: 6},
		{Src: "a\"b\\c\n", Dst: "ü→", RelType: "R\u0001", VtS: 1, VtE: bitemporal.OpenEnd, Disc: "#1",
			Props: mustProps(t, map[string]any{"rating": int64(-10), "x": 0.1, "big": 1e300, "s": "\u2028"})},
		{Src: "x", Dst: "y", RelType: "T", VtS: bitemporal.OpenEnd - 1},
	}
	var buf bytes.Buffer
	if err := WriteEventsJSONL(&buf, events); err != nil {
		t.Fatal(err)
	}
	want := `{"dst":"n2","rel_type":"MSG","src":"n1","vt_s":0}` + "\n" +
		`{"dst":"n2","rel_type":"MSG","src":"n1","vt_e":6,"vt_s":5}` + "\n"
	if !strings.HasPrefix(buf.String(), want) {
		t.Errorf("output starts\n%s\nwant\n%s", buf.String(), want)
	}
	got, err := ReadEventsJSONL(bytes.NewReader(buf.Bytes()), "rt")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, events) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, events)
	}
	// And again: byte-identical output.
	var buf2 bytes.Buffer
	if err := WriteEventsJSONL(&buf2, got); err != nil || !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Errorf("second write differs (%v)", err)
	}
	// Every line is canonical JSON.
	for _, l := range bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n")) {
		p, err := bitemporal.ParseProps(l)
		if err != nil || string(p) != string(l) {
			t.Errorf("line %s is not canonical (%v)", l, err)
		}
	}
}

func TestWriteEventsJSONLRejects(t *testing.T) {
	bad := []bitemporal.Event{
		{Dst: "b", RelType: "R"},
		{Src: "a", RelType: "R"},
		{Src: "a", Dst: "b"},
		{Src: "a", Dst: "b", RelType: "R", VtS: -1},
		{Src: "a", Dst: "b", RelType: "R", VtS: 5, VtE: 5},
		{Src: "a", Dst: "b", RelType: "R", VtS: 5, VtE: bitemporal.OpenEnd + 1},
		{Src: "a\xff", Dst: "b", RelType: "R"},
		{Src: "a", Dst: "b", RelType: "R", Props: `{"b":1,"a":2}`},
		{Src: "a", Dst: "b", RelType: "R", Props: `{}`},
		{Src: "a", Dst: "b", RelType: "R", Props: `[1]`},
		{Src: "a", Dst: "b", RelType: "R", Props: `{"a":1`},
	}
	for i, e := range bad {
		var buf bytes.Buffer
		err := WriteEventsJSONL(&buf, []bitemporal.Event{{Src: "ok", Dst: "ok", RelType: "R"}, e})
		if err == nil || !strings.Contains(err.Error(), "event 1") {
			t.Errorf("case %d (%+v): err %v", i, e, err)
		}
	}
	// Writer errors are returned.
	many := make([]bitemporal.Event, 10000)
	for i := range many {
		many[i] = bitemporal.Event{Src: "a", Dst: "b", RelType: "R", VtS: int64(i)}
	}
	if err := WriteEventsJSONL(errWriter{}, many); err == nil {
		t.Error("writer error lost")
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, io.ErrShortWrite }
