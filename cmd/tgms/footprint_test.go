package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// footprint reports the store it opened: its versions, its files' sizes,
// and per-version figures that are those totals divided by the versions.
func TestFootprint(t *testing.T) {
	st := filepath.Join(t.TempDir(), "st")
	mustRun(t, "synth", "--store", st, "--events", "20000", "--seed", "3", "--no-sync")
	var fp footprint
	if err := json.Unmarshal([]byte(mustRun(t, "footprint", "--store", st, "--json")), &fp); err != nil {
		t.Fatal(err)
	}
	var stats storeStats
	if err := json.Unmarshal([]byte(mustRun(t, "stats", "--store", st, "--json")), &stats); err != nil {
		t.Fatal(err)
	}
	if fp.Versions != stats.NodeVersions+stats.EdgeVersions || fp.EdgeVersions != stats.EdgeVersions || fp.Versions == 0 {
		t.Fatalf("footprint counts %d versions (%d edge), stats %d node and %d edge", fp.Versions, fp.EdgeVersions, stats.NodeVersions, stats.EdgeVersions)
	}
	for name, want := range map[string]int64{"events.wal": fp.LogBytes, "checkpoint.tgc": fp.CkptBytes} {
		fi, err := os.Stat(filepath.Join(st, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() != want {
			t.Errorf("%s: footprint says %d bytes, the file has %d", name, want, fi.Size())
		}
	}
	if want := float64(fp.LogBytes+fp.CkptBytes) / float64(fp.Versions); fp.DiskPerVersion != want {
		t.Errorf("disk bytes per version %v, want %v", fp.DiskPerVersion, want)
	}
	var parts int64
	for _, p := range fp.Parts {
		parts += p.Bytes
	}
	if parts != fp.EngineBytes || fp.EngineBytes <= 0 || fp.HeapBytes <= 0 || fp.OpenSeconds <= 0 {
		t.Errorf("engine %d B (parts sum to %d), heap %d B, open %v s", fp.EngineBytes, parts, fp.HeapBytes, fp.OpenSeconds)
	}
}
