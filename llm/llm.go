package llm

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Roles accepted in a Message.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of a chat conversation.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat completion request. Settings that are fixed for a
// client (model, temperature, seed) live in Config, not here.
type Request struct {
	// Messages is the conversation, oldest first. It must not be empty.
	Messages []Message
	// JSONSchema, when set, asks for structured output conforming to it
	// (see Config.StructuredOutput for how it is sent). The prompt should
	// still describe the expected JSON: servers that fall back to
	// json_object or plain text do not see the schema.
	JSONSchema map[string]any
	// SchemaName names the schema in response_format.json_schema.name;
	// default "response". Characters outside [A-Za-z0-9_-] become '_'.
	SchemaName string
	// MaxTokens bounds the completion length (sent as max_tokens); 0 leaves
	// it to the server.
	MaxTokens int
}

// Usage is the token count the server reported for one call.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// Response is the outcome of one successful Complete.
type Response struct {
	// Text is the assistant message content, unmodified (see ExtractJSON).
	Text string
	// Usage is what the server reported for the successful request.
	Usage Usage
	// Model is the model name the server reported.
	Model string
	// FinishReason is the server's finish_reason: "stop", or "length" when
	// MaxTokens cut the answer short.
	FinishReason string
	// Attempts counts the HTTP requests this call sent: 1 when the first
	// one succeeded, more after retries or structured-output fallbacks,
	// 0 when the response came from a cache.
	Attempts int
	// Cached reports that the response was served by Cached without a call.
	Cached bool
	// Format is the response_format the successful request used:
	// "json_schema", "json_object", "text" (a schema was given but the
	// endpoint supports neither, or StructuredOutput is "off"), or "" when
	// the request carried no schema.
	Format string
}

// Client completes chat conversations. Implementations must be safe for
// concurrent use.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Identity is what, besides the Request, determines a client's output. The
// response cache keys on it.
type Identity struct {
	Model       string
	Temperature float64
	Seed        int64
	// Extra holds server-specific body fields (Config.Extra), if any.
	Extra map[string]any
}

// Identifier is implemented by clients that can state their Identity
// (*OpenAI does). Cached uses it to build cache keys.
type Identifier interface {
	Identity() Identity
}

// Structured output modes for Config.StructuredOutput.
const (
	StructuredAuto       = "auto"
	StructuredJSONSchema = "json_schema"
	StructuredJSONObject = "json_object"
	StructuredOff        = "off"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultTimeout    = 120 * time.Second
	DefaultMaxRetries = 4
	DefaultBackoff    = 500 * time.Millisecond
	// MaxBackoff caps the exponential backoff between retries.
	MaxBackoff = 30 * time.Second
	// MaxRetryAfter caps a server's Retry-After; longer waits are shortened
	// to it.
	MaxRetryAfter = 60 * time.Second
	// EmptyAPIKey is sent when no key is configured; local servers (vLLM,
	// Ollama, llama.cpp) accept any key.
	EmptyAPIKey = "EMPTY"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvBaseURL          = "TGMS_LLM_BASE_URL"
	EnvModel            = "TGMS_LLM_MODEL"
	EnvAPIKey           = "TGMS_LLM_API_KEY"
	EnvStructuredOutput = "TGMS_LLM_STRUCTURED_OUTPUT"
	EnvOpenAIBaseURL    = "OPENAI_BASE_URL"
	EnvOpenAIAPIKey     = "OPENAI_API_KEY"
)

// Config configures an OpenAI-compatible client. Zero values select the
// defaults noted on each field.
type Config struct {
	// BaseURL is the API root, the part before /chat/completions, e.g.
	// http://localhost:8000/v1 (vLLM), http://localhost:11434/v1 (Ollama),
	// http://localhost:8080/v1 (llama.cpp server), https://api.openai.com/v1.
	// Required.
	BaseURL string
	// Model is the served model name, e.g. Qwen/Qwen3-8B. Required.
	Model string
	// APIKey is sent as a bearer token; empty sends "EMPTY".
	APIKey string
	// Temperature is sent on every call; default 0.
	Temperature float64
	// Seed is sent on every call; nil sends 0.
	Seed *int64
	// Timeout bounds each HTTP request (each attempt); default 120 s.
	Timeout time.Duration
	// MaxRetries is the number of retries after a 429, a 5xx, a timeout or
	// a connection error; 0 selects the default 4, a negative value
	// disables retries.
	MaxRetries int
	// Backoff is the base delay before the first retry, doubled for each
	// further one up to MaxBackoff, with jitter from a source seeded by Seed
	// (so delays are reproducible); default 500 ms.
	Backoff time.Duration
	// StructuredOutput says how Request.JSONSchema is sent: "auto" (the
	// default) tries response_format json_schema, then json_object, then
	// plain text, as the endpoint rejects each, and remembers the result;
	// "json_schema" and "json_object" use only that format and fail if it is
	// rejected; "off" never sends response_format.
	StructuredOutput string
	// Extra adds top-level fields to every request body, for server knobs
	// such as vLLM's {"chat_template_kwargs": {"enable_thinking": false}}.
	// Keys the client sets itself must not appear here.
	Extra map[string]any
}

// ConfigFromEnv builds a Config from the environment:
//
//	BaseURL           TGMS_LLM_BASE_URL, else OPENAI_BASE_URL
//	Model             TGMS_LLM_MODEL
//	APIKey            TGMS_LLM_API_KEY, else OPENAI_API_KEY, else "" (sent as "EMPTY")
//	StructuredOutput  TGMS_LLM_STRUCTURED_OUTPUT (auto|json_schema|json_object|off)
//
// A variable that is set to the empty string counts as unset. Other fields
// keep their zero values (defaults); New reports what is missing.
func ConfigFromEnv() Config {
	return configFromLookup(os.LookupEnv)
}

func configFromLookup(lookup func(string) (string, bool)) Config {
	first := func(names ...string) string {
		for _, n := range names {
			if v, ok := lookup(n); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	return Config{
		BaseURL:          first(EnvBaseURL, EnvOpenAIBaseURL),
		Model:            first(EnvModel),
		APIKey:           first(EnvAPIKey, EnvOpenAIAPIKey),
		StructuredOutput: first(EnvStructuredOutput),
	}
}

// reservedKeys are body fields the client sets itself.
var reservedKeys = map[string]bool{
	"model": true, "messages": true, "temperature": true, "seed": true,
	"max_tokens": true, "response_format": true, "stream": true,
}

// withDefaults validates cfg and fills in defaults. The error lists every
// problem found, each with what sets the field.
func (cfg Config) withDefaults() (Config, error) {
	var probs []string
	cfg.BaseURL = strings.TrimSpace(cfg.BaseURL)
	cfg.Model = strings.TrimSpace(cfg.Model)
	if cfg.BaseURL == "" {
		probs = append(probs, "no base URL: set "+EnvBaseURL+" (or "+EnvOpenAIBaseURL+
			"), the --api-base flag or Config.BaseURL to the API root, e.g. http://localhost:8000/v1 for vLLM, "+
			"http://localhost:11434/v1 for Ollama, https://api.openai.com/v1")
	} else if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		probs = append(probs, fmt.Sprintf("base URL %q is not an http(s) URL with a host: fix %s (or %s), --api-base or Config.BaseURL, e.g. http://localhost:8000/v1",
			cfg.BaseURL, EnvBaseURL, EnvOpenAIBaseURL))
	}
	if cfg.Model == "" {
		probs = append(probs, "no model: set "+EnvModel+", the --model flag or Config.Model to the served model name, e.g. Qwen/Qwen3-8B (vLLM) or qwen3:8b (Ollama)")
	}
	if cfg.APIKey == "" {
		cfg.APIKey = EmptyAPIKey
	}
	if cfg.Temperature < 0 || cfg.Temperature > 2 {
		probs = append(probs, fmt.Sprintf("temperature %g is outside [0, 2]: fix Config.Temperature", cfg.Temperature))
	}
	if cfg.Seed == nil {
		zero := int64(0)
		cfg.Seed = &zero
	} else {
		s := *cfg.Seed
		cfg.Seed = &s
	}
	switch {
	case cfg.Timeout < 0:
		probs = append(probs, fmt.Sprintf("timeout %v is negative: fix Config.Timeout (0 selects %v)", cfg.Timeout, DefaultTimeout))
	case cfg.Timeout == 0:
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	}
	switch {
	case cfg.Backoff < 0:
		probs = append(probs, fmt.Sprintf("backoff %v is negative: fix Config.Backoff (0 selects %v)", cfg.Backoff, DefaultBackoff))
	case cfg.Backoff == 0:
		cfg.Backoff = DefaultBackoff
	}
	switch cfg.StructuredOutput {
	case "":
		cfg.StructuredOutput = StructuredAuto
	case StructuredAuto, StructuredJSONSchema, StructuredJSONObject, StructuredOff:
	default:
		probs = append(probs, fmt.Sprintf("structured output mode %q is not one of auto, json_schema, json_object, off: fix %s or Config.StructuredOutput",
			cfg.StructuredOutput, EnvStructuredOutput))
	}
	for k := range cfg.Extra {
		if reservedKeys[k] {
			probs = append(probs, fmt.Sprintf("Config.Extra sets %q, which the client sets itself: remove it", k))
		}
	}
	if len(probs) > 0 {
		return cfg, fmt.Errorf("llm: invalid config: %s", strings.Join(probs, "; "))
	}
	return cfg, nil
}

func validateRequest(req Request) error {
	if len(req.Messages) == 0 {
		return fmt.Errorf("llm: request has no messages")
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem, RoleDeveloper, RoleUser, RoleAssistant:
		default:
			return fmt.Errorf("llm: message %d has role %q; want system, developer, user or assistant", i, m.Role)
		}
	}
	return nil
}
