package ops

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
)

// Error codes. They are stable: plans, repair loops and tests match on them.
const (
	ESchema     = "E_SCHEMA"      // arguments do not fit the operator's schema
	EInvalidArg = "E_INVALID_ARG" // well-typed but meaningless (inverted window, bad cursor, unknown op)
	ENotFound   = "E_NOT_FOUND"   // an unknown uid
	ECost       = "E_COST"        // the estimated or measured work is over budget
	ELimit      = "E_LIMIT"       // a hard cap (buckets, groups, rows)
	EInternal   = "E_INTERNAL"    // a bug: please report it
)

// Error is an operator refusal: a stable code, what was wrong, and details
// a caller (or a repair loop) can act on: "path" (JSON Pointer into the
// arguments), "expected" (the sub-schema), "hint", "estimate", ...
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an Error.
func Errorf(code string, details map[string]any, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Details: details}
}

// Cost is a pre-execution work estimate.
type Cost struct {
	Rows       int64 `json:"rows_scanned_est"`
	Expansions int64 `json:"expansions_est"`
}

// Default ceilings: a call whose estimate exceeds one is refused with E_COST
// before it runs. Work counts the units a running call may spend.
const (
	MaxRowsEst       = 2_000_000_000
	MaxExpansionsEst = 500_000_000
	MaxWork          = 200_000_000
)

// Stats are the store statistics cost functions read.
type Stats struct {
	Nodes        int64
	NodeVersions int64
	EdgeVersions int64
	VtMin, VtMax bt.Time
}

// Spec declares one operator: its manual text, argument and result schemas,
// row order, cost model and kernel. The registry of Specs is the single
// source of truth for the CLI, the plan contract and the agent's manual.
type Spec struct {
	Name    string
	Summary string // one line
	Doc     string // the manual: semantics, tie rules, errors
	Args    *Schema
	Result  *Schema // the payload; paginated operators use Paged
	Order   string  // row order, in words
	// Paged operators return every row, sorted, in payload "rows"; the
	// executor pages them with a keyset cursor built from RowKey.
	Paged  bool
	RowKey func(row map[string]any) []any
	// Cost estimates the work of a call from its (validated) arguments.
	Cost func(c *Call) Cost
	// Run computes the payload. It must be deterministic.
	Run func(c *Call) (map[string]any, error)
}

var registry = map[string]*Spec{}

// Register adds an operator; it panics on a duplicate name (a programming
// error caught at init).
func Register(s *Spec) {
	if _, dup := registry[s.Name]; dup {
		panic("ops: duplicate operator " + s.Name)
	}
	registry[s.Name] = s
}

// Lookup finds an operator by name.
func Lookup(name string) (*Spec, bool) {
	s, ok := registry[name]
	return s, ok
}

// All lists the operators sorted by name.
func All() []*Spec {
	out := make([]*Spec, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *Spec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Names lists the operator names, sorted.
func Names() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	return out
}

// Call is one operator invocation: validated arguments with defaults, a
// reader pinned at the call's belief time, store statistics and a work
// budget.
type Call struct {
	Ctx   context.Context
	R     Reader
	Args  map[string]any
	Stats Stats
	work  int64
	limit int64
	est   Cost  // the cost model's estimate, reported when the call is stopped
	mem   int64 // bytes of rows it may materialize (0: DefaultMemBudget)
	typed bool  // the payload holds typed version rows (versionrow.go)
	// pageStart, when above 0, is one more than the index of the first
	// row after the cursor, found by the kernel: the pager then reads no
	// row before it (they may be nil).
	pageStart int
}

// Work charges n units of work; it returns E_COST when the call's budget is
// spent and the context's error when it is cancelled or past its deadline.
func (c *Call) Work(n int64) error {
	c.work += n
	if c.work > c.limit {
		return Errorf(ECost, map[string]any{"budget": c.limit, "hint": "narrow the window, add a node filter or restrict rel_types"},
			"work budget of %d units exceeded while running", c.limit)
	}
	if c.work&0xfff < n || n >= 4096 {
		if err := c.Ctx.Err(); err != nil {
			return Errorf(ECost, map[string]any{"estimate": c.est, "ceilings": Cost{MaxRowsEst, MaxExpansionsEst}, "work": c.work, "hint": "narrow the window or raise the deadline"},
				"call stopped after %d units of work (estimate %d rows, %d expansions; ceilings %d rows, %d expansions): %v",
				c.work, c.est.Rows, c.est.Expansions, int64(MaxRowsEst), int64(MaxExpansionsEst), err)
		}
	}
	return nil
}

// Has reports whether an argument was given (or defaulted) and is not null.
func (c *Call) Has(name string) bool { v, ok := c.Args[name]; return ok && v != nil }

// Str returns a string argument ("" if absent).
func (c *Call) Str(name string) string { s, _ := c.Args[name].(string); return s }

// Bool returns a boolean argument.
func (c *Call) Bool(name string) bool { b, _ := c.Args[name].(bool); return b }

// Int returns an integer argument (0 if absent).
func (c *Call) Int(name string) int64 { return toInt(c.Args[name]) }

// Float returns a number argument.
func (c *Call) Float(name string) float64 {
	switch x := c.Args[name].(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

// Strings returns a string-list argument (nil if absent or null).
func (c *Call) Strings(name string) []string {
	a, _ := c.Args[name].([]any)
	if a == nil {
		return nil
	}
	out := make([]string, len(a))
	for i, x := range a {
		out[i], _ = x.(string)
	}
	return out
}

// Window returns a window argument as an interval; the executor has
// already checked t_a < t_b.
func (c *Call) Window(name string) bt.Interval {
	m, _ := c.Args[name].(map[string]any)
	return bt.Interval{Start: toInt(m["t_a"]), End: toInt(m["t_b"])}
}

// Node resolves a uid argument value to its dense id, or E_NOT_FOUND.
func (c *Call) Node(path, uid string) (uint32, error) {
	id, ok := c.R.Node(uid)
	if !ok {
		return 0, Errorf(ENotFound, map[string]any{"path": path, "uid": uid, "hint": "resolve names to uids with resolve_entities first"},
			"unknown uid %q at %s", uid, path)
	}
	return id, nil
}

// WindowFraction is the share of the store's valid-time extent a window
// covers (1 when there is no extent).
func (c *Call) WindowFraction(w bt.Interval) float64 {
	st := c.Stats
	if st.VtMax <= st.VtMin {
		return 1
	}
	lo, hi := max(w.Start, st.VtMin), min(w.End, st.VtMax)
	f := float64(hi-lo) / float64(st.VtMax-st.VtMin)
	return math.Max(0, math.Min(1, f))
}

// ScanCost is the cost of scanning the edge versions in a window fraction.
func (c *Call) ScanCost(wf float64) Cost {
	return Cost{Rows: int64(float64(c.Stats.EdgeVersions)*wf) + c.Stats.NodeVersions}
}

// --- execution ---------------------------------------------------------------

// Envelope is the result of a call, as canonical JSON: the operator, the
// arguments after defaults, the belief time the call was pinned at, the
// store's current extent (informational), the payload and its digest.
type Envelope struct {
	Op            string         `json:"op"`
	Args          map[string]any `json:"args"`
	AsOfTT        bt.Time        `json:"as_of_tt"`
	DatasetExtent map[string]any `json:"dataset_extent"`
	Result        map[string]any `json:"result"`
	ResultDigest  string         `json:"result_digest"`
	// Bytes is the measured size of Result (PayloadBytes), the share of
	// the memory budget it holds.
	Bytes int64 `json:"-"`
}

// Canonical renders the envelope as canonical JSON.
func (e *Envelope) Canonical() ([]byte, error) {
	return canon.Marshal(map[string]any{
		"op": e.Op, "args": e.Args, "as_of_tt": e.AsOfTT, "dataset_extent": e.DatasetExtent,
		"result": e.Result, "result_digest": e.ResultDigest,
	})
}

// Prepare validates raw arguments against an operator's schema, checks the
// shared semantic rules (windows, cursors) and fills top-level defaults. It
// is the same code path the plan contract uses.
func Prepare(name string, raw map[string]any) (*Spec, map[string]any, error) {
	spec, ok := Lookup(name)
	if !ok {
		return nil, nil, Errorf(EInvalidArg, map[string]any{"allowed": Names()}, "unknown operator %q", name)
	}
	if raw == nil {
		raw = map[string]any{}
	}
	if vs := spec.Args.Validate(raw); len(vs) > 0 {
		v := vs[0]
		details := map[string]any{"path": v.Path, "violations": len(vs)}
		if v.Expected != nil {
			details["expected"] = v.Expected
		}
		return nil, nil, Errorf(ESchema, details, "invalid args for %s: %s %s", name, pathOrArgs(v.Path), v.Message)
	}
	args := make(map[string]any, len(spec.Args.Properties))
	for k, v := range raw {
		args[k] = v
	}
	for k, p := range spec.Args.Properties {
		if _, ok := args[k]; !ok && p.Default != nil {
			args[k] = p.Default
		}
	}
	for k, p := range spec.Args.Properties {
		if !isWindow(p) || args[k] == nil {
			continue
		}
		m := args[k].(map[string]any)
		if toInt(m["t_a"]) >= toInt(m["t_b"]) {
			return nil, nil, Errorf(EInvalidArg, map[string]any{"path": "/" + k, "hint": "a window is [t_a, t_b) with t_a < t_b"},
				"%s is empty or inverted: t_a %d must be before t_b %d", k, toInt(m["t_a"]), toInt(m["t_b"]))
		}
	}
	return spec, args, nil
}

func pathOrArgs(p string) string {
	if p == "" {
		return "args"
	}
	return p
}

func isWindow(s *Schema) bool {
	_, a := s.Properties["t_a"]
	_, b := s.Properties["t_b"]
	return s.Type == "object" && a && b && len(s.Properties) == 2
}

// Source gives a call its pinned reader. DB.Read satisfies it.
type Source interface {
	Read(asOf bt.Time, fn func(engine.Reader) error) error
}

// Execute runs one operator call: prepare, pin the belief time (the
// cursor's, when the call continues a page), check the cost estimate, run
// the kernel under the work budget, page the rows, round computed floats
// and digest the payload.
func Execute(ctx context.Context, src Source, name string, raw map[string]any) (*Envelope, error) {
	return ExecuteWith(ctx, src, name, raw, ExecOptions{})
}

// ExecuteWith is Execute with options: whole results for the executor's
// steps, and a memory budget. A payload larger than the budget is E_LIMIT.
func ExecuteWith(ctx context.Context, src Source, name string, raw map[string]any, opt ExecOptions) (*Envelope, error) {
	return ExecuteOn(ctx, NativeBackend{src}, name, raw, opt)
}

// ExecuteOn is ExecuteWith on any backend: the envelope (defaults, belief
// time, cost check, paging, memory budget, digest) is the same whichever
// backend computes the payload.
func ExecuteOn(ctx context.Context, b Backend, name string, raw map[string]any, opt ExecOptions) (*Envelope, error) {
	spec, args, err := Prepare(name, raw)
	if err != nil {
		return nil, err
	}
	if opt.Whole {
		delete(args, "limit")
	}
	asOf := bt.OpenEnd
	if v, ok := args["as_of_tt"]; ok {
		asOf = toInt(v)
	}
	var after []any
	if cur, _ := args["cursor"].(string); cur != "" {
		tt, key, err := decodeCursor(cur)
		if err != nil {
			return nil, err
		}
		if _, given := raw["as_of_tt"]; given && toInt(raw["as_of_tt"]) != tt {
			return nil, Errorf(EInvalidArg, map[string]any{"path": "/cursor", "hint": fmt.Sprintf("drop as_of_tt or pass %d", tt)},
				"the cursor belongs to belief time %d, not %d", tt, toInt(raw["as_of_tt"]))
		}
		asOf, after = tt, key
	}
	var env *Envelope
	err = b.Pin(asOf, func(r Pinned) error {
		st := r.Counts()
		c := &Call{Ctx: ctx, R: r.Reader(), Args: args, limit: MaxWork, mem: opt.MemBudget, Stats: Stats{
			Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax,
		}}
		if err := checkCost(spec, c); err != nil {
			return err
		}
		payload, err := r.Run(spec, c)
		if err != nil {
			var oe *Error
			if errors.As(err, &oe) {
				return oe
			}
			return Errorf(EInternal, nil, "%s: %v", name, err)
		}
		if spec.Paged {
			if err := page(spec, payload, args, r.AsOf(), after, c.pageStart-1); err != nil {
				return err
			}
		}
		// One walk sizes the payload and digests it with floats rounded. The
		// budget is checked first: a payload that cannot be digested is
		// still refused for its size when it is over the budget.
		sum, err := canon.Summarize(payload, c.MemBudget())
		size := sum.Footprint
		if err != nil {
			size = PayloadBytes(payload)
		}
		if n := size; n > c.MemBudget() {
			rows, _ := payload["rows"].([]any)
			return Errorf(ELimit, map[string]any{"bytes": n, "rows": int64(len(rows)), "mem_budget": c.MemBudget(),
				"hint": "narrow the window or the filters, aggregate inside the operator (aggregate_events with having or top), or give the step a limit"},
				"%s materialized %s (%d rows), over the memory budget of %s", name, FormatBytes(n), len(rows), FormatBytes(c.MemBudget()))
		}
		if err != nil {
			return Errorf(EInternal, nil, "%s: %v", name, err)
		}
		digest := sum.Digest
		// Most payloads hold no float that rounding changes, and are then
		// not copied.
		if sum.Changed {
			rounded, err := canon.RoundFloats(payload)
			if err != nil {
				return Errorf(EInternal, nil, "%s: %v", name, err)
			}
			payload = rounded.(map[string]any)
		}
		if c.typed && !opt.Typed {
			plainRows(payload)
		}
		// Operators that do not read the store (compute) have no belief time.
		pinned := bt.Time(0)
		if _, reads := spec.Args.Properties["as_of_tt"]; reads {
			pinned = r.AsOf()
			args["as_of_tt"] = pinned
		}
		env = &Envelope{Op: name, Args: args, AsOfTT: pinned,
			DatasetExtent: map[string]any{"vt_min": st.VtMin, "vt_max": st.VtMax},
			Result:        payload, ResultDigest: digest, Bytes: size}
		return nil
	})
	return env, err
}

// checkCost refuses a call whose estimate exceeds a ceiling.
func checkCost(spec *Spec, c *Call) *Error {
	if spec.Cost == nil {
		return nil
	}
	est := spec.Cost(c)
	c.est = est
	if est.Rows > MaxRowsEst || est.Expansions > MaxExpansionsEst {
		return Errorf(ECost, map[string]any{"estimate": est, "ceilings": Cost{MaxRowsEst, MaxExpansionsEst},
			"hint": "narrow the valid-time window, add a node filter or seed set, restrict rel_types, or reduce hops"},
			"%s would scan about %d rows and expand %d states, over the ceilings (%d rows, %d expansions)",
			spec.Name, est.Rows, est.Expansions, int64(MaxRowsEst), int64(MaxExpansionsEst))
	}
	return nil
}

// CheckCost runs an operator's cost model on prepared arguments and store
// statistics, as Execute does before running: the plan contract calls it on
// steps whose arguments are all literals. No store is open here (Call.R is
// nil), so a cost model that needs more than the statistics must estimate
// from them alone. A cost model that panics is a bug: it is returned as
// E_INTERNAL, never taken for "no static check".
func CheckCost(spec *Spec, args map[string]any, st Stats) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			err = Errorf(EInternal, map[string]any{"hint": "please report it; the call itself is still checked when it runs"},
				"the cost model of %s failed on these arguments (%v)", spec.Name, r)
		}
	}()
	return checkCost(spec, &Call{Ctx: context.Background(), Args: args, Stats: st, limit: MaxWork})
}

// page cuts payload["rows"] (all rows, in order) to the page after the
// cursor key and sets rows_total, truncated and cursor. known, when not
// negative, is the index of the first row after the cursor.
func page(spec *Spec, payload, args map[string]any, asOf bt.Time, after []any, known int) error {
	rows, _ := payload["rows"].([]any)
	start := 0
	switch {
	case after != nil && known >= 0:
		start = min(known, len(rows))
	case after != nil:
		start = len(rows)
		for i, row := range rows {
			if compareKeys(spec.RowKey(rowMap(row)), after) > 0 {
				start = i
				break
			}
		}
	}
	limit := len(rows) // no limit argument: the whole result (ExecOptions.Whole)
	if l, ok := args["limit"]; ok {
		limit = int(toInt(l))
	}
	end := min(len(rows), start+limit)
	pageRows := rows[start:end]
	payload["rows"] = pageRows
	payload["rows_total"] = int64(len(rows))
	truncated := end < len(rows) || start > 0
	if t, ok := payload["truncated"].(bool); ok && t {
		truncated = true
	}
	payload["truncated"] = truncated
	payload["cursor"] = nil
	if end < len(rows) && end > start {
		cur, err := encodeCursor(asOf, spec.RowKey(rowMap(pageRows[len(pageRows)-1])))
		if err != nil {
			return err
		}
		payload["cursor"] = cur
	}
	return nil
}

// A cursor is base64url (no padding) of the canonical JSON
// {"after": [key...], "tt": belief time}: the sort key of the last row
// returned and the belief time the page was read at.
func encodeCursor(tt bt.Time, key []any) (string, error) {
	b, err := canon.Marshal(map[string]any{"tt": tt, "after": key})
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func decodeCursor(s string) (bt.Time, []any, error) {
	bad := func(why string) (bt.Time, []any, error) {
		return 0, nil, Errorf(EInvalidArg, map[string]any{"path": "/cursor", "hint": "pass the cursor of the previous page unchanged, or null for the first page"},
			"bad cursor: %s", why)
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return bad("not base64url")
	}
	v, err := canon.Parse(b)
	if err != nil {
		return bad(err.Error())
	}
	m, ok := v.(map[string]any)
	tt, okT := m["tt"].(int64)
	key, okK := m["after"].([]any)
	if !ok || !okT || !okK || len(m) != 2 || tt < 0 {
		return bad("unexpected content")
	}
	return tt, key, nil
}

// compareKeys orders row keys: element by element, integers and floats
// numerically, strings by bytes, null first; a shorter key first.
func compareKeys(a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareValues(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func compareValues(a, b any) int {
	rank := func(v any) int {
		switch v.(type) {
		case nil:
			return 0
		case bool:
			return 1
		case int64, float64:
			return 2
		case string:
			return 3
		}
		return 4
	}
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return ra - rb
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		if x == y {
			return 0
		}
		if !x {
			return -1
		}
		return 1
	case int64:
		if y, ok := b.(int64); ok {
			return cmpOrdered(x, y)
		}
		return cmpOrdered(float64(x), b.(float64))
	case float64:
		if y, ok := b.(int64); ok {
			return cmpOrdered(x, float64(y))
		}
		return cmpOrdered(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	}
	return 0
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
