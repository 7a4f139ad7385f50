package tabular

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzRead reads data as a table of format through an event mapping, a
// node mapping and a change-log mapping. Only a *Problems or *CellError
// (a bad input, reported) is an acceptable failure; any other error, or a
// panic, fails.
func fuzzRead(t *testing.T, format string, data []byte) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in."+format)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mappings := []func(Reader) error{
		func(rd Reader) error {
			_, err := ReadEvents(rd, &Mapping{Src: "s", Dst: "d", Time: "t", End: "e", TimeFormat: "unix_ms", RelTypeCol: "r", Props: []string{"*"}, Types: map[string]string{"n": "int"}}, Options{MaxProblems: 5})
			return err
		},
		func(rd Reader) error {
			_, err := ReadNodes(rd, &Mapping{UID: "s", ValidFrom: "t", ValidTo: "e", Props: []string{"*"}}, Options{MaxProblems: 5})
			return err
		},
		func(rd Reader) error {
			_, err := ReadChanges(rd, &Mapping{RecordedAt: "t", Op: "r", Src: "s", Dst: "d", RelType: "R"}, Options{MaxProblems: 5})
			return err
		},
	}
	for _, read := range mappings {
		rd, err := Open(p, format)
		if err != nil {
			if !acceptable(err) {
				t.Fatalf("open: internal error %T: %v", err, err)
			}
			continue
		}
		err = read(rd)
		rd.Close()
		if err != nil && !acceptable(err) {
			t.Fatalf("internal error %T: %v", err, err)
		}
	}
}

func acceptable(err error) bool {
	var pr *Problems
	var ce *CellError
	var me *MappingError
	return errors.As(err, &pr) || errors.As(err, &ce) || errors.As(err, &me) || bytes.Contains([]byte(err.Error()), []byte("not a readable Parquet file"))
}

var csvSeeds = []string{
	"s,d,t,e,r,n\na,b,1000,2000,R,5\n",
	"s,d,t,e,r,n\na,b,1000,,R,x\n\"q\"\"\",b,1.5,3,R,\n",
	"s,d,t,e,r\na,b,-1,0,R\n",
	"s,d\n\"unterminated\n",
	"\ufeffs,d,t,e,r\na,b,99999999999999999999,1,R\n",
	// change logs with provenance columns
	"t,r,s,d,prov_authority,prov_source,prov_actor,prov_ref,prov_note,override\n" +
		"2024-03-01T00:00:00Z,assert,a,b,user,crm,dana,chat-7,\"a, \"\"b\"\"\nc\",true\n" +
		"2024-03-01T00:00:00Z,ingest,a,c,user,crm,dana,chat-7,\"a, \"\"b\"\"\nc\",true\n" +
		"2024-03-02T00:00:00Z,retract,a,b,,,,,,\n",
	"t,r,s,d,prov_authority,prov_actor,override\n2024-03-01T00:00:00Z,assert,a,b,admin,x,yes\n2024-03-01T00:00:00Z,assert,a,b,,x,\n",
	"t,r,s,d,prov_authority,override\n2024-03-01T00:00:00Z,assert,a,b,model,true\n2024-03-01T00:00:00Z,assert,a,c,model,false\n",
}

func FuzzCSV(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, "csv", data) })
}

func FuzzTSV(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add(bytes.ReplaceAll([]byte(s), []byte(","), []byte("\t")))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, "tsv", data) })
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"s":"a","d":"b","t":1000,"r":"R","n":3}` + "\n" + `{"s":1,"d":"b","t":"x"}`))
	f.Add([]byte(`[1]` + "\n" + `{"s":"a","d":"b","t":1e400}`))
	f.Add([]byte(`{"s":"a","d":"b","t":1.0000001,"e":null,"r":"assert"}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, "jsonl", data) })
}

type fuzzRow struct {
	S string    `parquet:"s"`
	D *string   `parquet:"d,optional"`
	T time.Time `parquet:"t,timestamp(nanosecond)"`
	E int64     `parquet:"e"`
	R string    `parquet:"r"`
	N float32   `parquet:"n"`
}

func FuzzParquet(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "seed.parquet")
	b := "b"
	writeParquet(f, p, []fuzzRow{{"a", &b, time.Unix(1, 5000), 2000, "R", 1.5}, {"", nil, time.Unix(0, 1), 0, "", 0}})
	seed, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("PAR1garbagePAR1"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, "parquet", data) })
}
