package main

import (
	"os"
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/internal/pgtest"
)

// pgSynth is a PostgreSQL store holding the 2,000-event synthetic stream
// of seed 5, ingested through tgms ingest: the setup of the tests that
// run the CLI on a PostgreSQL store.
type pgSynth struct {
	Cluster *pgtest.Cluster
	URL     string   // the store, in a schema of its own
	Dir     string   // the test's directory, holding the stream
	Events  string   // the stream's JSONL file
	First   bt.Event // the stream's first event
}

// newPGSynth starts a cluster for t and ingests the stream into schema.
func newPGSynth(t *testing.T, schema string) pgSynth {
	t.Helper()
	p := pgSynth{Cluster: pgtest.ForTest(t), Dir: t.TempDir()}
	p.URL = p.Cluster.SchemaURL(schema)
	p.Events = filepath.Join(p.Dir, "events.jsonl")
	f, err := os.Create(p.Events)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: 2_000, Seed: 5}, func(ch []bt.Event) error {
		if p.First.Src == "" {
			p.First = ch[0]
		}
		return datasets.WriteEventsJSONL(f, ch)
	}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runCLI(t, "ingest", "--events", p.Events, "--store", p.URL); code != 0 {
		t.Fatalf("ingest into %s: exit %d %s %s", schema, code, out, errs)
	}
	return p
}
