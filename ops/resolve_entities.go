package ops

import (
	"cmp"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Match scores of resolve_entities, best first.
const (
	resolveExact     = 0 // the uid equals the query
	resolveUIDSub    = 1 // the query is a substring of the uid (case-insensitive)
	resolveNameSub   = 2 // the query is a substring of props.name (case-insensitive)
	resolvePropMatch = 3 // no query: only the prop criterion matched
)

func init() {
	Register(&Spec{
		Name:    "resolve_entities",
		Summary: "Ground a name, uid fragment or property value to node uids (the only way to introduce uids into a plan).",
		Doc: `Finds the nodes a query names. Every node version believed at as_of_tt
(any valid time) is scored against query:
  0  uid == query (exact, case-sensitive);
  1  lower(query) is a substring of lower(uid);
  2  props.name is a non-empty JSON string and lower(query) is a substring of
     lower(props.name) (numbers, booleans, null never match: {"name":42} is
     not found by "42").
A uid's match is the best (lowest) score over its versions. Lower-casing is
Go's strings.ToLower (simple, one-rune-to-one-rune Unicode case mapping),
not Python's str.lower (full mapping): they differ only for the few
characters whose full lower case has several runes, e.g. U+0130 'İ' lowers
to "i" here and to "i̇" (i + U+0307) in Python. ASCII is unaffected.
prop {prop, value} adds a property criterion: some believed version of the
uid must have props[prop] matching value — a string value matches a string
property containing it (case-insensitive substring), a number matches a
numeric property equal to it (1 equals 1.0; booleans are not numbers), a
boolean matches the same boolean; value null, an object or an array is
E_INVALID_ARG. With query and prop both given a uid must satisfy both (its
match is the query score); with prop alone every uid that satisfies it gets
match 3. One of query or prop is required.
Each matched uid is reported with its canonical version: its latest believed
version by (vt_s, vid), whether or not that version matched; it supplies
label and name (props.name as stored, any JSON type; null if absent). label,
if given, keeps only uids whose canonical label equals it. Uids known only as
edge endpoints (no node version) are never found. Never E_NOT_FOUND: no
match is an empty result.
at (a valid time) resolves names as they were then: only the version
believed valid at at (a uid has at most one) is scored, the prop
criterion and the label filter apply to it, it is the row's canonical
version (label and name as of at), and the row says which version
matched: its vt_s and vt_e. A uid with no version valid at at is not
found. Without at, rows carry no vt_s/vt_e (as before at existed).`,
		Args: Obj("", map[string]*Schema{
			"query": Str("text to look for: an exact uid, a uid fragment or part of a name").NonEmpty().OrNull(),
			"prop": Obj("property criterion: props[prop] must match value", map[string]*Schema{
				"prop":  Str("property name").NonEmpty(),
				"value": Any("string (case-insensitive substring), number (numeric equality) or boolean"),
			}, "prop", "value").OrNull(),
			"label":    Str("keep only uids whose canonical version has this label").OrNull(),
			"at":       Timestamp("resolve names as of this valid time: only the version valid then is matched").OrNull(),
			"as_of_tt": AsOfTT(),
			"limit":    Limit(),
			"cursor":   Cursor(),
		}),
		Result: Paged("matched nodes, best match first", Obj("a matched node", map[string]*Schema{
			"uid":   UIDField("the node's uid: use it (via $ref) wherever a plan needs a uid"),
			"label": Str("label of the canonical (latest believed) version"),
			"name":  Any("props.name of the canonical version as stored (any JSON type), null if absent"),
			"match": Int("0 exact uid, 1 uid substring, 2 name substring, 3 property criterion only"),
			"vt_s":  Timestamp("with at: start of the valid interval of the version that matched"),
			"vt_e":  Timestamp("with at: end of the valid interval of the version that matched"),
		}), nil),
		Order:  "(match, uid), uid by code point",
		Paged:  true,
		RowKey: keyOf("match", "uid"),
		Cost: func(c *Call) Cost {
			return Cost{Rows: c.Stats.NodeVersions + c.Stats.Nodes}
		},
		Run: runResolveEntities,
	})
}

// resolveCrit is the parsed prop criterion.
type resolveCrit struct {
	prop string
	val  any // string (lower-cased), int64, float64 or bool
}

func resolveParseCrit(c *Call) (*resolveCrit, error) {
	m, _ := c.Args["prop"].(map[string]any)
	if m == nil {
		return nil, nil
	}
	p, _ := m["prop"].(string)
	switch v := m["value"].(type) {
	case string:
		return &resolveCrit{p, strings.ToLower(v)}, nil
	case int64, float64, bool:
		return &resolveCrit{p, v}, nil
	}
	return nil, Errorf(EInvalidArg, map[string]any{"path": "/prop/value", "hint": "use a string, a number or a boolean"},
		"prop value must be a string, number or boolean, got %s", kindOf(m["value"]))
}

// matches reports whether a property bag satisfies the criterion.
func (cr *resolveCrit) matches(props bt.Props) bool {
	if props == "" || !strings.Contains(string(props), cr.prop) {
		return false
	}
	v, ok := props.Map()[cr.prop]
	if !ok {
		return false
	}
	switch want := cr.val.(type) {
	case string:
		s, ok := v.(string)
		return ok && strings.Contains(strings.ToLower(s), want)
	case bool:
		b, ok := v.(bool)
		return ok && b == want
	default:
		return resolveNumEqual(v, want)
	}
}

// resolveNumEqual compares two JSON numbers exactly (1 == 1.0); anything
// that is not an int64 or float64 is not a number.
func resolveNumEqual(a, b any) bool {
	fa, ok1 := resolveBig(a)
	fb, ok2 := resolveBig(b)
	return ok1 && ok2 && fa.Cmp(fb) == 0
}

func resolveBig(v any) (*big.Float, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Float).SetInt64(x), true
	case float64:
		return big.NewFloat(x), true
	}
	return nil, false
}

func runResolveEntities(c *Call) (map[string]any, error) {
	crit, err := resolveParseCrit(c)
	if err != nil {
		return nil, err
	}
	hasQuery := c.Has("query")
	if !hasQuery && crit == nil {
		return nil, Errorf(EInvalidArg, map[string]any{"path": "/query", "hint": "pass query (a name or uid fragment), prop, or both"},
			"resolve_entities needs a query or a prop criterion")
	}
	query := c.Str("query")
	lq := strings.ToLower(query)
	wantLabel, hasLabel := c.Args["label"].(string)
	if c.Has("at") {
		return resolveAt(c, c.Int("at"), hasQuery, query, lq, crit, wantLabel, hasLabel)
	}

	// score is id's match score, or -1 when it does not match. A uid
	// match needs no props, so their versions are only counted; the
	// canonical version is found only for a label filter.
	score := func(id uint32) (int, error) {
		if !c.R.Known(id) {
			return -1, nil
		}
		uid := c.R.UID(id)
		s := -1
		switch {
		case !hasQuery:
			s = resolvePropMatch
		case uid == query:
			s = resolveExact
		case containsFold(uid, lq):
			s = resolveUIDSub
		}
		var count int64
		nameHit, critHit := false, crit == nil
		if s < 0 || crit != nil {
			count, nameHit, critHit = resolveScan(c.R, id, s < 0, lq, crit)
		} else {
			count = int64(c.R.CountNodeVersions(id))
		}
		if err := c.Work(count + 1); err != nil {
			return -1, err
		}
		if count == 0 || !critHit {
			return -1, nil
		}
		if s < 0 {
			if !nameHit {
				return -1, nil
			}
			s = resolveNameSub
		}
		if hasLabel && resolveLabel(c.R, id) != wantLabel {
			return -1, nil
		}
		return s, nil
	}
	// hits[s] are the ids scoring s in uid order, so the rows are the
	// score buckets one after the other.
	var hits [resolvePropMatch + 1][]uint32
	order, rank := c.R.UIDOrderRanks()
	// A query only needs the nodes the text index names (a superset of
	// its matches); a prop criterion alone reads every node.
	var ids []uint32
	indexed := false
	if hasQuery {
		ids, indexed = c.R.NodeTextCandidates(lq)
	}
	if indexed && len(ids) <= len(rank)/64 {
		// Few candidates: put in uid order.
		slices.SortFunc(ids, func(a, b uint32) int { return cmp.Compare(rank[a], rank[b]) })
		for _, id := range ids {
			s, err := score(id)
			if err != nil {
				return nil, err
			}
			if s >= 0 {
				hits[s] = append(hits[s], id)
			}
		}
	} else {
		// Many, or every node (in id order, the store's, so the reads are
		// sequential): each match marked at its uid rank, the marks then
		// read in rank order.
		var marks [resolvePropMatch + 1][]uint64
		mark := func(id uint32) error {
			s, err := score(id)
			if err != nil || s < 0 {
				return err
			}
			if marks[s] == nil {
				marks[s] = make([]uint64, (len(rank)+63)/64)
			}
			marks[s][rank[id]/64] |= 1 << (rank[id] % 64)
			return nil
		}
		if indexed {
			for _, id := range ids {
				if err := mark(id); err != nil {
					return nil, err
				}
			}
		} else {
			for id := range uint32(len(rank)) {
				if err := mark(id); err != nil {
					return nil, err
				}
			}
		}
		for s, m := range marks {
			n := 0
			for _, word := range m {
				n += bits.OnesCount64(word)
			}
			hits[s] = make([]uint32, 0, n)
			for w, word := range m {
				for ; word != 0; word &= word - 1 {
					hits[s] = append(hits[s], order[w*64+bits.TrailingZeros64(word)])
				}
			}
		}
	}
	return resolveRows(c, &hits)
}

// resolveRows is the payload of the uids hits[s] scoring s, each bucket in
// uid order: a typed row for each row of the call's page, nil for the rows
// before the cursor (the pager is told where the page starts) and past it.
func resolveRows(c *Call, hits *[resolvePropMatch + 1][]uint32) (map[string]any, error) {
	n := 0
	for _, h := range hits {
		n += len(h)
	}
	after, shown, err := resolvePage(c, n)
	if err != nil {
		return nil, err
	}
	// The rows are in (match, uid) order, so the first one after the
	// cursor is found by bisection.
	start := 0
	if after != nil {
		start = sort.Search(n, func(k int) bool {
			s := 0
			for k >= len(hits[s]) {
				k -= len(hits[s])
				s++
			}
			return compareKeys([]any{int64(s), c.R.UID(hits[s][k])}, after) > 0
		})
		c.pageStart = start + 1
	}
	end := min(n, start+shown)
	rows := make([]any, n)
	// typed is never grown: rows point into it. g is the index of the
	// bucket's first row.
	typed := make([]resolveRow, 0, end-start)
	g := 0
	for s, ids := range hits {
		for j := max(0, start-g); j < min(len(ids), end-g); j++ {
			id := ids[j]
			label, props, _ := c.R.LatestNodeVersion(id)
			name, floatFree := resolveName(props)
			row := resolveRow{uid: c.R.UID(id), label: label, name: name, match: int64(s)}
			if !floatFree {
				// The digest rounds floats, which a typed row does not.
				rows[g+j] = row.Map()
				continue
			}
			typed = append(typed, row)
			rows[g+j] = &typed[len(typed)-1]
		}
		g += len(ids)
	}
	c.typed = true
	return map[string]any{"rows": rows}, nil
}

// resolveScan reads id's believed versions: how many there are, whether
// a name contains lq (when name is set) and whether one satisfies crit
// (true when crit is nil). Apart from score, so that a uid match, which
// reads no versions, allocates nothing.
func resolveScan(r Reader, id uint32, name bool, lq string, crit *resolveCrit) (count int64, nameHit, critHit bool) {
	critHit = crit == nil
	r.EachNodeVersion(id, func(v bt.NodeVersion) {
		count++
		if name && !nameHit && resolveNameMatches(v.Props, lq) {
			nameHit = true
		}
		if !critHit && crit.matches(v.Props) {
			critHit = true
		}
	})
	return count, nameHit, critHit
}

// resolveLabel is the label of id's canonical version: its latest
// believed one.
func resolveLabel(r Reader, id uint32) string {
	label, _, _ := r.LatestNodeVersion(id)
	return label
}

// resolvePage is what of n rows the call's page needs built: the rows
// after the key after (the cursor's; nil without one), up to shown of
// them (n without a limit).
func resolvePage(c *Call, n int) (after []any, shown int, err error) {
	if cur, _ := c.Args["cursor"].(string); cur != "" {
		if _, after, err = decodeCursor(cur); err != nil {
			return nil, 0, err
		}
	}
	if l, ok := c.Args["limit"]; ok {
		return after, min(n, int(toInt(l))), nil
	}
	return after, n, nil
}

// resolveNameMatches: props.name is a non-empty string containing lq
// (case-insensitive).
func resolveNameMatches(p bt.Props, lq string) bool {
	if p == "" || !strings.Contains(string(p), `"name"`) {
		return false
	}
	s, ok := p.Map()["name"].(string)
	return ok && s != "" && strings.Contains(strings.ToLower(s), lq)
}

// resolveLater reports whether v comes after best by (vt_s, vid): the
// canonical version is the latest believed one. Believed versions of one
// uid have disjoint valid intervals, so vt_s alone decides; the vid
// comparison only guards the rule.
func resolveLater(uid string, v, best bt.NodeVersion) bool {
	return v.Valid.Start > best.Valid.Start ||
		v.Valid.Start == best.Valid.Start && engine.VID(uid, v.TTs, v.Valid.Start) > engine.VID(uid, best.TTs, best.Valid.Start)
}

// containsFold reports whether strings.ToLower(s) contains lq (already
// lower-cased), without allocating when s is ASCII.
func containsFold(s, lq string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.Contains(strings.ToLower(s), lq)
		}
	}
	if len(lq) > len(s) {
		return false
	}
	for i := 0; i+len(lq) <= len(s); i++ {
		j := 0
		for j < len(lq) && asciiLower(s[i+j]) == lq[j] {
			j++
		}
		if j == len(lq) {
			return true
		}
	}
	return false
}

func asciiLower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
