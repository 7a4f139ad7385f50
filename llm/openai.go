package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

var (
	errDeadline   = context.DeadlineExceeded
	parseHTTPDate = http.ParseTime
)

// format levels, in fallback order.
type level int

const (
	levelSchema level = iota
	levelObject
	levelText
)

func (l level) String() string {
	switch l {
	case levelSchema:
		return StructuredJSONSchema
	case levelObject:
		return StructuredJSONObject
	}
	return "text"
}

// Totals are a client's running counts.
type Totals struct {
	Calls            int64 // Complete calls
	Succeeded        int64 // calls that returned a response
	Requests         int64 // HTTP requests sent
	Retries          int64 // requests repeated after a transient failure
	Fallbacks        int64 // structured-output downgrades
	PromptTokens     int64
	CompletionTokens int64
	TotalTokens      int64
}

// OpenAI is a Client for any OpenAI-compatible chat completions endpoint,
// built on the official openai-go SDK with the SDK's own retries disabled:
// retries, backoff, timeouts and structured-output fallback are this type's
// policy. It is safe for concurrent use.
type OpenAI struct {
	cfg      Config
	sdk      openai.Client
	endpoint string

	// sleep waits between retries; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time

	mu     sync.Mutex
	rng    *rand.Rand
	start  level // first format to try when a schema is given (auto mode)
	totals Totals
}

var _ Client = (*OpenAI)(nil)
var _ Identifier = (*OpenAI)(nil)

// New validates cfg, applies defaults and returns a client. The error names
// every missing or invalid setting and the variable or field that sets it.
func New(cfg Config) (*OpenAI, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
		option.WithHTTPClient(&http.Client{}),
	}
	for k, v := range cfg.Extra {
		opts = append(opts, option.WithJSONSet(k, v))
	}
	seed := uint64(*cfg.Seed)
	c := &OpenAI{
		cfg:      cfg,
		sdk:      openai.NewClient(opts...),
		endpoint: strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		sleep:    sleepCtx,
		now:      time.Now,
		rng:      rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
	if cfg.StructuredOutput == StructuredJSONObject {
		c.start = levelObject
	}
	return c, nil
}

// Config returns the effective configuration (defaults applied).
func (c *OpenAI) Config() Config { return c.cfg }

// Endpoint returns the chat completions URL the client posts to.
func (c *OpenAI) Endpoint() string { return c.endpoint }

// Identity implements Identifier.
func (c *OpenAI) Identity() Identity {
	return Identity{Model: c.cfg.Model, Temperature: c.cfg.Temperature, Seed: *c.cfg.Seed, Extra: c.cfg.Extra}
}

// Totals returns the running counts. Safe for concurrent use.
func (c *OpenAI) Totals() Totals {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.totals
}

// StructuredOutput reports the response_format the client will use first
// for requests with a schema: "json_schema", "json_object" or "text". In
// auto mode it reflects what the endpoint has been found to support.
func (c *OpenAI) StructuredOutput() string {
	if c.cfg.StructuredOutput == StructuredOff {
		return levelText.String()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.start.String()
}

// Complete sends req and returns the first choice's text. See Config for
// the retry and structured-output policy; failures are *Error.
func (c *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validateRequest(req); err != nil {
		return Response{}, err
	}
	c.mu.Lock()
	c.totals.Calls++
	lv := c.start
	c.mu.Unlock()
	if req.JSONSchema == nil || c.cfg.StructuredOutput == StructuredOff {
		lv = levelText
	}
	attempts := 0
	for {
		params := c.params(req, lv)
		resp, n, err := c.send(ctx, params)
		attempts += n
		if err != nil {
			var le *Error
			if c.cfg.StructuredOutput == StructuredAuto && req.JSONSchema != nil && lv < levelText &&
				errors.As(err, &le) && rejectsFormat(le) {
				c.mu.Lock()
				if c.start <= lv {
					c.start = lv + 1
				}
				c.totals.Fallbacks++
				c.mu.Unlock()
				lv++
				continue
			}
			if errors.As(err, &le) {
				le.Attempts = attempts
			}
			return Response{}, err
		}
		if req.JSONSchema != nil {
			resp.Format = lv.String()
		}
		resp.Attempts = attempts
		c.mu.Lock()
		c.totals.Succeeded++
		c.totals.PromptTokens += resp.Usage.PromptTokens
		c.totals.CompletionTokens += resp.Usage.CompletionTokens
		c.totals.TotalTokens += resp.Usage.TotalTokens
		c.mu.Unlock()
		return resp, nil
	}
}

var formatWords = regexp.MustCompile(`(?i)response_format|json_schema|json_object|structured output|guided|unsupported|not supported`)

// rejectsFormat reports whether a failure looks like the server refusing
// the response_format we sent: a 400 or 422 whose body mentions it.
func rejectsFormat(e *Error) bool {
	return e.Kind == KindHTTP && (e.Status == 400 || e.Status == 422) && formatWords.MatchString(e.raw)
}

var schemaNameBad = regexp.MustCompile(`[^A-Za-z0-9_-]`)

func (c *OpenAI) params(req Request, lv level) openai.ChatCompletionNewParams {
	msgs := make([]openai.ChatCompletionMessageParamUnion, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			msgs[i] = openai.SystemMessage(m.Content)
		case RoleDeveloper:
			msgs[i] = openai.DeveloperMessage(m.Content)
		case RoleUser:
			msgs[i] = openai.UserMessage(m.Content)
		case RoleAssistant:
			msgs[i] = openai.AssistantMessage(m.Content)
		}
	}
	p := openai.ChatCompletionNewParams{
		Model:       shared.ChatModel(c.cfg.Model),
		Messages:    msgs,
		Temperature: openai.Float(c.cfg.Temperature),
		Seed:        openai.Int(*c.cfg.Seed),
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.JSONSchema != nil {
		switch lv {
		case levelSchema:
			name := req.SchemaName
			if name == "" {
				name = "response"
			}
			name = schemaNameBad.ReplaceAllString(name, "_")
			if len(name) > 64 {
				name = name[:64]
			}
			p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
					JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: req.JSONSchema},
				},
			}
		case levelObject:
			p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONObject: &shared.ResponseFormatJSONObjectParam{},
			}
		}
	}
	return p
}

// send performs one request with retries. It returns the number of HTTP
// requests made.
func (c *OpenAI) send(ctx context.Context, params openai.ChatCompletionNewParams) (Response, int, error) {
	maxAttempts := 1 + c.cfg.MaxRetries
	for attempt := 1; ; attempt++ {
		resp, wait, err := c.attempt(ctx, params)
		c.mu.Lock()
		c.totals.Requests++
		c.mu.Unlock()
		if err == nil {
			return resp, attempt, nil
		}
		err.Attempts = attempt
		if !err.Retryable() || attempt >= maxAttempts {
			return Response{}, attempt, err
		}
		if wait < 0 {
			wait = c.backoff(attempt)
		}
		c.mu.Lock()
		c.totals.Retries++
		c.mu.Unlock()
		if serr := c.sleep(ctx, wait); serr != nil {
			return Response{}, attempt, &Error{Kind: KindCanceled, Endpoint: c.endpoint, Model: c.cfg.Model,
				Attempts: attempt, Err: fmt.Errorf("waiting to retry after %v: %w", err, serr)}
		}
	}
}

// attempt sends one HTTP request. wait is the server-requested delay before
// a retry (Retry-After), or -1 when the server gave none.
func (c *OpenAI) attempt(ctx context.Context, params openai.ChatCompletionNewParams) (Response, time.Duration, *Error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var raw *http.Response
	comp, err := c.sdk.Chat.Completions.New(actx, params, option.WithResponseInto(&raw))
	mk := func(kind ErrorKind, err error) *Error {
		return &Error{Kind: kind, Endpoint: c.endpoint, Model: c.cfg.Model, Err: err}
	}
	if err == nil {
		if comp == nil || len(comp.Choices) == 0 {
			return Response{}, -1, mk(KindBadResponse, errors.New("the response has no choices"))
		}
		return Response{
			Text:         comp.Choices[0].Message.Content,
			Model:        comp.Model,
			FinishReason: comp.Choices[0].FinishReason,
			Usage: Usage{
				PromptTokens:     comp.Usage.PromptTokens,
				CompletionTokens: comp.Usage.CompletionTokens,
				TotalTokens:      comp.Usage.TotalTokens,
			},
		}, -1, nil
	}
	if ctx.Err() != nil {
		return Response{}, -1, mk(KindCanceled, ctx.Err())
	}
	if actx.Err() != nil || (raw == nil && isTimeout(err)) {
		return Response{}, -1, mk(KindTimeout, fmt.Errorf("no answer within %v: %w", c.cfg.Timeout, err))
	}
	if raw == nil {
		return Response{}, -1, mk(KindConnection, err)
	}
	if raw.StatusCode < 400 {
		return Response{}, -1, mk(KindBadResponse, fmt.Errorf("HTTP %d: %w", raw.StatusCode, err))
	}
	e := mk(KindHTTP, err)
	e.Status = raw.StatusCode
	if raw.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(raw.Body, 64<<10))
		e.Body = bodySnippet(b)
		e.raw = string(b)
	}
	wait := time.Duration(-1)
	if d, ok := retryAfter(raw.Header.Get("Retry-After-Ms"), raw.Header.Get("Retry-After"), c.now()); ok {
		wait = min(d, MaxRetryAfter)
	}
	return Response{}, wait, e
}

// backoff is the delay before retry number attempt (1-based): Backoff·2^(attempt-1),
// capped at MaxBackoff, then jittered into [d/2, d) from the seeded source.
func (c *OpenAI) backoff(attempt int) time.Duration {
	d := c.cfg.Backoff
	for i := 1; i < attempt && d < MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, MaxBackoff)
	half := d / 2
	if half <= 0 {
		return d
	}
	c.mu.Lock()
	j := time.Duration(c.rng.Int64N(int64(half)))
	c.mu.Unlock()
	return half + j
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
