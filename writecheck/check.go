package writecheck

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// Store is what the contract reads: the current beliefs (a bitemporal
// View) and the property types already in use.
type Store interface {
	bt.View
	// PropKinds lists the JSON types stored values of property key have
	// ("string", "int", "float", "bool", "array", "object"), on any node
	// or edge version.
	PropKinds(key string) []string
}

// Code is the error code of every violation.
const Code = "E_WRITE_CONTRACT"

// The rules (see the package documentation).
const (
	RuleProvenance = "provenance.invalid"
	RuleOp         = "op.invalid"
	RuleTime       = "time.bounds"
	RuleUnknown    = "entity.unknown"
	RuleImplicit   = "belief.implicit"
	RuleOverride   = "authority.override"
	RulePropType   = "props.type"
	RulePlan       = "plan.refused"
)

// MaxSaneTime is the latest valid time the contract accepts other than the
// open end: 9999-12-31T23:59:59.999999Z.
const MaxSaneTime bt.Time = 253402300799999999

// Violation is one broken rule. Op is the op's index (-1 for the batch);
// Path is a JSON Pointer into the batch {provenance, override, ops}.
type Violation struct {
	Code     string `json:"code"`
	Rule     string `json:"rule"`
	Op       int    `json:"op"`
	Path     string `json:"path"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
	Expected any    `json:"expected,omitempty"`
}

func (v Violation) Error() string {
	return fmt.Sprintf("%s %s at %s: %s (%s)", v.Code, v.Rule, v.Path, v.Message, v.Hint)
}

// Version is one version in a preview.
type Version struct {
	Kind      string         `json:"kind"` // node or edge
	UID       string         `json:"uid,omitempty"`
	Label     string         `json:"label,omitempty"`
	Src       string         `json:"src,omitempty"`
	Dst       string         `json:"dst,omitempty"`
	RelType   string         `json:"rel_type,omitempty"`
	Disc      string         `json:"disc,omitempty"`
	Props     map[string]any `json:"props"`
	VtS       bt.Time        `json:"vt_s"`
	VtE       bt.Time        `json:"vt_e"`
	TTs       bt.Time        `json:"tt_s,omitempty"` // closed versions: when they were written
	CreatedBy string         `json:"created_by"`
	ClosedBy  string         `json:"closed_by,omitempty"` // closed versions: the op of this batch that closes them
	Authority string         `json:"authority"`           // of the batch that wrote the version
}

// Preview is what the batch would do: versions opened and closed.
type Preview struct {
	Opened []Version `json:"opened"`
	Closed []Version `json:"closed"`
}

// Result is the contract's verdict on a batch.
type Result struct {
	Admitted   bool        `json:"admitted"`
	Violations []Violation `json:"violations"`
	Preview    *Preview    `json:"preview"` // nil when the planner refuses the batch
}

// Err returns the verdict as an error: nil when admitted, else a
// *RefusedError holding the violations.
func (r *Result) Err() error {
	if r.Admitted {
		return nil
	}
	return &RefusedError{Violations: r.Violations}
}

// RefusedError is a batch the contract refused; nothing was written.
type RefusedError struct{ Violations []Violation }

func (e *RefusedError) Error() string {
	msgs := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		msgs[i] = v.Error()
	}
	return fmt.Sprintf("the write contract refused the batch (%d violations), nothing written: %s", len(e.Violations), strings.Join(msgs, "; "))
}

// Check runs the contract over b against s and previews its effect at
// transaction time tt as batch seq. It never writes and never panics on
// any batch.
func Check(s Store, tt bt.Time, seq uint64, b bt.Batch) Result {
	c := &checker{s: s, b: b, seq: seq, segs: map[ident][]seg{}, kinds: map[string][]string{}}
	c.auth = bt.Resolve(b.Prov, "", b.Ops).Authority
	if b.Prov != nil && b.Prov.Authority != bt.AuthNone {
		if err := b.Prov.Validate(); err != nil {
			path, msg, _ := strings.Cut(err.Error(), ": ")
			c.add(RuleProvenance, -1, path, msg, "give provenance {authority: user|model|import|system, source, actor, ref, note} with short text fields", nil)
		}
	} else if b.Prov != nil {
		c.add(RuleProvenance, -1, "/provenance/authority", "is required", "one of "+strings.Join(bt.AuthorityNames(), ", "), bt.AuthorityNames())
	}
	for i := range b.Ops {
		c.op(i, &b.Ops[i])
	}
	res := Result{Violations: c.vs}
	rv := &recordingView{View: s, nodes: map[bt.Handle]bt.NodeVersion{}, edges: map[bt.Handle]bt.EdgeVersion{}}
	eff, err := bt.Plan(rv, tt, seq, b.Ops)
	if err != nil {
		var oe *bt.OpError
		op, path := -1, "/ops"
		if errors.As(err, &oe) {
			op, path = oe.Op, fmt.Sprintf("/ops/%d", oe.Op)
			if oe.Field != "" {
				path += "/" + strings.ReplaceAll(oe.Field, ".", "/")
			}
		}
		if !c.has(op) {
			c.add(RulePlan, op, path, err.Error(), "fix the op as the message says", nil)
		}
		res.Violations = c.vs
	} else {
		res.Preview = preview(rv, eff, c.auth)
	}
	if res.Violations == nil {
		res.Violations = []Violation{}
	}
	res.Admitted = len(res.Violations) == 0
	return res
}

type ident struct {
	node bool
	uid  string
	edge bt.EdgeKey
}

func nodeID(uid string) ident   { return ident{node: true, uid: uid} }
func edgeID(k bt.EdgeKey) ident { return ident{edge: k} }
func refID(r bt.Ref) ident {
	return map[bool]ident{true: nodeID(r.UID), false: edgeID(r.Edge)}[r.Kind == bt.RefNode]
}
func authOf(p *bt.Provenance) bt.Authority {
	if p == nil {
		return bt.AuthSystem
	}
	return p.Authority
}

// seg is a believed valid interval of an identity and the authority of
// the batch that wrote it.
type seg struct {
	iv   bt.Interval
	auth bt.Authority
}

type checker struct {
	s     Store
	b     bt.Batch
	seq   uint64 // the batch's sequence number (store-assigned discs)
	auto  int64  // store-assigned discs used by earlier events of the batch
	auth  bt.Authority
	segs  map[ident][]seg
	kinds map[string][]string // property kinds added by earlier ops
	vs    []Violation
}

func (c *checker) add(rule string, op int, path, msg, hint string, expected any) {
	c.vs = append(c.vs, Violation{Code: Code, Rule: rule, Op: op, Path: path, Message: msg, Hint: hint, Expected: expected})
}

func (c *checker) has(op int) bool {
	for _, v := range c.vs {
		if v.Op == op {
			return true
		}
	}
	return false
}

// believed returns the identity's believed segments as the batch has left
// them so far, loading them from the store on first use.
func (c *checker) believed(id ident) []seg {
	if s, ok := c.segs[id]; ok {
		return s
	}
	var out []seg
	if id.node {
		for _, h := range c.s.BelievedNodes(id.uid, bt.Always) {
			out = append(out, seg{h.V.Valid, authOf(h.V.Prov)})
		}
	} else {
		for _, h := range c.s.BelievedEdges(id.edge, bt.Always) {
			out = append(out, seg{h.V.Valid, authOf(h.V.Prov)})
		}
	}
	if out == nil {
		out = []seg{}
	}
	c.segs[id] = out
	return out
}

func overlapping(segs []seg, iv bt.Interval) []seg {
	var out []seg
	for _, s := range segs {
		if s.iv.Overlaps(iv) {
			out = append(out, s)
		}
	}
	return out
}

// carve ends what segs hold over iv: the planner closes every segment
// overlapping iv and writes its parts outside iv again, as versions of this
// batch (auth). With add, one segment of this batch covers iv.
func carve(segs []seg, iv bt.Interval, auth bt.Authority, add bool) []seg {
	var out []seg
	for _, s := range segs {
		if !s.iv.Overlaps(iv) {
			out = append(out, s)
			continue
		}
		if s.iv.Start < iv.Start {
			out = append(out, seg{bt.Interval{Start: s.iv.Start, End: iv.Start}, auth})
		}
		if iv.End < s.iv.End {
			out = append(out, seg{bt.Interval{Start: iv.End, End: s.iv.End}, auth})
		}
	}
	if add {
		out = append(out, seg{iv, auth})
	}
	return out
}

func ivs(segs []seg) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = s.iv.String()
	}
	return out
}

func (c *checker) op(i int, op *bt.Op) {
	p := fmt.Sprintf("/ops/%d", i)
	if err := op.Validate(i); err != nil {
		var oe *bt.OpError
		field := ""
		if errors.As(err, &oe) {
			field = oe.Field
			if oe.Event >= 0 {
				field = fmt.Sprintf("events/%d/%s", oe.Event, oe.Field)
			}
		}
		c.add(RuleOp, i, strings.TrimSuffix(p+"/"+strings.ReplaceAll(field, ".", "/"), "/"), err.Error(), "fix the op's fields", nil)
		return
	}
	c.times(i, op)
	switch op.Kind {
	case bt.OpAssertNode:
		c.props(i, p+"/props", op.Props)
		c.assert(i, p, nodeID(op.UID), op.Valid, fmt.Sprintf("node %q", op.UID))
	case bt.OpAssertEdge:
		for _, end := range []struct{ f, uid string }{{"src", op.Edge.Src}, {"dst", op.Edge.Dst}} {
			if !containsStart(c.believed(nodeID(end.uid)), op.Valid.Start) {
				c.unknownNode(i, p+"/"+end.f, end.uid, op.Valid.Start)
			}
		}
		c.props(i, p+"/props", op.Props)
		c.assert(i, p, edgeID(op.Edge), op.Valid, bt.EdgeRef(op.Edge).String())
	case bt.OpRetract:
		id := refID(op.Ref)
		from := bt.Interval{Start: op.At, End: bt.OpenEnd}
		hit := overlapping(c.believed(id), from)
		if len(hit) == 0 {
			c.add(RuleUnknown, i, p+"/ref", fmt.Sprintf("%s has no believed version after t %d to retract", op.Ref, op.At), "retract a fact that holds after t; see entity_history for what is believed", nil)
			return
		}
		c.overrides(i, p+"/ref", hit, op.Ref)
		c.segs[id] = clip(c.believed(id), op.At, c.auth)
	case bt.OpCorrect:
		id := refID(op.Ref)
		hit := overlapping(c.believed(id), op.Valid)
		if len(hit) == 0 {
			c.add(RuleUnknown, i, p+"/ref", fmt.Sprintf("%s has no believed version over %s to correct", op.Ref, op.Valid), "correct an interval where the fact is believed, or assert it", nil)
			return
		}
		c.overrides(i, p+"/ref", hit, op.Ref)
		c.props(i, p+"/props", op.Props)
		if op.Moves() {
			c.segs[id] = carve(carve(c.believed(id), op.Valid, c.auth, false), op.To, c.auth, true)
		} else {
			c.segs[id] = carve(c.believed(id), op.Valid, c.auth, true)
		}
	case bt.OpIngest:
		// The op creates a node for each endpoint with no believed version,
		// valid from its earliest event in the op.
		first := map[string]bt.Time{}
		var order []string
		for j := range op.Events {
			e := &op.Events[j]
			c.props(i, fmt.Sprintf("%s/events/%d/props", p, j), e.Props)
			k := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
			if k.Disc == "" {
				k.Disc = bt.AutoDisc(c.seq, c.auto)
				c.auto++
			}
			c.segs[edgeID(k)] = append(c.believed(edgeID(k)), seg{e.Valid(), c.auth})
			for _, uid := range []string{e.Src, e.Dst} {
				if t, seen := first[uid]; !seen {
					first[uid] = e.VtS
					order = append(order, uid)
				} else if e.VtS < t {
					first[uid] = e.VtS
				}
			}
		}
		for _, uid := range order {
			if len(c.believed(nodeID(uid))) == 0 {
				c.segs[nodeID(uid)] = []seg{{bt.Interval{Start: first[uid], End: bt.OpenEnd}, c.auth}}
			}
		}
	}
}

func containsStart(segs []seg, t bt.Time) bool {
	for _, s := range segs {
		if s.iv.Contains(t) {
			return true
		}
	}
	return false
}

// clip ends every segment at t; the part of one that straddles t becomes a
// version of this batch.
func clip(segs []seg, t bt.Time, auth bt.Authority) []seg {
	var out []seg
	for _, s := range segs {
		switch {
		case s.iv.End <= t:
			out = append(out, s)
		case s.iv.Start < t:
			out = append(out, seg{bt.Interval{Start: s.iv.Start, End: t}, auth})
		}
	}
	return out
}

func (c *checker) unknownNode(i int, path, uid string, t bt.Time) {
	if c.s.NodeKnown(uid) || len(c.believed(nodeID(uid))) > 0 {
		c.add(RuleUnknown, i, path, fmt.Sprintf("node %q does not exist at valid time %s (believed over %s)", uid, bt.FormatBoth(t), strings.Join(ivs(c.believed(nodeID(uid))), ", ")), "start the edge inside the node's validity, or correct the node's interval first", ivs(c.believed(nodeID(uid))))
		return
	}
	c.add(RuleUnknown, i, path, fmt.Sprintf("node %q is not in the store", uid), fmt.Sprintf("create it explicitly with an earlier op of the batch: {\"op\":\"assert_node\",\"uid\":%q,...}, or check the uid with resolve_entities", uid), nil)
}

// assert checks an assert over iv and then follows it as the planner
// would apply it (carving what it overlaps), so later ops are checked
// against what the batch would leave.
func (c *checker) assert(i int, p string, id ident, iv bt.Interval, what string) {
	if hit := overlapping(c.believed(id), iv); len(hit) > 0 {
		c.add(RuleImplicit, i, p+"/vt_s", fmt.Sprintf("%s is already believed over %s, which %s overlaps: an assert would replace it without saying why", what, strings.Join(ivs(hit), ", "), iv),
			"say which change it is: correct (the old belief was wrong) or retract at t and assert from t (the world changed)", ivs(hit))
	}
	c.segs[id] = carve(c.believed(id), iv, c.auth, true)
}

func (c *checker) overrides(i int, path string, hit []seg, r bt.Ref) {
	if c.auth != bt.AuthModel || c.b.Override {
		return
	}
	var users []seg
	for _, s := range hit {
		if s.auth == bt.AuthUser {
			users = append(users, s)
		}
	}
	if len(users) > 0 {
		c.add(RuleOverride, i, path, fmt.Sprintf("%s over %s was stated by a user; a model-authority batch may not replace it silently", r, strings.Join(ivs(users), ", ")),
			"ask the user, write the batch with authority user, or set override: true on the batch to replace it on purpose", ivs(users))
	}
}

func (c *checker) times(i int, op *bt.Op) {
	p := fmt.Sprintf("/ops/%d", i)
	check := func(path string, t bt.Time, end bool) {
		if t < 0 || (t > MaxSaneTime && !(end && t == bt.OpenEnd)) {
			c.add(RuleTime, i, path, fmt.Sprintf("valid time %d (%s) is outside [1970-01-01, 9999-12-31]", t, bt.FormatBoth(t)), "give µs since the epoch or an RFC 3339 time; leave vt_e out for an open end", []string{"0", fmt.Sprint(MaxSaneTime)})
		}
	}
	switch op.Kind {
	case bt.OpAssertNode, bt.OpAssertEdge, bt.OpCorrect:
		check(p+"/vt_s", op.Valid.Start, false)
		check(p+"/vt_e", op.Valid.End, true)
		if op.Moves() {
			check(p+"/to_vt_s", op.To.Start, false)
			check(p+"/to_vt_e", op.To.End, true)
		}
	case bt.OpRetract:
		check(p+"/t", op.At, false)
	case bt.OpIngest:
		for j := range op.Events {
			iv := op.Events[j].Valid()
			check(fmt.Sprintf("%s/events/%d/vt_s", p, j), iv.Start, false)
			check(fmt.Sprintf("%s/events/%d/vt_e", p, j), iv.End, true)
		}
	}
}

func family(kind string) string {
	if kind == "int" || kind == "float" {
		return "number"
	}
	return kind
}

// props checks every property's type against the kinds in use.
func (c *checker) props(i int, path string, p bt.Props) {
	if p == "" {
		return
	}
	v, err := canon.ParseString(string(p))
	if err != nil {
		return // Validate reported it
	}
	m, _ := v.(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		kind := canon.TypeName(m[k])
		if kind == "null" {
			continue
		}
		used, ok := c.kinds[k]
		if !ok {
			used = slices.Clone(c.s.PropKinds(k))
		}
		match := len(used) == 0
		for _, u := range used {
			if family(u) == family(kind) {
				match = true
			}
		}
		if !match {
			c.add(RulePropType, i, path+"/"+escape(k), fmt.Sprintf("property %q is %s here, but the store holds it as %s", k, kind, strings.Join(used, ", ")),
				fmt.Sprintf("give %q as %s, or store the value under another key", k, strings.Join(used, " or ")), slices.Clone(used))
		}
		// What the op would store counts for later ops, matching or not.
		if !slices.Contains(used, kind) {
			used = append(used, kind)
		}
		c.kinds[k] = used
	}
}

// escape encodes a key as a JSON Pointer token.
func escape(k string) string { return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1") }
