package httpapi

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strings"
)

// statusFailures name what a bare HTTP status means, for refusals written
// by code that does not speak the API's JSON (the router, the MCP SDK's
// transport, the cross-origin guard).
var statusFailures = map[int]struct{ code, rule, hint string }{
	http.StatusBadRequest:            {"E_SCHEMA", "request.http", "see the message; MCP clients send JSON-RPC with Content-Type: application/json"},
	http.StatusUnauthorized:          {"E_AUTH", "request.token", "send Authorization: Bearer <the --token the server was started with>"},
	http.StatusForbidden:             {"E_AUTH", "request.forbidden", ""},
	http.StatusNotFound:              {"E_NOT_FOUND", "request.route", "see GET /v1/tools and GET /v1/openapi.json; MCP is at /mcp"},
	http.StatusMethodNotAllowed:      {"E_METHOD", "request.method", "use a method the Allow header lists"},
	http.StatusNotAcceptable:         {"E_SCHEMA", "request.accept", "MCP clients accept application/json and text/event-stream"},
	http.StatusRequestEntityTooLarge: {"E_LIMIT", "request.size", "send less; the limit is set with --max-body"},
	http.StatusUnsupportedMediaType:  {"E_SCHEMA", "request.content_type", "send Content-Type: application/json"},
}

// JSONErrors wraps h so that every refusal it writes (status 400 and up)
// has the API's JSON body {"error": {code, message, rule, path, hint,
// violations}}: a plain-text error from the router or the MCP transport is
// rewritten, its text kept as the message. JSON bodies pass unchanged.
func JSONErrors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jw := &jsonErrorWriter{ResponseWriter: w, path: r.URL.Path}
		h.ServeHTTP(jw, r)
		jw.finish()
	})
}

type jsonErrorWriter struct {
	http.ResponseWriter
	path    string
	status  int // a plain-text refusal being captured
	text    strings.Builder
	started bool
}

func (w *jsonErrorWriter) WriteHeader(status int) {
	if w.started || w.status != 0 {
		return
	}
	ct := w.Header().Get("Content-Type")
	if status >= 400 && !strings.HasPrefix(ct, "application/json") {
		w.status = status
		return
	}
	if status >= 200 {
		w.started = true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *jsonErrorWriter) Write(b []byte) (int, error) {
	if w.status != 0 {
		if room := 512 - w.text.Len(); room > 0 {
			w.text.Write(b[:min(len(b), room)])
		}
		return len(b), nil
	}
	w.started = true
	return w.ResponseWriter.Write(b)
}

func (w *jsonErrorWriter) finish() {
	if w.status == 0 {
		return
	}
	sf, ok := statusFailures[w.status]
	if !ok {
		sf.code, sf.rule = "E_INTERNAL", "request.http"
		if w.status < 500 {
			sf.code = "E_SCHEMA"
		}
	}
	msg := strings.TrimSpace(w.text.String())
	if msg == "" {
		msg = http.StatusText(w.status)
	}
	h := w.Header()
	h.Del("Content-Length")
	writeFailure(w.ResponseWriter, failure(w.status, sf.code, sf.rule, w.path, sf.hint, "%s", msg))
}

// Flush passes streaming (MCP's event streams) through.
func (w *jsonErrorWriter) Flush() {
	if w.status == 0 {
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			w.started = true
			f.Flush()
		}
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *jsonErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack is the underlying writer's, when it has one.
func (w *jsonErrorWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if hj, ok := w.ResponseWriter.(http.Hijacker); ok {
		return hj.Hijack()
	}
	return nil, nil, errors.New("hijacking is not supported")
}

// CrossOrigin refuses cross-origin browser requests that would change
// state (http.CrossOriginProtection), with a JSON refusal.
func CrossOrigin(h http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeFailure(w, failure(http.StatusForbidden, "E_AUTH", "request.origin", r.URL.Path,
			"call the API from the console this server serves, or from a non-browser client",
			"cross-origin request refused (Origin %q, Sec-Fetch-Site %q)", r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site")))
	}))
	return p.Handler(h)
}
