// Package oracle holds brute-force implementations of every operator,
// written independently of the engine: plain loops over all versions of a
// bitemporal.MemStore, no indexes. Tests run each operator against its
// oracle on random bi-temporal stores and require identical payloads.
//
// An oracle returns the operator's whole payload before paging: for a
// paginated operator, "rows" holds every row in order (the executor's
// paging is tested separately).
package oracle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// Func computes an operator's payload from its prepared arguments
// (defaults filled, as_of_tt pinned).
type Func func(s *bt.MemStore, args map[string]any) (map[string]any, error)

var funcs = map[string]Func{}

// register adds an oracle (from init functions).
func register(name string, f Func) { funcs[name] = f }

// Has reports whether an operator has an oracle.
func Has(op string) bool { _, ok := funcs[op]; return ok }

// Call runs the oracle of op.
func Call(s *bt.MemStore, op string, args map[string]any) (map[string]any, error) {
	f, ok := funcs[op]
	if !ok {
		return nil, fmt.Errorf("oracle: no oracle for %s", op)
	}
	return f(s, args)
}

// NotFound is the error an oracle returns where the operator must answer
// E_NOT_FOUND; the tests compare error codes, not messages.
type NotFound struct{ UID string }

func (e NotFound) Error() string { return "E_NOT_FOUND: " + e.UID }

// Refused is any other refusal, with the code the operator must use.
type Refused struct{ Code string }

func (e Refused) Error() string { return e.Code }

// eid is the edge identity id, computed here from its definition.
func eid(k bt.EdgeKey) string {
	b, _ := canon.Marshal([]any{k.Src, k.Dst, k.RelType, k.Disc})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:24]
}

// vid is the version id, computed from its definition.
func vid(identity string, tts, vts bt.Time) string {
	sum := sha256.Sum256([]byte(identity + ":" + strconv.FormatInt(tts, 10) + ":" + strconv.FormatInt(vts, 10)))
	return hex.EncodeToString(sum[:])[:24]
}

func asOf(args map[string]any) bt.Time { return num(args["as_of_tt"]) }

func num(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

// believedEdges lists every edge version believed at tt, in store order.
func believedEdges(s *bt.MemStore, tt bt.Time) []bt.EdgeVersion {
	var out []bt.EdgeVersion
	for _, e := range s.Edges {
		if bt.BelievedAt(e.TTs, e.TTe, tt) {
			out = append(out, e)
		}
	}
	return out
}

// believedNodes lists every node version believed at tt, in store order.
func believedNodes(s *bt.MemStore, tt bt.Time) []bt.NodeVersion {
	var out []bt.NodeVersion
	for _, n := range s.Nodes {
		if bt.BelievedAt(n.TTs, n.TTe, tt) {
			out = append(out, n)
		}
	}
	return out
}

func edgeRow(e bt.EdgeVersion) map[string]any {
	id := eid(e.Key)
	return map[string]any{"eid": id, "vid": vid(id, e.TTs, e.Valid.Start), "src": e.Key.Src, "dst": e.Key.Dst,
		"rel_type": e.Key.RelType, "vt_s": e.Valid.Start, "vt_e": e.Valid.End}
}

// known reports whether uid was registered at belief time tt.
func known(s *bt.MemStore, uid string, tt bt.Time) bool { return s.KnownAt(uid, tt) }

func anyRows(rows []map[string]any) []any {
	out := make([]any, len(rows))
	for i := range rows {
		out[i] = rows[i]
	}
	return out
}

// continues reports whether believed version e continues another believed
// version of the same identity (one ending exactly at e's start): a carved
// fragment, not a new occurrence. believed is the belief state's edges.
func continues(e bt.EdgeVersion, believed []bt.EdgeVersion) bool {
	for _, o := range believed {
		if o.Key == e.Key && o.Valid.End == e.Valid.Start && o.Valid != e.Valid {
			return true
		}
	}
	return false
}
