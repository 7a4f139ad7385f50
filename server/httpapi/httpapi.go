// Package httpapi serves the tool catalog (package tools) as a JSON API:
//
//	GET  /v1/tools             every tool: name, description, input and output schemas
//	POST /v1/{tool}            call a tool (an operator name, validate_plan, run_plan,
//	                           verify_answer, ask, stats, trace_verify, trace_check,
//	                           trace_refresh, answers_list, answers_check and, with
//	                           writes, write_batch, erase, answers_save, answers_refresh);
//	                           the body is the tool's arguments as one JSON object
//	GET  /v1/stats             the stats tool without a body
//	GET  /v1/traces/{digest}   a trace this server produced
//	GET  /v1/openapi.json      the OpenAPI document (package openapi)
//
// A success is 200 with the tool's output. A refusal is {"error": {code,
// message, violations}} with a status that says whose fault it is: 400 bad
// arguments or JSON, 401 a missing or wrong token, 403 a write on a
// read-only server, 404 an unknown tool, uid or trace, 409 a trace that
// does not reproduce, 405 a tool called without POST (Allow says which
// methods), 413 a body over the limit, 415 a body that is not
// application/json, 422 a rejected plan or batch or a call over the cost
// bound, 503 too many heavy calls or past the deadline. Every refusal is
// that JSON, whoever writes it (JSONErrors rewrites the router's and the
// MCP transport's plain-text errors), and the error object also carries
// the first violation's rule, path and hint.
package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/plan"
	"github.com/tgms-go/tgms/server/tools"
)

// DefaultMaxBody is the request body limit.
const DefaultMaxBody = 4 << 20

// Options configure the API.
type Options struct {
	// MaxBody bounds a request body in bytes; 0 means DefaultMaxBody.
	MaxBody int64
	// OpenAPI is served at /v1/openapi.json when set.
	OpenAPI []byte
}

// API is the /v1 handler.
type API struct {
	svc *tools.Service
	opt Options
	mux *http.ServeMux
}

// New builds the API over a service.
func New(svc *tools.Service, opt Options) *API {
	if opt.MaxBody <= 0 {
		opt.MaxBody = DefaultMaxBody
	}
	a := &API{svc: svc, opt: opt, mux: http.NewServeMux()}
	a.mux.HandleFunc("GET /v1/tools", a.listTools)
	a.mux.HandleFunc("POST /v1/{tool}", a.callTool)
	a.mux.HandleFunc("GET /v1/stats", a.callTool)
	a.mux.HandleFunc("GET /v1/traces/{digest}", a.getTrace)
	a.mux.HandleFunc("GET /v1/openapi.json", a.openAPI)
	a.mux.HandleFunc("/v1/{tool}", a.wrongMethod)
	a.mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeFailure(w, failure(http.StatusNotFound, "E_NOT_FOUND", "request.route", r.URL.Path, "see GET /v1/tools and GET /v1/openapi.json", "no route %s %s", r.Method, r.URL.Path))
	})
	return a
}

// wrongMethod answers a tool called with another method than POST: 405
// with the methods it takes (404 for no such tool).
func (a *API) wrongMethod(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("tool")
	known := slices.Contains(tools.WriteTools, name)
	for _, t := range a.svc.Tools() {
		known = known || t.Name == name
	}
	if !known {
		writeFailure(w, failure(http.StatusNotFound, "E_NOT_FOUND", "request.route", r.URL.Path, "see GET /v1/tools and GET /v1/openapi.json", "no route %s %s", r.Method, r.URL.Path))
		return
	}
	allow := "POST"
	if name == "stats" {
		allow = "GET, POST"
	}
	w.Header().Set("Allow", allow)
	writeFailure(w, failure(http.StatusMethodNotAllowed, "E_METHOD", "request.method", r.URL.Path, "call a tool with POST and its arguments as a JSON object",
		"%s takes %s, not %s", r.URL.Path, allow, r.Method))
}

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

// ToolInfo is one entry of GET /v1/tools.
type ToolInfo struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Input       tools.Schema `json:"input_schema"`
	Output      tools.Schema `json:"output_schema"`
	Operator    bool         `json:"operator"`
}

func (a *API) listTools(w http.ResponseWriter, _ *http.Request) {
	var out []ToolInfo
	for _, t := range a.svc.Tools() {
		out = append(out, ToolInfo{t.Name, t.Description, t.Input, t.Output, t.Operator != nil})
	}
	writeJSON(w, http.StatusOK, map[string]any{"tools": out})
}

func (a *API) callTool(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("tool")
	args := map[string]any{}
	if r.Method == http.MethodGet {
		name = "stats"
	} else {
		var f *tools.Failure
		if args, f = a.readArgs(w, r); f != nil {
			writeFailure(w, f)
			return
		}
	}
	out, f := a.svc.Call(r.Context(), name, args)
	if f != nil {
		writeFailure(w, f)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// readArgs reads the body: application/json, at most MaxBody bytes, one
// JSON object (integers exact).
func (a *API) readArgs(w http.ResponseWriter, r *http.Request) (map[string]any, *tools.Failure) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return nil, failure(http.StatusUnsupportedMediaType, "E_SCHEMA", "request.content_type", "", "send Content-Type: application/json", "the body must be application/json, not %q", ct)
		}
	} else if r.ContentLength != 0 {
		return nil, failure(http.StatusUnsupportedMediaType, "E_SCHEMA", "request.content_type", "", "send Content-Type: application/json", "the body must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.opt.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, failure(http.StatusRequestEntityTooLarge, "E_LIMIT", "request.size", "", "send less; the limit is set with --max-body", "the body is over the %d-byte limit", a.opt.MaxBody)
	case err != nil:
		return nil, failure(http.StatusBadRequest, "E_SCHEMA", "request.json", "", "", "reading the body: %v", err)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return map[string]any{}, nil
	}
	v, err := canon.Parse(body)
	if err != nil {
		return nil, failure(http.StatusBadRequest, "E_SCHEMA", "request.json", "", "send the tool's arguments as one JSON object", "the body is not valid JSON: %v", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, failure(http.StatusBadRequest, "E_SCHEMA", "request.json", "", "send the tool's arguments as one JSON object", "the body must be a JSON object, got %s", canon.Kind(v))
	}
	return m, nil
}

var digestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (a *API) getTrace(w http.ResponseWriter, r *http.Request) {
	d := r.PathValue("digest")
	if !digestRE.MatchString(d) {
		writeFailure(w, failure(http.StatusBadRequest, "E_INVALID_ARG", "trace.digest", "/digest", "a trace digest is 64 lowercase hex digits", "%q is not a trace digest", d))
		return
	}
	tr, ok := a.svc.Traces().Get(d)
	if !ok {
		writeFailure(w, failure(http.StatusNotFound, tools.ETrace, "trace.unknown", "/digest", "run the plan again; the server keeps its latest traces in memory", "no trace %s on this server", d))
		return
	}
	writeJSON(w, http.StatusOK, tr)
}

func (a *API) openAPI(w http.ResponseWriter, _ *http.Request) {
	if a.opt.OpenAPI == nil {
		writeFailure(w, failure(http.StatusNotFound, "E_NOT_FOUND", "request.route", "", "", "no OpenAPI document"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(a.opt.OpenAPI)
}

func failure(status int, code, rule, path, hint, format string, args ...any) *tools.Failure {
	msg := fmt.Sprintf(format, args...)
	return &tools.Failure{Code: code, Message: msg, Status: status, Violations: []plan.Violation{{Code: code, Rule: rule, Path: path, Message: msg, Hint: hint}}}
}

func writeFailure(w http.ResponseWriter, f *tools.Failure) {
	status := f.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	if f.Violations == nil {
		f.Violations = []plan.Violation{}
	}
	writeJSON(w, status, map[string]any{"error": f})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := tools.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"E_INTERNAL","message":"encoding the response failed","violations":[]}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// RequireToken wraps h so that every request must carry "Authorization:
// Bearer <token>". The comparison is constant-time (over SHA-256 digests,
// so the token's length does not leak either).
func RequireToken(token string, h http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearer(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="tgms"`)
			// Decided on the headers alone: the body is never read, and
			// closing the connection keeps the server from draining it
			// before it answers.
			w.Header().Set("Connection", "close")
			writeFailure(w, failure(http.StatusUnauthorized, "E_AUTH", "request.token", "", "send Authorization: Bearer <the --token the server was started with>", "missing or wrong bearer token"))
			hangUp(w)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hangUp sends what was written and ends the connection without reading
// the request body (the server would otherwise drain up to 256 KiB of it,
// for as long as the client takes): it half-closes, so that the client
// reads the answer, and closes a moment later.
func hangUp(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	conn, _, err := rc.Hijack()
	if err != nil {
		return // HTTP/2, or a recorder: Connection: close does it
	}
	if tc, ok := conn.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	go func() {
		conn.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		io.Copy(io.Discard, io.LimitReader(conn, 1<<20))
		conn.Close()
	}()
}

// bearer reads the credentials of an Authorization header with the
// Bearer scheme, whose name is case-insensitive (RFC 7235 §2.1).
func bearer(header string) (string, bool) {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	cred = strings.TrimSpace(cred)
	return cred, cred != ""
}

// LoopbackHosts wraps h so that requests whose Host header is not a
// loopback name are refused (a guard against DNS rebinding when the
// server listens on loopback only).
func LoopbackHosts(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if i := strings.LastIndex(host, ":"); i >= 0 && !strings.HasSuffix(host, "]") {
			host = host[:i]
		}
		host = strings.Trim(host, "[]")
		if host != "localhost" && host != "127.0.0.1" && host != "::1" {
			writeFailure(w, failure(http.StatusForbidden, "E_AUTH", "request.host", "", "open the console at http://127.0.0.1:<port>/", "host %q is not a loopback name; this server only answers loopback requests", r.Host))
			return
		}
		h.ServeHTTP(w, r)
	})
}
