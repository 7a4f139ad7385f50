package tabular_test

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/tabular"
)

// snapData locates a SNAP file in ../shared/data beside the repository
// (or $TGMS_SHARED_DATA); missing, it skips, or fails under CI=true.
func snapData(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "data")
	if d := os.Getenv("TGMS_SHARED_DATA"); d != "" {
		dir = d
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found: under CI the SNAP files must be in ../shared/data beside the repository", p)
		}
		t.Skipf("%s not found (the SNAP files live in ../shared/data beside the repository)", p)
	}
	return p
}

// snapToCSV converts a SNAP file to a CSV with a header: src, dst, time
// (unix seconds) and, for the signed network, rating.
func snapToCSV(t *testing.T, spec datasets.Spec, in, out string) {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bw := bufio.NewWriter(w)
	signed := spec.Format == datasets.FormatSignedCSV
	if signed {
		fmt.Fprintln(bw, "src,dst,rating,time")
	} else {
		fmt.Fprintln(bw, "src,dst,time")
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '%' {
			continue
		}
		if signed {
			fmt.Fprintln(bw, line)
		} else {
			fmt.Fprintln(bw, strings.Join(strings.Fields(line), ","))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	bw.Flush()
}

// load ingests events into a new store whose clock counts 1, 2, 3, ...,
// so that two loads of the same events have the same digest.
func load(t *testing.T, dir string, events []bt.Event, label string) string {
	t.Helper()
	var now bt.Time
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true, Clock: func() bt.Time { now++; return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(events, label, nil); err != nil {
		t.Fatal(err)
	}
	return db.Digest()
}

// The three SNAP datasets, converted to CSV here and loaded through a
// column mapping, whole or streamed, give the digests of the built-in
// loaders.
func TestMappingMatchesSNAPLoaders(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the three SNAP datasets twice")
	}
	for _, name := range datasets.Names() {
		spec, _ := datasets.Lookup(name)
		t.Run(name, func(t *testing.T) {
			src := snapData(t, spec.FileName)
			dir := t.TempDir()
			builtin, err := datasets.Load(spec, src)
			if err != nil {
				t.Fatal(err)
			}
			csv := filepath.Join(dir, name+".csv")
			snapToCSV(t, spec, src, csv)
			m := tabular.Mapping{Src: "src", Dst: "dst", Time: "time", TimeFormat: "unix_s", RelType: spec.RelType, UIDPrefix: "n"}
			if spec.Format == datasets.FormatSignedCSV {
				m.Props, m.Types = []string{"rating"}, map[string]string{"rating": "int"}
			}
			rd, err := tabular.Open(csv, "")
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			et, err := tabular.ReadEvents(rd, &m, tabular.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(et.Events) != len(builtin) {
				t.Fatalf("%d events through the mapping, %d from the loader", len(et.Events), len(builtin))
			}
			a := load(t, filepath.Join(dir, "a"), builtin, "Node")
			b := load(t, filepath.Join(dir, "b"), et.Events, et.NodeLabel)
			if a != b {
				t.Fatalf("digest through the mapping %s, built-in loader %s", b, a)
			}
			// Streamed: checked in one pass, written as a second reads it.
			db := testStore(t, filepath.Join(dir, "c"))
			if _, err := loadStream(t, db, csv, m); err != nil {
				t.Fatal(err)
			}
			if c := db.Digest(); c != a {
				t.Fatalf("digest of the streamed load %s, built-in loader %s", c, a)
			}
		})
	}
}
