package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/ops"
)

// Store is what the tools read: pinned operator calls, the last durable
// belief time and statistics. *tgms.DB satisfies it.
type Store interface {
	exec.Source
	Stats() engine.Stats
}

// Writer writes one atomic batch. *tgms.DB satisfies it; a read-only
// server has none.
type Writer interface {
	Write(ops ...bt.Op) (bt.Time, error)
}

// Defaults of a Service.
const (
	DefaultDeadline = 30 * time.Second
	MaxBatchOps     = 100_000
)

// Service runs the catalog's tools against one store, with a deadline per
// call and a bound on concurrent heavy calls (operators, plans, asks,
// verification). The zero value is not usable; use New.
type Service struct {
	store    Store
	db       *tgms.DB // the store as a DB, when it is one (freshness, saved answers)
	writer   Writer
	traces   *TraceCache
	heavy    chan struct{}
	deadline time.Duration
	catalog  []*Tool
	byName   map[string]*Tool
	// answersMu orders this server's appends to answers.log (the store's
	// exclusive lock keeps other processes out while it writes).
	answersMu sync.Mutex
	// freshIx is the last freshness index built (see freshIndex), valid
	// while the store's last batch is freshUpTo.
	freshMu   sync.Mutex
	freshIx   *fresh.Index
	freshUpTo bt.Time
	// backend and backendOps: see backend.go (nil: the in-memory engine).
	backend    ops.Backend
	backendOps []string
}

// Options configure a Service.
type Options struct {
	// Writer enables write_batch; nil serves read-only.
	Writer Writer
	// Deadline bounds each call; 0 means DefaultDeadline.
	Deadline time.Duration
	// Heavy bounds concurrent heavy calls; 0 means GOMAXPROCS. A call that
	// cannot start before its deadline is refused with E_BUSY.
	Heavy int
	// Traces keeps produced traces; nil means a cache of 256.
	Traces *TraceCache
	// Backend runs operators and plans instead of the in-memory engine
	// behind the store, for the operators BackendOps (see backend.go).
	Backend    ops.Backend
	BackendOps []string
}

// New builds a Service over a store.
func New(store Store, opt Options) *Service {
	s := &Service{store: store, db: dbOf(store), writer: opt.Writer, traces: opt.Traces, deadline: opt.Deadline}
	if s.deadline <= 0 {
		s.deadline = DefaultDeadline
	}
	if s.traces == nil {
		s.traces = NewTraceCache(0)
	}
	n := opt.Heavy
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	s.heavy = make(chan struct{}, n)
	s.catalog = Catalog(s.writer != nil)
	if opt.Backend != nil {
		s.backend, s.backendOps = opt.Backend, opt.BackendOps
		s.catalog = backendCatalog(s.catalog, s.backendOps)
	}
	s.byName = map[string]*Tool{}
	for _, t := range s.catalog {
		s.byName[t.Name] = t
	}
	return s
}

// WriteTools are the tools offered only with writes allowed.
var WriteTools = []string{"write_batch", "erase", "answers_save", "answers_refresh", "remember", "correct", "retract"}

// Tools lists the tools this service offers (write_batch only when it can write).
func (s *Service) Tools() []*Tool { return s.catalog }

// Traces is the service's trace cache.
func (s *Service) Traces() *TraceCache { return s.traces }

// Store is the store the service reads.
func (s *Service) Store() Store { return s.store }

// Call runs a tool on arguments decoded by canon.Parse (integers int64).
// The result marshals to JSON; a refusal is a *Failure.
func (s *Service) Call(ctx context.Context, name string, args map[string]any) (any, *Failure) {
	t, ok := s.byName[name]
	if !ok {
		if slices.Contains(WriteTools, name) {
			return nil, fail(statusForbidden, EReadOnly, "tool.read_only", "", "start the server with --allow-writes to write", nil,
				"this server is read-only: %s is disabled", name)
		}
		names := make([]string, len(s.catalog))
		for i, t := range s.catalog {
			names[i] = t.Name
		}
		return nil, fail(statusNotFound, ops.EInvalidArg, "tool.unknown", "", "pick one of the allowed tools (each operator is a tool)", names, "unknown tool %q", name)
	}
	if args == nil {
		args = map[string]any{}
	}
	ctx, cancel := context.WithTimeout(ctx, s.deadline)
	defer cancel()
	if t.Heavy {
		select {
		case s.heavy <- struct{}{}:
			defer func() { <-s.heavy }()
		case <-ctx.Done():
			return nil, fail(statusUnavailable, EBusy, "server.busy", "", "retry later", nil,
				"%d heavy calls are running; %s could not start within %v", cap(s.heavy), name, s.deadline)
		}
	}
	out, f := t.run(ctx, s, args)
	if f == nil && ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fail(statusUnavailable, ops.ECost, "server.deadline", "", "narrow the call or raise --deadline", nil, "%s ran past the %v deadline", name, s.deadline)
	}
	return out, f
}

// --- argument helpers --------------------------------------------------------

func closedArgs(args map[string]any, allowed ...string) *Failure {
	for k := range args {
		if !slices.Contains(allowed, k) {
			return badArg("/"+k, "allowed: "+strings.Join(allowed, ", "), "unknown argument %q", k)
		}
	}
	return nil
}

func strArg(args map[string]any, name string, required bool) (string, *Failure) {
	v, ok := args[name]
	if !ok || v == nil {
		if required {
			return "", badArg("/"+name, "", "%s is required", name)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", badArg("/"+name, "", "%s must be a string, got %s", name, canon.Kind(v))
	}
	return s, nil
}

func uidsArg(args map[string]any) ([]string, *Failure) {
	v, ok := args["uids"]
	if !ok || v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, badArg("/uids", "", "uids must be an array of strings, got %s", canon.Kind(v))
	}
	out := make([]string, len(list))
	for i, x := range list {
		if out[i], ok = x.(string); !ok || out[i] == "" {
			return nil, badArg(fmt.Sprintf("/uids/%d", i), "", "uids must be non-empty strings")
		}
	}
	return out, nil
}

func asOfArg(args map[string]any) (bt.Time, *Failure) {
	v, ok := args["as_of_tt"]
	if !ok || v == nil {
		return 0, nil
	}
	switch x := v.(type) {
	case int64:
		if x >= 0 {
			return x, nil
		}
	case string:
		if t, err := bt.ParseTime(x); err == nil {
			return t, nil
		}
	}
	return 0, badArg("/as_of_tt", "µs since the epoch or RFC 3339", "as_of_tt must be a non-negative integer or an RFC 3339 time, got %v", v)
}

// parseOps reads the op JSONL format of 'tgms write' (one op per line).
func parseOps(jsonl string) ([]bt.Op, *Failure) {
	var out []bt.Op
	sc := bufio.NewScanner(strings.NewReader(jsonl))
	sc.Buffer(nil, 1<<26)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		op, err := bt.DecodeOp(text)
		if err == nil {
			err = op.Validate(len(out))
		}
		if err != nil {
			return nil, fromWriteError(line, fmt.Errorf("line %d: %w", line, err))
		}
		if out = append(out, op); len(out) > MaxBatchOps {
			return nil, fromWriteError(line, fmt.Errorf("more than %d ops in one batch", MaxBatchOps))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fromWriteError(0, err)
	}
	if len(out) == 0 {
		return nil, fromWriteError(0, errors.New("no ops: send one JSON op per line"))
	}
	return out, nil
}
