package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/tools"

	"github.com/tgms-go/tgms/internal/testenv"
)

// BenchmarkTraceCheck times trace_check of one saved trace (node n1's
// history on CollegeMsg, then one correction of n1) directly through
// fresh.Check, through the tool service and over the HTTP API, in the same
// run. fresh.Check reads the log after the trace's belief time and indexes
// it on every call; the service builds that index once and keeps it while
// no batch is written. The median latency is reported (median-µs).
func BenchmarkTraceCheck(b *testing.B) {
	spec, err := datasets.Lookup("collegemsg")
	if err != nil {
		b.Fatal(err)
	}
	path, ok := datasets.Locate(spec, filepath.Join("..", "..", "shared", "data"))
	if !ok {
		testenv.Missing(b, "CollegeMsg.txt.gz not found in ../../shared/data")
	}
	events, err := datasets.Load(spec, path)
	if err != nil {
		b.Fatal(err)
	}
	db, err := tgms.Open(b.TempDir(), &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(events, "", nil); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	svc := tools.New(db, tools.Options{})
	p := map[string]any{"plan_id": "h", "steps": []any{map[string]any{"id": "s1", "op": "entity_history", "args": map[string]any{"uid": "n1"}, "depends_on": []any{}}},
		"answer_spec": map[string]any{"kind": "count", "from": "s1.rows_total"}}
	out, f := svc.Call(ctx, "run_plan", map[string]any{"plan": p, "uids": []any{"n1"}})
	if f != nil {
		b.Fatal(f)
	}
	digest := out.(*tools.RunResult).TraceDigest
	tr, _ := svc.Traces().Get(digest)
	if _, err := db.Write(bt.Correct(bt.NodeRef("n1"), bt.Props(`{"fixed":true}`), bt.Always)); err != nil {
		b.Fatal(err)
	}
	h, err := server.Handler(svc, server.Config{}, true)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	body, _ := json.Marshal(map[string]any{"trace_digest": digest})
	args := map[string]any{"trace_digest": digest}
	for _, c := range []struct {
		name string
		call func() bool // reports the verdict: fresh
	}{
		{"direct", func() bool {
			rep, err := fresh.Check(db, tr, fresh.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return rep.Fresh
		}},
		{"service", func() bool {
			out, f := svc.Call(ctx, "trace_check", args)
			if f != nil {
				b.Fatal(f)
			}
			return out.(*tools.CheckResult).Fresh
		}},
		{"http", func() bool {
			resp, err := ts.Client().Post(ts.URL+"/v1/trace_check", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			defer resp.Body.Close()
			var m map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d: %v %v", resp.StatusCode, m, err)
			}
			return m["fresh"] == true
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				if c.call() {
					b.Fatal("a trace of n1's history is fresh after n1 was corrected")
				}
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "median-µs")
		})
	}
}
