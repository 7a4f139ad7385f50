package ops

import (
	"slices"
	"sort"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// coActiveMaxPairs caps the number of result pairs (E_LIMIT above it).
const coActiveMaxPairs = 100_000

// coActiveRelations are the thirteen Allen relations, in manual order.
var coActiveRelations = []string{
	"before", "meets", "overlaps", "starts", "during", "finishes", "equals",
	"after", "met_by", "overlapped_by", "started_by", "contains", "finished_by",
}

func init() {
	Register(&Spec{
		Name:    "co_active",
		Summary: "Pairs of edge versions whose valid intervals stand in an Allen relation (interval join).",
		Doc: `Interval join of two edge sets. A = the believed edge versions matching
a_spec, B = those matching b_spec, over all valid time (there is no window):
a spec {src, dst, rel_type} keeps the versions whose fields equal every
given (non-null) field; an omitted or null field matches anything; a given
uid must be known at as_of_tt (E_NOT_FOUND). Returns every pair (a, b), a in
A, b in B, a and b different versions, with a R b for the Allen relation R.
Valid intervals are half-open, a = [as, ae), b = [bs, be); an open end is
2^62 and compares as that number:
  before        ae < bs and bs - ae <= gap   (a ends, a gap of 1..gap µs, b starts)
  meets         ae == bs                     (b starts the instant a ends)
  overlaps      as < bs < ae < be
  starts        as == bs and ae < be
  during        bs < as and ae < be          (a strictly inside b)
  finishes      bs < as and ae == be
  equals        as == bs and ae == be
  after         be < as and as - be <= gap   (b before a)
  met_by        be == as                     (b meets a)
  overlapped_by bs < as < be < ae            (b overlaps a)
  started_by    as == bs and be < ae         (b starts a)
  contains      as < bs and be < ae          (b during a)
  finished_by   as < bs and ae == be         (b finishes a)
Exactly one of the thirteen holds for any two intervals. gap (integer >= 1)
is required for before and after (E_INVALID_ARG), ignored otherwise.
Intervals are versions: the fragments of a carved edge are separate
intervals, and consecutive fragments of one identity meet.
Rows are {a, b} edge version rows. The join uses interval indexes over B
(sorted by start, by end, and by duration class), so the work is the
answers plus near misses; it is charged to the call's work budget (E_COST
when spent: narrow a_spec or b_spec). More than 100000 result pairs is
E_LIMIT (narrow a_spec/b_spec: src, dst, rel_type).`,
		Args: Obj("", map[string]*Schema{
			"a_spec":         coActiveSpecSchema("the left edge set"),
			"b_spec":         coActiveSpecSchema("the right edge set"),
			"allen_relation": Obj("the Allen relation a R b", map[string]*Schema{"relation": Enum("the relation", coActiveRelations...), "gap": Int("largest gap in µs (required for before and after)").Range(1, 1<<62).OrNull()}, "relation"),
			"as_of_tt":       AsOfTT(),
			"limit":          Limit(),
			"cursor":         Cursor(),
		}, "a_spec", "b_spec", "allen_relation"),
		Result: Paged("the matching pairs", Obj("a pair", map[string]*Schema{
			"a": EdgeRowSchema("the left edge version"),
			"b": EdgeRowSchema("the right edge version"),
		}), nil),
		Order: "rows by (a.vt_s, a.vid, b.vt_s, b.vid)",
		Paged: true,
		RowKey: func(row map[string]any) []any {
			a, b := rowMap(row["a"]), rowMap(row["b"])
			return []any{a["vt_s"], a["vid"], b["vt_s"], b["vid"]}
		},
		Cost: func(c *Call) Cost { return c.ScanCost(1) },
		Run:  runCoActive,
	})
}

func coActiveSpecSchema(desc string) *Schema {
	return Obj(desc+": edges whose fields equal every given field (omitted or null: any)", map[string]*Schema{
		"src":      UIDField("source node").OrNull(),
		"dst":      UIDField("destination node").OrNull(),
		"rel_type": Str("relation type").NonEmpty().OrNull(),
	})
}

// coActiveSelect lists the believed edge versions matching a spec, sorted
// by (vt_s, id), from the endpoint's adjacency list when an endpoint is
// given and from the interval index otherwise.
func coActiveSelect(c *Call, path string, spec map[string]any) ([]uint32, error) {
	src, _ := spec["src"].(string)
	dst, _ := spec["dst"].(string)
	rel, _ := spec["rel_type"].(string)
	var srcID, dstID uint32
	var err error
	if src != "" {
		if srcID, err = c.Node(path+"/src", src); err != nil {
			return nil, err
		}
	}
	if dst != "" {
		if dstID, err = c.Node(path+"/dst", dst); err != nil {
			return nil, err
		}
	}
	var list []uint32
	switch {
	case src != "":
		list = c.R.Out(srcID)
	case dst != "":
		list = c.R.In(dstID)
	default:
		// No endpoint: one sequential pass over every edge version (the
		// whole valid-time axis is asked for), then a sort of the matches.
		n := c.R.NumEdgeVersions()
		if err := c.Work(int64(n)); err != nil {
			return nil, err
		}
		for v := range uint32(n) {
			if c.R.Believed(v) && (rel == "" || c.R.RelType(v) == rel) {
				list = append(list, v)
			}
		}
		slices.SortFunc(list, func(p, q uint32) int {
			if sp, sq := c.R.Valid(p).Start, c.R.Valid(q).Start; sp != sq {
				return cmpOrdered(sp, sq)
			}
			return cmpOrdered(int64(p), int64(q))
		})
		return list, nil
	}
	if err := c.Work(int64(len(list))); err != nil {
		return nil, err
	}
	out := list[:0]
	for _, v := range list {
		if (src != "" && c.R.Src(v) != srcID) || (dst != "" && c.R.Dst(v) != dstID) || (rel != "" && c.R.RelType(v) != rel) {
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// coActiveIndex holds B three ways: sorted by start, sorted by end, and
// partitioned by duration class (class k: durations in [4^k, 4^(k+1)))
// with each class sorted by start.
type coActiveIndex struct {
	s, e       []int64  // starts / ends of byStart
	byStart    []uint32 // B by (vt_s, id)
	byEnd      []uint32 // B by (vt_e, id)
	ends       []int64  // ends of byEnd
	class      [32][]uint32
	classStart [32][]int64
}

func coActiveClass(d int64) int {
	k := 0
	for d >= 4 && k < 31 {
		d >>= 2
		k++
	}
	return k
}

func coActiveBuild(c *Call, b []uint32) *coActiveIndex {
	x := &coActiveIndex{byStart: b, s: make([]int64, len(b)), e: make([]int64, len(b))}
	for i, v := range b {
		iv := c.R.Valid(v)
		x.s[i], x.e[i] = iv.Start, iv.End
	}
	type endOf struct {
		e int64
		v uint32
	}
	byEnd := make([]endOf, len(b))
	for i, v := range b {
		byEnd[i] = endOf{x.e[i], v}
	}
	slices.SortFunc(byEnd, func(p, q endOf) int {
		if p.e != q.e {
			return cmpOrdered(p.e, q.e)
		}
		return cmpOrdered(int64(p.v), int64(q.v))
	})
	x.byEnd, x.ends = make([]uint32, len(b)), make([]int64, len(b))
	for i, p := range byEnd {
		x.byEnd[i], x.ends[i] = p.v, p.e
	}
	for i, v := range b { // b is sorted by start, so each class is too
		k := coActiveClass(x.e[i] - x.s[i])
		x.class[k] = append(x.class[k], v)
		x.classStart[k] = append(x.classStart[k], x.s[i])
	}
	return x
}

// within returns the positions [i, j) of keys (sorted) with lo <= key < hi.
func coActiveWithin(keys []int64, lo, hi int64) (int, int) {
	if lo >= hi {
		return 0, 0
	}
	i := sort.Search(len(keys), func(k int) bool { return keys[k] >= lo })
	j := i + sort.Search(len(keys)-i, func(k int) bool { return keys[i+k] >= hi })
	return i, j
}

// satAdd adds without overflowing past 2^62 + 1.
func coActiveAdd(a, b int64) int64 {
	if a > bt.OpenEnd+1-b {
		return bt.OpenEnd + 1
	}
	return a + b
}

// coActiveHolds is the relation predicate on half-open intervals; before
// and after also bound the distance between the intervals by gap.
func coActiveHolds(rel string, gap, as, ae, bs, be int64) bool {
	if allenRelation(as, ae, bs, be) != rel {
		return false
	}
	switch rel {
	case "before":
		return bs-ae <= gap
	case "after":
		return as-be <= gap
	}
	return true
}

func runCoActive(c *Call) (map[string]any, error) {
	ar, _ := c.Args["allen_relation"].(map[string]any)
	rel, _ := ar["relation"].(string)
	gap := toInt(ar["gap"])
	if (rel == "before" || rel == "after") && ar["gap"] == nil {
		return nil, Errorf(EInvalidArg, map[string]any{"path": "/allen_relation/gap", "hint": "give gap, the largest distance in µs between the end of one interval and the start of the other"},
			"relation %s needs a gap", rel)
	}
	aSpec, _ := c.Args["a_spec"].(map[string]any)
	bSpec, _ := c.Args["b_spec"].(map[string]any)
	A, err := coActiveSelect(c, "/a_spec", aSpec)
	if err != nil {
		return nil, err
	}
	B, err := coActiveSelect(c, "/b_spec", bSpec)
	if err != nil {
		return nil, err
	}
	sortByStartVID(c.R, A)
	x := coActiveBuild(c, B)
	vids := map[uint32]string{}
	vid := func(v uint32) string {
		s, ok := vids[v]
		if !ok {
			s = vidOf(c.R, v)
			vids[v] = s
		}
		return s
	}
	rowCache := map[uint32]*edgeVersionRow{}
	row := func(v uint32) *edgeVersionRow {
		r, ok := rowCache[v]
		if !ok {
			r = newEdgeVersionRow(c.R, v)
			rowCache[v] = r
		}
		return r
	}
	c.typed = true
	var rows []any
	var match []uint32
	for _, a := range A {
		iv := c.R.Valid(a)
		as, ae := iv.Start, iv.End
		match = match[:0]
		scan := func(list []uint32, i, j int) error {
			if err := c.Work(int64(j - i + 1)); err != nil {
				return err
			}
			for _, b := range list[i:j] {
				if b == a {
					continue
				}
				bv := c.R.Valid(b)
				if coActiveHolds(rel, gap, as, ae, bv.Start, bv.End) {
					match = append(match, b)
				}
			}
			return nil
		}
		var err error
		switch rel {
		case "before":
			i, j := coActiveWithin(x.s, coActiveAdd(ae, 1), coActiveAdd(ae, coActiveAdd(gap, 1)))
			err = scan(x.byStart, i, j)
		case "meets":
			i, j := coActiveWithin(x.s, ae, coActiveAdd(ae, 1))
			err = scan(x.byStart, i, j)
		case "overlaps", "contains":
			i, j := coActiveWithin(x.s, as+1, ae)
			err = scan(x.byStart, i, j)
		case "starts", "equals", "started_by":
			i, j := coActiveWithin(x.s, as, as+1)
			err = scan(x.byStart, i, j)
		case "during":
			for k := range x.class {
				span := int64(1) << (2 * (k + 1))
				if k >= 30 {
					span = bt.OpenEnd + 1
				}
				i, j := coActiveWithin(x.classStart[k], max(ae-span+1, 0), as)
				if err = scan(x.class[k], i, j); err != nil {
					break
				}
			}
		case "finishes", "finished_by":
			i, j := coActiveWithin(x.ends, ae, coActiveAdd(ae, 1))
			err = scan(x.byEnd, i, j)
		case "after":
			i, j := coActiveWithin(x.ends, as-gap, as)
			err = scan(x.byEnd, i, j)
		case "met_by":
			i, j := coActiveWithin(x.ends, as, as+1)
			err = scan(x.byEnd, i, j)
		case "overlapped_by":
			i, j := coActiveWithin(x.ends, as+1, ae)
			err = scan(x.byEnd, i, j)
		}
		if err != nil {
			return nil, err
		}
		if len(rows)+len(match) > coActiveMaxPairs {
			return nil, Errorf(ELimit, map[string]any{"path": "/a_spec", "max_pairs": int64(coActiveMaxPairs),
				"hint": "narrow a_spec or b_spec (src, dst, rel_type)"},
				"co_active would return more than %d pairs", coActiveMaxPairs)
		}
		slices.SortFunc(match, func(p, q uint32) int {
			sp, sq := c.R.Valid(p).Start, c.R.Valid(q).Start
			if sp != sq {
				return cmpOrdered(sp, sq)
			}
			return strings.Compare(vid(p), vid(q))
		})
		for _, b := range match {
			rows = append(rows, &pairRow{row(a), row(b)})
		}
	}
	if rows == nil {
		rows = []any{}
	}
	return map[string]any{"rows": rows}, nil
}
