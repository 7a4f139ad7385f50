package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/mcpserver"
	"github.com/tgms-go/tgms/server/tools"
)

// BenchmarkOperatorCall times one operator call (temporal_reachability on
// a tiny store, so the figure is mostly the way in) directly through
// DB.Call, over MCP in memory, over MCP streamable HTTP and over the HTTP
// API, in the same run. It reports the median latency (median-µs) besides
// the mean (ns/op).
func BenchmarkOperatorCall(b *testing.B) {
	s := testdb.New(b)
	svc := tools.New(s.DB, tools.Options{})
	args := s.ReachArgs()
	ctx := context.Background()
	client := func(t mcp.Transport) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, t, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close() })
		return cs
	}
	h, err := server.Handler(svc, server.Config{}, true)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h)
	b.Cleanup(ts.Close)

	ct, st := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(svc).Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ss.Close() })
	inMemory := client(ct)
	overHTTP := client(&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true})
	body, _ := json.Marshal(args)
	hc := ts.Client()

	mcpCall := func(cs *mcp.ClientSession) func() error {
		return func() error {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "temporal_reachability", Arguments: args})
			if err == nil && res.IsError {
				b.Fatalf("tool error: %v", res.StructuredContent)
			}
			return err
		}
	}
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"direct", func() error { _, err := s.DB.Call(ctx, "temporal_reachability", args); return err }},
		{"mcp-inmemory", mcpCall(inMemory)},
		{"mcp-streamable-http", mcpCall(overHTTP)},
		{"http", func() error {
			resp, err := hc.Post(ts.URL+"/v1/temporal_reachability", "application/json", bytes.NewReader(body))
			if err != nil {
				return err
			}
			var out map[string]any
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d: %v", resp.StatusCode, out)
			}
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "median-µs")
		})
	}
}
