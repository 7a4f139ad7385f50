// Package llm talks to OpenAI-compatible chat completion endpoints (vLLM,
// Ollama, llama.cpp server, hosted APIs) for the database agent, which plans
// queries and writes typed claims with a model.
//
// The wire protocol is the official openai-go SDK's; this package adds the
// policy around it: temperature 0 and a fixed seed on every call, a per-call
// timeout, bounded retries with reproducible backoff, structured output with
// fallback, token accounting, JSON extraction from model text, a response
// cache, and a replay server for tests.
//
//	cfg := llm.ConfigFromEnv()
//	client, err := llm.New(cfg) // err names what is missing and what sets it
//	resp, err := client.Complete(ctx, llm.Request{Messages: msgs, JSONSchema: planSchema})
//	plan, err := llm.ExtractJSON(resp.Text)
//
// # Environment
//
// ConfigFromEnv reads, first non-empty wins:
//
//	TGMS_LLM_BASE_URL, OPENAI_BASE_URL   API root, e.g. http://localhost:8000/v1 (required)
//	TGMS_LLM_MODEL                       served model name (required)
//	TGMS_LLM_API_KEY, OPENAI_API_KEY     bearer key; unset sends "EMPTY", which local servers accept
//	TGMS_LLM_STRUCTURED_OUTPUT           auto (default), json_schema, json_object or off
//
// The TGMS_ names take precedence so the agent can be pointed at a local
// server without disturbing an OPENAI_* setup used by other tools.
//
// # Calls, retries and errors
//
// Each HTTP request (attempt) is bounded by Config.Timeout (default 120 s).
// A 429, a 5xx, a timeout or a connection error is retried up to
// Config.MaxRetries times (default 4) after Backoff·2^(n-1) (default base
// 500 ms, capped at MaxBackoff, jittered into [d/2, d) from a source seeded
// by Config.Seed), or after the server's Retry-After / retry-after-ms when
// given (capped at MaxRetryAfter). Other 4xx answers are not retried. The
// SDK's own retries are disabled. A failed call returns *Error, which names
// the endpoint, the status, the attempts, the start of the response body and
// what to check.
//
// # Structured output
//
// With Request.JSONSchema set and StructuredOutput "auto", the first request
// carries response_format {"type":"json_schema",...}. If the server answers
// 400 or 422 with a body that mentions response_format, json_schema,
// json_object, "unsupported" or "not supported", the request is repeated
// with {"type":"json_object"}, and then with no response_format. The client
// remembers the format that worked, so later calls start there;
// Response.Format and (*OpenAI).StructuredOutput report it. Prompts should
// describe the expected JSON themselves, since a fallback loses the schema.
//
// # Accounting and cache
//
// Response.Usage carries each call's token counts; (*OpenAI).Totals sums
// calls, requests, retries, fallbacks and tokens. Cached(client, dir)
// stores responses under dir keyed by the SHA-256 of canonical JSON of
// model, messages, temperature, seed and schema, so reruns make no calls.
//
// # Replay scripts
//
// NewReplayServer serves scripted answers at /v1/chat/completions and
// /chat/completions and records every request (Replay.Requests), so tests
// can assert what the client sent. A script file is JSONL: one entry per
// line, blank lines and lines starting with '#' ignored, unknown fields
// rejected:
//
//	# plan for the first question, after one rate-limit answer
//	{"status":429,"headers":{"Retry-After":"0"}}
//	{"match":"how many","text":"{\"plan_id\":\"p1\"}","usage":{"prompt_tokens":120,"completion_tokens":9,"total_tokens":129}}
//	{"status":400,"body":"{\"error\":{\"message\":\"response_format json_schema is not supported\"}}"}
//	{"text":"slow answer","delay":"250ms","model":"served-name"}
//
// Fields:
//
//	match          substring the request's last user message must contain ("" matches any)
//	status         HTTP status, default 200
//	text           assistant content of a 200 answer (wrapped in a chat.completion object)
//	body           raw response body, sent verbatim instead of text
//	headers        response headers, e.g. {"Retry-After":"0"}
//	delay          Go duration to wait before answering ("250ms")
//	usage          {"prompt_tokens","completion_tokens","total_tokens"}; default: bytes/4 estimates
//	model          model name to report; default: the requested one
//	finish_reason  finish_reason to report; default "stop" ("length" simulates truncation)
//
// Each entry answers at most one request: a request takes the first unused
// entry (in file order) whose match fits. A request with none left gets a
// 400 whose message starts "replay:". LoadEntries and ReadEntries read the
// format; WriteEntries writes it; Record(client, w) wraps a client and
// writes each real exchange as an entry, so a session against a live server
// can be saved under testdata/ and replayed offline.
package llm
