package tabular_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/tabular"
)

// testStore opens a new store whose clock counts 1, 2, 3, ...
func testStore(t *testing.T, dir string) *tgms.DB {
	t.Helper()
	var now bt.Time
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true, Clock: func() bt.Time { now++; return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// loadWhole reads the whole table, then ingests its events at once.
func loadWhole(t *testing.T, db *tgms.DB, path string, m tabular.Mapping) {
	t.Helper()
	rd, err := tabular.Open(path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	et, err := tabular.ReadEvents(rd, &m, tabular.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.IngestFrom(tgms.Source{Name: "file " + filepath.Base(path), SHA256: et.SHA256}, false, et.Events, et.NodeLabel, nil); err != nil {
		t.Fatal(err)
	}
}

// loadStream ingests the table in two passes (nothing kept from the
// first) and returns how many passes read it.
func loadStream(t *testing.T, db *tgms.DB, path string, m tabular.Mapping) (int, error) {
	t.Helper()
	passes := 0
	pass := func(fn func([]bt.Event) error) (string, error) {
		passes++
		rd, err := tabular.Open(path, "")
		if err != nil {
			return "", err
		}
		defer rd.Close()
		sc, err := tabular.ScanEvents(rd, &m, tabular.Options{MaxProblems: 5}, 4096, fn)
		if err != nil {
			return "", err
		}
		return sc.SHA256, nil
	}
	_, err := db.IngestStream(context.Background(), "file "+filepath.Base(path), pass, tgms.StreamOptions{NodeLabel: tabular.NodeLabelOf(&m), Hold: -1})
	return passes, err
}

// tenColumnsJSONL writes the rows of tenColumns as JSONL, with typed
// fields.
func tenColumnsJSONL(t *testing.T, n int) string {
	var sb strings.Builder
	kinds := []string{"PAID", "SENT", "CALLED"}
	for i := range n {
		fmt.Fprintf(&sb, `{"src":"u%d","dst":"u%d","ts":%d,"kind":%q,"amount":%d.%02d,"count":%d,"ok":%t,"channel":"ch%d","note":"n%d","region":"r%d"}`+"\n",
			i%50000, (i*7+1)%50000, 1704067200+int64(i), kinds[i%3], i%1000, i%100, i%17, i%2 == 0, i%5, i%97, i%11)
	}
	p := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A table loaded in two passes, the second writing as it reads, gives
// the store the digest and source records of loading the whole file at
// once, in every format.
func TestStreamingLoadMatchesWholeFile(t *testing.T) {
	n := tgms.ChunkEvents + 1234 // two batches
	typed := map[string]string{"amount": "float", "count": "int", "ok": "bool"}
	for _, c := range []struct {
		name  string
		path  func() string
		unixS bool
		types map[string]string
	}{
		{"csv", func() string { return tenColumns(t, n) }, true, typed},
		{"jsonl", func() string { return tenColumnsJSONL(t, n) }, true, nil},
		{"parquet", func() string { return tenColumnsParquet(t, n) }, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.path()
			m := tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", RelTypeCol: "kind", Props: []string{"*"}, Types: c.types}
			if c.unixS {
				m.TimeFormat = tabular.UnixS
			}
			whole := testStore(t, filepath.Join(t.TempDir(), "whole"))
			loadWhole(t, whole, p, m)
			stream := testStore(t, filepath.Join(t.TempDir(), "stream"))
			passes, err := loadStream(t, stream, p, m)
			if err != nil {
				t.Fatal(err)
			}
			if passes != 2 {
				t.Fatalf("%d passes, want 2 (a check, then the write)", passes)
			}
			if st := stream.Stats(); st.EdgeVersions != n || st.Batches != 2 {
				t.Fatalf("streamed %d edge versions in %d batches, want %d in 2", st.EdgeVersions, st.Batches, n)
			}
			if a, b := whole.Digest(), stream.Digest(); a != b {
				t.Fatalf("digest streamed %s, whole file %s", b, a)
			}
			if a, b := fmt.Sprint(whole.Sources()), fmt.Sprint(stream.Sources()); a != b {
				t.Fatalf("sources streamed %s, whole file %s", b, a)
			}
			// The same content again is a repeat, however it was loaded.
			if _, err := loadStream(t, whole, p, m); !errors.Is(err, tgms.ErrRepeatIngest) {
				t.Fatalf("streamed load of a file loaded whole: %v, want a repeat", err)
			}
		})
	}
}

// A bad cell near the end of a table larger than a batch is named (file,
// line, column, value) after the first pass, and nothing is written.
func TestStreamingLoadBadRowNearEndWritesNothing(t *testing.T) {
	n := 2*tgms.ChunkEvents + 10
	m := tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", TimeFormat: tabular.UnixS, RelTypeCol: "kind", Props: []string{"*"},
		Types: map[string]string{"amount": "float", "count": "int", "ok": "bool"}}
	good := tenColumns(t, n)
	db := testStore(t, t.TempDir())
	loadWhole(t, db, good, m)
	before := db.Digest()
	text, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")
	badLine := len(lines) - 4 // the third row from the end (1-based line numbers; lines ends with "")
	f := strings.Split(lines[badLine-1], ",")
	f[5] = "seven" // count: an int column
	lines[badLine-1] = strings.Join(f, ",")
	lines[1] = strings.Replace(lines[1], "u0,", "u0x,", 1) // and a change at the start, so the content is new
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	passes, err := loadStream(t, db, bad, m)
	var pr *tabular.Problems
	if !errors.As(err, &pr) || passes != 1 {
		t.Fatalf("err %v after %d passes, want the problems after one", err, passes)
	}
	want := fmt.Sprintf(`bad.csv:%d: column "count": value "seven"`, badLine)
	if msg := err.Error(); !strings.Contains(msg, want) || !strings.Contains(msg, "nothing was written") {
		t.Fatalf("error %q, want it to name %s", msg, want)
	}
	if db.Digest() != before || db.Stats().Batches != 3 {
		t.Fatal("a refused load changed the store")
	}
}
