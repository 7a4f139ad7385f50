package tgms

import (
	"path/filepath"
	"runtime"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
)

// The store reopened from its checkpoint holds under 64 bytes per version
// of live heap, and the engine's own account of its structures stays
// under 48 (about 41 today: 37 in columns and indexes, the rest strings
// and nodes), for a synthetic store of about 200k versions, three full
// column chunks, so the chunk size does not round the figure up.
func TestFootprintPerVersion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "st")
	db, err := Open(dir, &Options{NoSync: true, Clock: testClock()})
	if err != nil {
		t.Fatal(err)
	}
	var buf []bt.Event
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: 140_000, Seed: 1}, func(c []bt.Event) error {
		buf = append(buf, c...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(buf, "", nil); err != nil {
		t.Fatal(err)
	}
	buf = nil
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := int64(ms.HeapAlloc)
	db, err = Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap := int64(ms.HeapAlloc) - before
	st := db.Stats()
	versions := float64(st.NodeVersions + st.EdgeVersions)
	if versions < 180_000 || versions > 196_608 {
		t.Fatalf("%v versions: the test wants about three column chunks (196,608)", versions)
	}
	var engine int64
	for _, p := range db.Memory() {
		engine += p.Bytes
	}
	t.Logf("%v versions: heap %.1f B/version, engine %.1f B/version", versions, float64(heap)/versions, float64(engine)/versions)
	if b := float64(engine) / versions; b >= 48 {
		t.Errorf("the engine holds %.1f bytes per version, want under 48", b)
	}
	if b := float64(heap) / versions; b >= 64 {
		t.Errorf("the open store's heap is %.1f bytes per version, want under 64", b)
	}
}
