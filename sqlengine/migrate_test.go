package sqlengine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// A store of schema version 3 (no identity index) is read as it is, with
// the envelopes of the in-memory engine; the index of version 4 changes
// plans, not answers.
func TestReadsVersion3(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	url := schemaURL(c, "v3read")
	rng := rand.New(rand.NewPCG(11, 3))
	hist := oracle.RandomHistory(rng, 10)
	s := writeHistory(t, url, hist)
	defer s.Close()
	conn, err := pgx.Connect(ctx, url[:len(url)-len("&schema=v3read")])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{"DROP INDEX v3read.edge_versions_identity_end", "UPDATE v3read.tgms_meta SET schema_version = 3"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	answered := 0
	for _, call := range calls(rng, hist) {
		switch call["op"] {
		case "graph_metric_timeseries", "burst_detection", "count_temporal_motifs":
			if equal(t, ctx, ops.NativeBackend{Src: native{s}}, e, call) {
				answered++
			}
		}
	}
	if answered == 0 {
		t.Fatal("no call answered with rows")
	}
}
