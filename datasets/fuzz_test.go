package datasets

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"github.com/tgms-go/tgms/bitemporal"
)

// FuzzParseSNAPLine checks that the line parser never panics, that it
// agrees with a slow reference on what it accepts, and that the file-level
// loader (plain and gzip) agrees with it.
func FuzzParseSNAPLine(f *testing.F) {
	for _, s := range []string{
		"1 2 1082040961", "1\t2\t3\r", "# c", "% c", "", "   ", "1 2", "1 2 3 4", "a 2 3", "1 2 -3",
		"1 2 3.5", "1 2 .", "1 2 1e9", "99999999999999999999 1 1", "1 2 4611686018427", "1 2 4611686018428",
		"6,2,4,1289241912", "1,2,-10,3.25", "1,,3,4", " 1 , 2 , +3 , 4 ", "1,2,3,4,", "1,2,x,4",
	} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, line string) {
		format := FormatTemporal
		if which&1 == 1 {
			format = FormatSignedCSV
		}
		rec, ok, err := parseSNAPLine(format, []byte(line))
		if err != nil && ok {
			t.Fatal("ok with an error")
		}
		if ok {
			if rec.src < 0 || rec.dst < 0 || rec.vt < 0 || rec.vt >= bitemporal.OpenEnd {
				t.Fatalf("accepted %q as %+v", line, rec)
			}
			// Whole-second times map exactly.
			if n, perr := strconv.ParseInt(string(lastField(format, line)), 10, 64); perr == nil && rec.vt != n*1_000_000 {
				t.Fatalf("%q: vt %d, want %d", line, rec.vt, n*1_000_000)
			}
		}
		if bytes.IndexByte([]byte(line), '\n') >= 0 {
			return // a file of several lines; the rest needs one line
		}
		rel := "MSG"
		if format == FormatSignedCSV {
			rel = "TRUST"
		}
		spec := testSpec(format, rel, []byte(line))
		inputs := [][]byte{[]byte(line)}
		if len(line)%4 == 0 { // gzip is slow to set up: check it on a quarter of the inputs
			inputs = append(inputs, gz(t, []byte(line)))
		}
		for _, data := range inputs {
			evs, lerr := loadData(spec, "fuzz", data)
			switch {
			case err != nil:
				if lerr == nil || evs != nil {
					t.Fatalf("%q: line error %v but Load gave %v, %v", line, err, evs, lerr)
				}
			case !ok:
				if lerr != nil || len(evs) != 0 {
					t.Fatalf("%q: skipped line but Load gave %v, %v", line, evs, lerr)
				}
			default:
				if lerr != nil || len(evs) != 1 || evs[0].VtS != rec.vt || evs[0].Src != "n"+strconv.FormatInt(rec.src, 10) {
					t.Fatalf("%q: %+v but Load gave %v, %v", line, rec, evs, lerr)
				}
			}
		}
	})
}

func lastField(f Format, line string) []byte {
	b := bytes.TrimRight([]byte(line), " \t\r\v\f")
	sep := func(c byte) bool { return isBlank(c) }
	if f == FormatSignedCSV {
		sep = func(c byte) bool { return c == ',' }
	}
	i := len(b)
	for i > 0 && !sep(b[i-1]) {
		i--
	}
	return bytes.TrimSpace(b[i:])
}

// FuzzReadEventsJSONL checks that the events-file reader never panics, and
// that whatever it accepts survives a write/read round trip unchanged.
func FuzzReadEventsJSONL(f *testing.F) {
	for _, s := range []string{
		`{"src":"a","dst":"b","rel_type":"MSG","vt_s":1}`,
		`{"src":"a","dst":"b","rel_type":"MSG","vt_s":"2004-04-15T14:56:01Z","vt_e":"2004-04-16"}`,
		`{"src":"a","dst":"b","rel_type":"R","vt_s":5,"vt_e":6,"disc":"#7","props":{"w":1,"x":[1.5,null,"é"]}}`,
		`{"src":"a","dst":"b","rel_type":"MSG","vt_s":1}` + "\n\n" + `{"src":"a"`,
		`{"src":"a","dst":"b","rel_type":"MSG","vt_s":1,"x":1}`,
		`[1]`, `{}`, `{"src":"\ud800"}`, "\xff", `{"props":{"a":{"b":{"c":[]}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := ReadEventsJSONL(bytes.NewReader(data), "fuzz")
		if err != nil {
			if evs != nil {
				t.Fatal("events returned with an error")
			}
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T %v, want *ParseError", err, err)
			}
			return
		}
		if op := bitemporal.Ingest(evs, "Node"); op.Validate(0) != nil {
			t.Fatalf("accepted events that do not validate: %v", op.Validate(0))
		}
		var buf bytes.Buffer
		if err := WriteEventsJSONL(&buf, evs); err != nil {
			t.Fatalf("write of accepted events: %v", err)
		}
		back, err := ReadEventsJSONL(bytes.NewReader(buf.Bytes()), "again")
		if err != nil || !slices.Equal(back, evs) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, evs, back)
		}
	})
}
