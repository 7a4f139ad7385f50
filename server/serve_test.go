package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/internal/servertest/mcpcheck"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/tools"
)

func TestCheckBind(t *testing.T) {
	const token = "0123456789abcdef"
	for _, c := range []struct {
		addr, token string
		loopback    bool
		err         string
	}{
		{"127.0.0.1:7410", "", true, ""},
		{"[::1]:7410", "", true, ""},
		{"localhost:7410", "", true, ""},
		{"127.0.0.2:7410", "", true, ""},
		{"0.0.0.0:7410", "", false, "without --token"},
		{":7410", "", false, "every interface"},
		{"[::]:7410", "", false, "without --token"},
		{"192.168.1.5:7410", "", false, "without --token"},
		{"example.com:7410", "", false, "without --token"},
		{"0.0.0.0:7410", token, false, ""},
		{"0.0.0.0:7410", "short", false, "at least 16"},
		{"127.0.0.1", "", false, "host:port"},
	} {
		loopback, err := server.CheckBind(c.addr, c.token)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.addr, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s token %q: error %v, want one saying %q", c.addr, c.token, err, c.err)
		case err == nil && loopback != c.loopback:
			t.Errorf("%s: loopback %v", c.addr, loopback)
		}
	}
}

func TestRunRefusesNonLoopbackWithoutToken(t *testing.T) {
	s := testdb.New(t)
	err := server.Run(context.Background(), tools.New(s.DB, tools.Options{}), server.Config{HTTP: "0.0.0.0:0"})
	if err == nil || !strings.Contains(err.Error(), "--token") {
		t.Fatalf("Run on 0.0.0.0 without a token: %v", err)
	}
}

// TestMCPStreamableHTTP runs the MCP battery over streamable HTTP, and
// checks that /mcp needs the token when one is set.
func TestMCPStreamableHTTP(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{})
	h, err := server.Handler(svc, server.Config{}, true)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mcpcheck.Run(t, cs, s)

	const token = "0123456789abcdef-token"
	guarded := httptest.NewServer(server.MCPHandler(svc, server.Config{Token: token}, true))
	defer guarded.Close()
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: guarded.URL + "/mcp", MaxRetries: -1}, nil); err == nil {
		t.Fatalf("connected to a token-guarded /mcp without the token")
	}
	hc := &http.Client{Transport: bearer{token}}
	cs2, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: guarded.URL + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	cs2.Close()
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestGuards: with a token, the console page loads without it but the API
// needs it; cross-origin browser requests and foreign Host headers are
// refused.
func TestGuards(t *testing.T) {
	s := testdb.New(t)
	const token = "0123456789abcdef-token"
	h, err := server.Handler(tools.New(s.DB, tools.Options{}), server.Config{Token: token}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, path string
		header             map[string]string
		status             int
	}{
		{"console without token", "GET", "/", nil, 200},
		{"script without token", "GET", "/console/app.js", nil, 200},
		{"api without token", "GET", "/v1/stats", nil, 401},
		{"api with token", "GET", "/v1/stats", map[string]string{"Authorization": "Bearer " + token}, 200},
		{"mcp without token", "POST", "/mcp", nil, 401},
		{"cross-origin post", "POST", "/v1/stats", map[string]string{"Authorization": "Bearer " + token, "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403},
		{"foreign host", "GET", "/v1/stats", map[string]string{"Authorization": "Bearer " + token, "Host": "attacker.example"}, 403},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader("{}"))
		req.Host = "127.0.0.1:7410"
		for k, v := range c.header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Errorf("%s: status %d, want %d (%s)", c.name, rec.Code, c.status, rec.Body)
		}
	}
}

// TestRun starts real listeners on loopback, reads the API through one of
// them and stops on cancel.
func TestRun(t *testing.T) {
	s := testdb.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	lines := make(chan string, 4)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, tools.New(s.DB, tools.Options{}), server.Config{HTTP: "127.0.0.1:0",
			Logf: func(format string, args ...any) { lines <- fmt.Sprintf(format, args...) }})
	}()
	line := <-lines
	m := regexp.MustCompile(`API (http://127\.0\.0\.1:\d+)/v1/`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("log line %q names no API address", line)
	}
	resp, err := http.Get(m[1] + "/v1/stats")
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if resp.StatusCode != 200 || st["nodes"] != float64(5) {
		t.Fatalf("stats through the listener: %d %v", resp.StatusCode, st)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
}

// TestMCPStreamableHTTPFresh runs the freshness battery over streamable
// HTTP against a writable server: writes through write_batch, saved
// answers through answers_save and answers_refresh; then the memory
// battery (remember, correct, retract read back with recall and why).
func TestMCPStreamableHTTPFresh(t *testing.T) {
	s := testdb.New(t)
	h, err := server.Handler(tools.New(s.DB, tools.Options{Writer: s.DB}), server.Config{}, true)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mcpcheck.Fresh(t, cs, s, mcpcheck.WriteBatch(cs), true)
	mcpcheck.Memory(t, cs, s)
}
