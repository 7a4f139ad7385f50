package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/tools"
)

// serve runs server.Run with cfg on a loopback port and returns the
// host:port it listens on.
func serve(t *testing.T, cfg server.Config) string {
	t.Helper()
	s := testdb.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	lines := make(chan string, 4)
	done := make(chan error, 1)
	cfg.HTTP = "127.0.0.1:0"
	cfg.Logf = func(format string, args ...any) { lines <- fmt.Sprintf(format, args...) }
	go func() { done <- server.Run(ctx, tools.New(s.DB, tools.Options{}), cfg) }()
	t.Cleanup(func() { cancel(); <-done })
	m := regexp.MustCompile(`API http://(127\.0\.0\.1:\d+)/v1/`).FindStringSubmatch(<-lines)
	if m == nil {
		t.Fatal("no address logged")
	}
	return m[1]
}

// exchange writes raw bytes on a new connection and returns what the
// server answers (or "" on a close without an answer) and how long it
// took, within limit.
func exchange(t *testing.T, addr, raw string, limit time.Duration) (string, time.Duration) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(start.Add(limit))
	b, _ := io.ReadAll(c)
	return string(b), time.Since(start)
}

func post(path, headers, body string, length int) string {
	return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n%s", path, length, headers, body)
}

// TestSlowRequestsAreCutOff: a body that does not arrive within the read
// timeout, and headers that do not arrive within the header timeout, end
// the connection (the body with a JSON 400) instead of holding it.
func TestSlowRequestsAreCutOff(t *testing.T) {
	addr := serve(t, server.Config{ReadTimeout: 300 * time.Millisecond, ReadHeaderTimeout: 200 * time.Millisecond})
	got, took := exchange(t, addr, post("/v1/stats", "", `{"a":`, 100), 5*time.Second)
	if took > 3*time.Second || !strings.HasPrefix(got, "HTTP/1.1 400") || !strings.Contains(got, `"rule":"request.json"`) {
		t.Errorf("a slow body: after %v the server said %q", took, got)
	}
	got, took = exchange(t, addr, "GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n", 5*time.Second)
	if took > 3*time.Second || strings.Contains(got, "200 OK") {
		t.Errorf("slow headers: after %v the server said %q", took, got)
	}
	// A request in time is served.
	got, _ = exchange(t, addr, "GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5*time.Second)
	if !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Errorf("a prompt request: %q", got)
	}
}

// TestIdleConnectionsClose: a keep-alive connection left idle is closed
// after the idle timeout.
func TestIdleConnectionsClose(t *testing.T) {
	addr := serve(t, server.Config{IdleTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("first request: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	start := time.Now()
	c.SetReadDeadline(start.Add(5 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("the idle connection: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("closed after %v", took)
	}
}

// TestConnectionCap: with the cap reached, a further connection is not
// served until one closes.
func TestConnectionCap(t *testing.T) {
	addr := serve(t, server.Config{MaxConns: 2})
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	time.Sleep(100 * time.Millisecond)  // both accepted
	third, err := net.Dial("tcp", addr) // the kernel's backlog takes it
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	io.WriteString(third, "GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	third.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, err := third.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("a third connection was served past a cap of 2 (%d bytes, %v)", n, err)
	}
	held[0].Close()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, _ := io.ReadAll(third)
	if !strings.HasPrefix(string(b), "HTTP/1.1 200") {
		t.Fatalf("after a slot freed: %q", b)
	}
}

// TestTokenCheckedBeforeTheBody: a wrong token is answered 401 on the
// headers, at once, while the announced body never comes; the
// connection is closed after it.
func TestTokenCheckedBeforeTheBody(t *testing.T) {
	const token = "0123456789abcdef-token"
	addr := serve(t, server.Config{Token: token, ReadTimeout: 20 * time.Second})
	for _, auth := range []string{"", "Authorization: Bearer wrong-token-0123456789\r\n"} {
		got, took := exchange(t, addr, post("/v1/stats", auth, "", 200_000), 10*time.Second)
		if !strings.HasPrefix(got, "HTTP/1.1 401") || took > 2*time.Second {
			t.Errorf("%q: after %v: %q", auth, took, got)
		}
		if !strings.Contains(strings.ToLower(got), "connection: close") {
			t.Errorf("%q: the connection is kept for the body: %q", auth, got)
		}
	}
	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		got, _ := exchange(t, addr, post("/v1/stats", "Authorization: "+scheme+" "+token+"\r\nConnection: close\r\n", "{}", 2), 5*time.Second)
		if !strings.HasPrefix(got, "HTTP/1.1 200") {
			t.Errorf("scheme %q: %q", scheme, got)
		}
	}
}

// TestHTTPRefusalsAreJSON: every refusal, whoever writes it (the API, the
// router, the MCP transport, the cross-origin and host guards), is the
// JSON {"error": {code, message, rule, path, hint, violations}}; a GET on
// a tool is 405 with Allow: POST.
func TestHTTPRefusalsAreJSON(t *testing.T) {
	s := testdb.New(t)
	const token = "0123456789abcdef-token"
	h, err := server.Handler(tools.New(s.DB, tools.Options{}), server.Config{Token: token}, true)
	if err != nil {
		t.Fatal(err)
	}
	auth := "Bearer " + token
	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		rule, allow              string
	}{
		{"GET on a tool", "GET", "/v1/run_plan", "", nil, 405, "request.method", "POST"},
		{"DELETE on an operator", "DELETE", "/v1/temporal_reachability", "", nil, 405, "request.method", "POST"},
		{"PUT on stats", "PUT", "/v1/stats", "", nil, 405, "request.method", "GET, POST"},
		{"GET on a write tool", "GET", "/v1/write_batch", "", nil, 405, "request.method", "POST"},
		{"GET on no tool", "GET", "/v1/no_such_tool", "", nil, 404, "request.route", ""},
		{"cross-origin", "POST", "/v1/stats", "{}", map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403, "request.origin", ""},
		{"foreign host", "GET", "/v1/stats", "", map[string]string{"Host": "attacker.example"}, 403, "request.host", ""},
		{"no token", "GET", "/v1/stats", "", map[string]string{"Authorization": ""}, 401, "request.token", ""},
		{"MCP without session", "GET", "/mcp", "", map[string]string{"Accept": "text/event-stream"}, 400, "request.http", ""},
		{"MCP not JSON", "POST", "/mcp", "{not json", map[string]string{"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}, 400, "request.http", ""},
		{"MCP wrong method", "PUT", "/mcp", "", nil, 405, "request.method", ""},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		req.Host = "127.0.0.1:7410"
		req.Header.Set("Authorization", auth)
		for k, v := range c.header {
			switch {
			case k == "Host":
				req.Host = v
			case v == "":
				req.Header.Del(k)
			default:
				req.Header.Set(k, v)
			}
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct {
			Error map[string]any `json:"error"`
		}
		err := json.Unmarshal(rec.Body.Bytes(), &body)
		if rec.Code != c.status || err != nil || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			t.Errorf("%s: %d %q %s, want %d and JSON", c.name, rec.Code, rec.Header().Get("Content-Type"), rec.Body, c.status)
			continue
		}
		for _, k := range []string{"code", "message", "rule", "path", "hint", "violations"} {
			if _, ok := body.Error[k]; !ok {
				t.Errorf("%s: the error has no %q: %s", c.name, k, rec.Body)
			}
		}
		if body.Error["rule"] != c.rule {
			t.Errorf("%s: rule %v, want %s", c.name, body.Error["rule"], c.rule)
		}
		if c.allow != "" && rec.Header().Get("Allow") != c.allow {
			t.Errorf("%s: Allow %q, want %q", c.name, rec.Header().Get("Allow"), c.allow)
		}
	}
}
