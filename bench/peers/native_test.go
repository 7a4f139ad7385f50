package peers

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// TestNativeLoadSameVersions checks that the native load rebuilds the
// exported version tables (history included: the store has corrections
// and retractions) and refuses a log it cannot read.
func TestNativeLoadSameVersions(t *testing.T) {
	db := synthStore(t, 2_000)
	dir := t.TempDir()
	tables, err := Export(db, dir)
	if err != nil {
		t.Fatal(err)
	}
	believed := 0
	for _, l := range readLines(t, tables.EdgesCSV) {
		if strings.Split(l, ",")[8] == strconv.FormatInt(bt.OpenEnd, 10) {
			believed++
		}
	}
	if believed == tables.EdgeVersions {
		t.Fatalf("all %d edge versions are believed: the store has no history to load", believed)
	}
	st, err := NativeLoad(db, tables, filepath.Join(dir, "native"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Seconds <= 0 || st.DiskBytes <= 0 || st.RowsPerSec <= 0 {
		t.Errorf("load figures %+v", st)
	}
	if want := float64(tables.NodeVersions+tables.EdgeVersions) / st.Seconds; st.RowsPerSec != want {
		t.Errorf("rows/s %.0f, want %.0f (node and edge versions)", st.RowsPerSec, want)
	}

	// A damaged log loads nothing and says where.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "events.wal"), []byte("not a log"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := nativeLoadFrom(db, filepath.Join(bad, "events.wal"), tables, filepath.Join(dir, "native2")); err == nil || !strings.Contains(err.Error(), "events.wal") {
		t.Errorf("a damaged log: err %v, want one naming the log", err)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}
