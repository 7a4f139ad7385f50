package oracle

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// provenanceOf is this model's reading of a batch's provenance: what the
// batch stated, unless it stated none or exactly its default; the default
// is authority import (with the ingest's source text) for a batch that
// names a source or holds an ingest op, else system, and is marked
// derived.
func provenanceOf(stated *bt.Provenance, source string, ops []bt.Op) *bt.Provenance {
	bulk := source != ""
	for _, op := range ops {
		bulk = bulk || op.Kind == bt.OpIngest
	}
	def := &bt.Provenance{Authority: bt.AuthSystem, Derived: true}
	if bulk {
		def = &bt.Provenance{Authority: bt.AuthImport, Source: source, Derived: true}
	}
	if stated == nil || stated.Authority == bt.AuthNone {
		return def
	}
	p := *stated
	p.Derived = false
	if bulk && p.Authority == bt.AuthImport && p.Source == "" {
		p.Source = source
	}
	if p.Authority == def.Authority && p.Source == def.Source && p.Actor+p.Ref+p.Note == "" {
		return def
	}
	return &p
}

// putProv adds a version's provenance columns for VersionSet, leaving out
// the system default (nil reads as it).
func putProv(m map[string]any, p, closed *bt.Provenance, isClosed bool) {
	if v := provMap(p); v != nil {
		m["provenance"] = v
	}
	if v := provMap(closed); isClosed && v != nil {
		m["closed_provenance"] = v
	}
}

func provMap(p *bt.Provenance) any {
	if p == nil || (p.Derived && p.Authority == bt.AuthSystem) {
		return nil
	}
	m := map[string]any{"authority": p.Authority.String(), "derived": p.Derived}
	for k, v := range map[string]string{"source": p.Source, "actor": p.Actor, "ref": p.Ref, "note": p.Note} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// CheckWrite is a naive reading of the write contract (package
// writecheck): it applies the batch's ops one by one to a copy of the
// store with the write rules above, and before each op checks the rules
// against the versions as the earlier ops left them. It returns the
// violations as "rule@path" in op order (the batch's own first) and the
// index of the first op the write rules refuse (len(ops) when none), after
// which nothing is checked; that op's refusal is "plan.refused@/ops/N"
// when the contract found nothing else wrong with it.
func (w *Writes) CheckWrite(bb bt.Batch) (violations []string, refusedAt int) {
	work := &Writes{Nodes: append([]bt.NodeVersion(nil), w.Nodes...), Edges: append([]bt.EdgeVersion(nil), w.Edges...), uids: map[string]bool{}}
	for u := range w.uids {
		work.uids[u] = true
	}
	tt := w.lastTT + 1
	b := &batch{Writes: work, tt: tt, seq: w.batches + 1, prov: provenanceOf(bb.Prov, "", bb.Ops)}
	if bb.Prov != nil {
		if err := bb.Prov.Validate(); err != nil {
			path, _, _ := strings.Cut(err.Error(), ": ")
			violations = append(violations, "provenance.invalid@"+path)
		}
	}
	for i, op := range bb.Ops {
		var mine []string
		if err := op.Validate(i); err != nil {
			var oe *bt.OpError
			errors.As(err, &oe)
			field := oe.Field
			if oe.Event >= 0 {
				field = fmt.Sprintf("events/%d/%s", oe.Event, oe.Field)
			}
			path := strings.TrimSuffix(fmt.Sprintf("/ops/%d/%s", i, strings.ReplaceAll(field, ".", "/")), "/")
			return append(violations, "op.invalid@"+path), i
		}
		mine = b.contract(i, op, bb.Override)
		violations = append(violations, mine...)
		if err := b.apply(i, op); err != nil {
			if len(mine) == 0 {
				violations = append(violations, fmt.Sprintf("plan.refused@/ops/%d", i))
			}
			return violations, i
		}
	}
	return violations, len(bb.Ops)
}

const maxSane bt.Time = 253402300799999999 // 9999-12-31T23:59:59.999999Z

// contract checks one op against the versions b holds now.
func (b *batch) contract(i int, op bt.Op, override bool) []string {
	var out []string
	at := func(rule, rest string) { out = append(out, fmt.Sprintf("%s@/ops/%d%s", rule, i, rest)) }
	sane := func(rest string, t bt.Time, end bool) {
		if t < 0 || t > maxSane && !(end && t == bt.OpenEnd) {
			at("time.bounds", rest)
		}
	}
	switch op.Kind {
	case bt.OpAssertNode, bt.OpAssertEdge, bt.OpCorrect:
		sane("/vt_s", op.Valid.Start, false)
		sane("/vt_e", op.Valid.End, true)
		if op.To != (bt.Interval{}) {
			sane("/to_vt_s", op.To.Start, false)
			sane("/to_vt_e", op.To.End, true)
		}
	case bt.OpRetract:
		sane("/t", op.At, false)
	case bt.OpIngest:
		for j, e := range op.Events {
			end := e.VtE
			if end == 0 {
				end = e.VtS + 1
			}
			sane(fmt.Sprintf("/events/%d/vt_s", j), e.VtS, false)
			sane(fmt.Sprintf("/events/%d/vt_e", j), end, true)
		}
	}
	nodeAt := func(uid string, t bt.Time) bool {
		for _, v := range b.Nodes {
			if v.UID == uid && v.TTe == bt.OpenEnd && v.Valid.Start <= t && t < v.Valid.End {
				return true
			}
		}
		return false
	}
	byUser := func(provs []*bt.Provenance) bool {
		if b.prov.Authority != bt.AuthModel || override {
			return false
		}
		for _, p := range provs {
			if p != nil && p.Authority == bt.AuthUser {
				return true
			}
		}
		return false
	}
	hitProvs := func(r bt.Ref, iv bt.Interval) []*bt.Provenance {
		var out []*bt.Provenance
		if r.Kind == bt.RefNode {
			for _, h := range b.believedNodes(r.UID, iv) {
				out = append(out, b.Nodes[h].Prov)
			}
		} else {
			for _, h := range b.believedEdges(r.Edge, iv) {
				out = append(out, b.Edges[h].Prov)
			}
		}
		return out
	}
	switch op.Kind {
	case bt.OpAssertNode:
		b.propTypes(op.Props, fmt.Sprintf("/ops/%d/props", i), &out)
		if len(b.believedNodes(op.UID, op.Valid)) > 0 {
			at("belief.implicit", "/vt_s")
		}
	case bt.OpAssertEdge:
		if !nodeAt(op.Edge.Src, op.Valid.Start) {
			at("entity.unknown", "/src")
		}
		if !nodeAt(op.Edge.Dst, op.Valid.Start) {
			at("entity.unknown", "/dst")
		}
		b.propTypes(op.Props, fmt.Sprintf("/ops/%d/props", i), &out)
		if len(b.believedEdges(op.Edge, op.Valid)) > 0 {
			at("belief.implicit", "/vt_s")
		}
	case bt.OpRetract:
		hits := hitProvs(op.Ref, bt.Interval{Start: op.At, End: bt.OpenEnd})
		if len(hits) == 0 {
			at("entity.unknown", "/ref")
		} else if byUser(hits) {
			at("authority.override", "/ref")
		}
	case bt.OpCorrect:
		hits := hitProvs(op.Ref, op.Valid)
		if len(hits) == 0 {
			at("entity.unknown", "/ref")
			break
		}
		if byUser(hits) {
			at("authority.override", "/ref")
		}
		b.propTypes(op.Props, fmt.Sprintf("/ops/%d/props", i), &out)
	case bt.OpIngest:
		for j, e := range op.Events {
			b.propTypes(e.Props, fmt.Sprintf("/ops/%d/events/%d/props", i, j), &out)
		}
	}
	return out
}

// propTypes flags each property whose JSON type (int and float being one,
// null matching anything) no version b holds uses for the key, when some
// version holds the key at all.
func (b *batch) propTypes(p bt.Props, path string, out *[]string) {
	kind := func(x any) string {
		switch x.(type) {
		case nil:
			return "null"
		case string:
			return "string"
		case int64, float64:
			return "number"
		case bool:
			return "bool"
		case []any:
			return "array"
		}
		return "object"
	}
	m := p.Map()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		want := kind(m[k])
		if want == "null" {
			continue
		}
		seen, match := false, false
		look := func(q bt.Props) {
			if x, ok := q.Map()[k]; ok && x != nil {
				seen = true
				match = match || kind(x) == want
			}
		}
		for _, v := range b.Nodes {
			look(v.Props)
		}
		for _, v := range b.Edges {
			look(v.Props)
		}
		if seen && !match {
			*out = append(*out, path+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
			(*out)[len(*out)-1] = "props.type@" + (*out)[len(*out)-1]
		}
	}
}
