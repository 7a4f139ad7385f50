package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrorKind classifies a failed call.
type ErrorKind string

const (
	// KindHTTP: the server answered with an HTTP error status.
	KindHTTP ErrorKind = "http"
	// KindConnection: no HTTP response (refused, reset, DNS, TLS).
	KindConnection ErrorKind = "connection"
	// KindTimeout: an attempt exceeded Config.Timeout.
	KindTimeout ErrorKind = "timeout"
	// KindCanceled: the caller's context ended.
	KindCanceled ErrorKind = "canceled"
	// KindBadResponse: a 2xx response that is not a usable chat completion.
	KindBadResponse ErrorKind = "bad_response"
)

// Error is the error Complete returns for a failed call. It says what
// happened, where, after how many attempts, and what to check.
type Error struct {
	Kind     ErrorKind
	Status   int    // HTTP status of the last attempt; 0 when there was none
	Endpoint string // the chat completions URL
	Model    string
	Attempts int    // HTTP requests sent for this call
	Body     string // start of the last error response body
	Err      error  // underlying error, if any

	raw string // the whole (bounded) error body, for classification
}

// Retryable reports whether the failure kind is one the client retries
// (429, 5xx, timeouts and connection errors).
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindConnection, KindTimeout:
		return true
	case KindHTTP:
		return e.Status == 429 || e.Status >= 500
	}
	return false
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm: POST ")
	b.WriteString(e.Endpoint)
	b.WriteString(": ")
	switch e.Kind {
	case KindHTTP:
		fmt.Fprintf(&b, "HTTP %d", e.Status)
	case KindTimeout:
		b.WriteString("timed out")
	case KindConnection:
		b.WriteString("connection failed")
	case KindCanceled:
		b.WriteString("canceled")
	case KindBadResponse:
		b.WriteString("unusable response")
	}
	fmt.Fprintf(&b, " after %d attempt", e.Attempts)
	if e.Attempts != 1 {
		b.WriteString("s")
	}
	if e.Body != "" {
		fmt.Fprintf(&b, ": %s", e.Body)
	} else if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if h := e.hint(); h != "" {
		b.WriteString(" (")
		b.WriteString(h)
		b.WriteString(")")
	}
	return b.String()
}

func (e *Error) hint() string {
	switch e.Kind {
	case KindConnection:
		return "check that the server is running and that --api-base or " + EnvBaseURL + " points at it"
	case KindTimeout:
		return "the server did not answer within Config.Timeout; check that it is not overloaded, or raise the timeout"
	case KindCanceled:
		return ""
	case KindBadResponse:
		return "check that the endpoint speaks the OpenAI chat completions API"
	}
	switch {
	case e.Status == 401 || e.Status == 403:
		return "check the API key: --api-key, " + EnvAPIKey + " or " + EnvOpenAIAPIKey
	case e.Status == 404:
		return fmt.Sprintf("check the base URL (does it need a /v1 suffix?) and that model %q is served (%s, %s)", e.Model, EnvBaseURL, EnvModel)
	case e.Status == 429:
		return "rate limited: lower the request rate or raise Config.MaxRetries"
	case e.Status >= 500:
		return "server error: check the server's logs and that the model is loaded"
	case e.Status >= 400:
		return "the server rejected the request; check the model name, max tokens and structured-output mode (" + EnvStructuredOutput + ")"
	}
	return ""
}

// bodySnippet trims an error body for messages. From a JSON body it takes
// the message: error.message, error (a string), message or detail.
func bodySnippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	var j map[string]any
	if json.Unmarshal(b, &j) == nil {
		if e, ok := j["error"].(map[string]any); ok {
			if m, ok := e["message"].(string); ok && m != "" {
				s = m
			}
		} else if m, ok := j["error"].(string); ok && m != "" {
			s = m
		} else if m, ok := j["message"].(string); ok && m != "" {
			s = m
		} else if m, ok := j["detail"].(string); ok && m != "" {
			s = m
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	const max = 300
	if len(s) > max {
		// cut on a rune boundary
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// isTimeout reports whether err is a deadline error.
func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.Is(err, errDeadline) || (errors.As(err, &te) && te.Timeout())
}

// retryAfter parses Retry-After (seconds or an HTTP date) and the
// retry-after-ms extension; ok is false when neither is present or valid.
func retryAfter(ms, ra string, now time.Time) (time.Duration, bool) {
	if ms != "" {
		var f float64
		if _, err := fmt.Sscanf(ms, "%g", &f); err == nil && f >= 0 {
			return time.Duration(f * float64(time.Millisecond)), true
		}
	}
	if ra == "" {
		return 0, false
	}
	var secs float64
	if _, err := fmt.Sscanf(ra, "%g", &secs); err == nil && secs >= 0 && !strings.ContainsAny(ra, ",:") {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := parseHTTPDate(ra); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}
