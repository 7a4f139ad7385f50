package sqlengine

import (
	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// allenSQL is each Allen relation a R b as a predicate on the half-open
// intervals [a.vt_s, a.vt_e) and [b.vt_s, b.vt_e) (they are not empty);
// %[1]d is the gap of before and after (a literal: an integer).
var allenSQL = map[string]string{
	"before":        "a.vt_e < b.vt_s AND b.vt_s - a.vt_e <= %[1]d",
	"meets":         "a.vt_e = b.vt_s",
	"overlaps":      "a.vt_s < b.vt_s AND b.vt_s < a.vt_e AND a.vt_e < b.vt_e",
	"starts":        "a.vt_s = b.vt_s AND a.vt_e < b.vt_e",
	"during":        "b.vt_s < a.vt_s AND a.vt_e < b.vt_e",
	"finishes":      "b.vt_s < a.vt_s AND a.vt_e = b.vt_e",
	"equals":        "a.vt_s = b.vt_s AND a.vt_e = b.vt_e",
	"after":         "b.vt_e < a.vt_s AND a.vt_s - b.vt_e <= %[1]d",
	"met_by":        "b.vt_e = a.vt_s",
	"overlapped_by": "b.vt_s < a.vt_s AND a.vt_s < b.vt_e AND b.vt_e < a.vt_e",
	"started_by":    "a.vt_s = b.vt_s AND b.vt_e < a.vt_e",
	"contains":      "a.vt_s < b.vt_s AND b.vt_e < a.vt_e",
	"finished_by":   "a.vt_s < b.vt_s AND a.vt_e = b.vt_e",
}

// coActiveQuery is the interval join: A and B are the believed versions
// matching each spec ($2..$4 and $5..$7: src, dst, rel_type, ” for any),
// materialized (under Citus each is a filter scan, a router query when its
// src is given, evaluated as an intermediate result), then joined on the
// relation's predicate. One more row than the cap is asked for, so that a
// result over it is refused without reading it all.
var coActiveQuery = `WITH a AS MATERIALIZED (SELECT vid, src, dst, rel_type, disc, vt_s, vt_e, tt_s FROM edge_versions
  WHERE tt_s <= $1 AND $1 < tt_e AND ($2 = '' OR src = $2) AND ($3 = '' OR dst = $3) AND ($4 = '' OR rel_type = $4)),
b AS MATERIALIZED (SELECT vid, src, dst, rel_type, disc, vt_s, vt_e, tt_s FROM edge_versions
  WHERE tt_s <= $1 AND $1 < tt_e AND ($5 = '' OR src = $5) AND ($6 = '' OR dst = $6) AND ($7 = '' OR rel_type = $7))
SELECT a.src, a.dst, a.rel_type, a.disc, a.vt_s, a.vt_e, a.tt_s, b.src, b.dst, b.rel_type, b.disc, b.vt_s, b.vt_e, b.tt_s
FROM a JOIN b ON a.vid <> b.vid AND (%s)
LIMIT %d`

// runCoActive is co_active: the interval join in one statement; the pairs
// are sorted and rendered by the operator's own code.
func runCoActive(p *pinned, c *ops.Call) (map[string]any, error) {
	ar, _ := c.Args["allen_relation"].(map[string]any)
	rel, _ := ar["relation"].(string)
	gap, _ := ar["gap"].(int64)
	if (rel == "before" || rel == "after") && ar["gap"] == nil {
		return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/allen_relation/gap", "hint": "give gap, the largest distance in µs between the end of one interval and the start of the other"},
			"relation %s needs a gap", rel)
	}
	pred, ok := allenSQL[rel]
	if !ok {
		return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/allen_relation/relation"}, "unknown Allen relation %q", rel)
	}
	if rel == "before" || rel == "after" {
		pred = sprintf(pred, gap)
	}
	var specArgs []any
	for _, side := range []string{"a_spec", "b_spec"} {
		spec, _ := c.Args[side].(map[string]any)
		for _, f := range []string{"src", "dst", "rel_type"} {
			v, _ := spec[f].(string)
			if v != "" && f != "rel_type" {
				if err := p.known(c, "/"+side+"/"+f, v); err != nil {
					return nil, err
				}
			}
			specArgs = append(specArgs, v)
		}
	}
	args := append([]any{p.asOf}, specArgs...)
	rows, err := p.tx.Query(c.Ctx, sprintf(coActiveQuery, pred, ops.CoActiveMaxPairs+1), args...)
	if err != nil {
		return nil, err
	}
	var (
		pairs [][2]bt.EdgeVersion
		a, b  bt.EdgeVersion
	)
	if _, err := pgx.ForEachRow(rows, []any{&a.Key.Src, &a.Key.Dst, &a.Key.RelType, &a.Key.Disc, &a.Valid.Start, &a.Valid.End, &a.TTs,
		&b.Key.Src, &b.Key.Dst, &b.Key.RelType, &b.Key.Disc, &b.Valid.Start, &b.Valid.End, &b.TTs}, func() error {
		pairs = append(pairs, [2]bt.EdgeVersion{a, b})
		return c.Work(1)
	}); err != nil {
		return nil, err
	}
	return ops.CoActivePayload(pairs)
}
