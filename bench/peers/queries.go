package peers

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/bench"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// dialect is what differs between the SQL systems.
type dialect struct {
	// div is integer division of two BIGINT expressions.
	div func(a, b string) string
	// nameIfString is props.name when it is a JSON string, else NULL.
	nameIfString func(props string) string
	// oneScan writes the event CTE as one scan with the fragment test
	// under an OR (a hashed anti-join) instead of a union of the single-
	// and multi-version rows.
	oneScan bool
	// rangeIndex: the valid interval has a GiST index on
	// int8range(vt_s, vt_e), used by range containment (validIn).
	rangeIndex bool
	// seedDriven: snapshot_subgraph walks out of the seeds by index
	// lookups (a LATERAL per frontier node) instead of joining against
	// the whole snapshot.
	seedDriven bool
	// antiJoin: the fragment test of events is an anti-join against the
	// believed multi-version rows, not a correlated NOT EXISTS.
	antiJoin bool
}

// validIn is validAt written so that the system's interval index serves it.
func (d dialect) validIn(alias string, t int64) string {
	if d.rangeIndex {
		return fmt.Sprintf("int8range(%[1]s.vt_s, %[1]s.vt_e) @> CAST(%[2]d AS BIGINT)", alias, t)
	}
	return validAt(alias, t)
}

// peerQuery is one registry query in SQL, with the reading of the native
// payload that must match it.
type peerQuery struct {
	// sql is the query; its rows, columns joined by "|", are the answer lines.
	sql func(d dialect, a args) string
	// run replaces sql for queries driven by a loop of statements.
	run func(ctx context.Context, c *sql.Conn, d dialect, a args) ([]string, error)
	// ours reads the answer lines from the complete native payload.
	ours func(p map[string]any) []string
	// ordered: the answer is a ranked prefix, compared in order.
	ordered bool
}

// args reads registry arguments, plus the pinned belief time tt.
type args struct {
	m  map[string]any
	tt bt.Time
}

func (a args) int(path ...string) int64 {
	var v any = a.m
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	panic(fmt.Sprintf("peers: argument %v is %T, not an integer", path, v))
}

func (a args) str(key string) string { return a.m[key].(string) }

func (a args) strs(key string) []string {
	var out []string
	for _, v := range a.m[key].([]any) {
		out = append(out, v.(string))
	}
	return out
}

// lit is a SQL string literal.
func lit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func litList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = lit(s)
	}
	return strings.Join(q, ", ")
}

func num(x int64) string { return strconv.FormatInt(x, 10) }

// believed is the transaction-time half of the visibility rule.
func believed(alias string, tt bt.Time) string {
	return fmt.Sprintf("%[1]s.tt_s <= %[2]d AND %[2]d < %[1]s.tt_e", alias, tt)
}

// validAt is the valid-time half at instant t.
func validAt(alias string, t int64) string {
	return fmt.Sprintf("%[1]s.vt_s <= %[2]d AND %[2]d < %[1]s.vt_e", alias, t)
}

// continues is true for a carved fragment: another believed version of
// the same identity ends where this one starts. Only identities with
// several versions (multi) can have fragments, so the lookup is confined
// to those rows on both sides.
func continues(alias string, tt bt.Time) string {
	return fmt.Sprintf("(%[1]s.multi AND EXISTS (SELECT 1 FROM edges w WHERE w.multi AND w.eid = %[1]s.eid AND w.vt_e = %[1]s.vt_s AND %[2]s))",
		alias, believed("w", tt))
}

// events is a CTE body: the occurrences (first fragments) starting in [ta,
// tb). Single-version identities are occurrences without a lookup; the
// union keeps the fragment test off the bulk of the rows.
func events(d dialect, tt bt.Time, ta, tb int64, extra string) string {
	where := fmt.Sprintf("%s AND e.vt_s >= %d AND e.vt_s < %d %s", believed("e", tt), ta, tb, extra)
	if d.oneScan {
		return fmt.Sprintf("SELECT e.* FROM edges e WHERE %s AND NOT %s", where, continues("e", tt))
	}
	if d.antiJoin {
		// A hash anti-join of the window's multi-version rows against the
		// believed multi-version rows ending where they start.
		return fmt.Sprintf(`SELECT e.* FROM edges e WHERE %[1]s AND NOT e.multi UNION ALL
SELECT e.* FROM edges e LEFT JOIN (SELECT w.eid, w.vt_e FROM edges w WHERE w.multi AND %[2]s) w ON w.eid = e.eid AND w.vt_e = e.vt_s
WHERE %[1]s AND e.multi AND w.eid IS NULL`, where, believed("w", tt))
	}
	return fmt.Sprintf("SELECT e.* FROM edges e WHERE %[1]s AND NOT e.multi UNION ALL SELECT e.* FROM edges e WHERE %[1]s AND e.multi AND NOT %[2]s",
		where, continues("e", tt))
}

func nBuckets(ta, tb, stride int64) int64 { return (tb - ta + stride - 1) / stride }

// queries maps registry ids to their SQL forms.
var queries = map[string]peerQuery{
	"hist.single":     histQuery,
	"hist.asof":       histQuery,
	"snap.hop2":       {sql: snapSQL, ours: snapOurs},
	"diff.global":     {sql: diffSQL, ours: diffOurs},
	"reach.window":    {run: reachRun, ours: reachOurs},
	"paths.k":         {sql: pathsSQL, ours: pathsOurs, ordered: true},
	"series.count":    {sql: seriesSQL, ours: rowsOf("t_a", "value")},
	"burst.zscore":    {sql: burstSQL, ours: rowsOf("t_a", "value", "score")},
	"nbr.evolution":   {sql: nbrSQL, ours: nbrOurs},
	"coactive.narrow": {sql: coactiveSQL, ours: coactiveOurs},
	"resolve.substr":  {sql: resolveSQL, ours: rowsOf("uid", "match", "label")},
	"agg.rel_bucket":  {sql: aggSQL, ours: rowsOf("rel_type", "t_a", "count", "distinct_dst")},
	"motif.filtered":  {sql: motifSQL, ours: motifOurs},
}

// Supported reports whether the registry query has a SQL form.
func Supported(q bench.Query) bool { _, ok := queries[q.ID]; return ok }

var histQuery = peerQuery{
	sql: func(d dialect, a args) string {
		tt := a.tt
		if _, ok := a.m["as_of_tt"]; ok {
			tt = a.int("as_of_tt")
		}
		// The key alone in a MATERIALIZED CTE: an index serves a lone
		// equality (DuckDB's ART only then).
		return fmt.Sprintf("WITH n AS MATERIALIZED (SELECT * FROM nodes WHERE uid = %s) SELECT n.vid, n.vt_s, n.vt_e, n.label, n.props FROM n WHERE %s ORDER BY n.vt_s, n.vid",
			lit(a.str("uid")), believed("n", tt))
	},
	ours: rowsOf("vid", "vt_s", "vt_e", "label", "props"),
	// The history is small and ordered; order is part of the answer.
	ordered: true,
}

func snapSQL(d dialect, a args) string {
	t := a.int("t_valid")
	if d.seedDriven {
		return snapSeedSQL(d, a)
	}
	return fmt.Sprintf(`WITH RECURSIVE
live AS (SELECT DISTINCT n.uid FROM nodes n WHERE %[1]s AND %[2]s),
se AS (SELECT e.vid, e.src, e.dst FROM edges e WHERE %[3]s AND %[4]s),
adj AS (SELECT src AS a, dst AS b FROM se UNION ALL SELECT dst, src FROM se),
r(uid, hop) AS (
  SELECT uid, 0 FROM live WHERE uid IN (%[5]s)
  UNION
  SELECT adj.b, r.hop + 1 FROM r JOIN adj ON adj.a = r.uid JOIN live ON live.uid = adj.b WHERE r.hop < %[6]d),
reached AS (SELECT uid, min(hop) AS hop FROM r GROUP BY uid)
SELECT 'n', uid, hop FROM reached
UNION ALL
SELECT 'e', se.vid, 0 FROM se JOIN reached x ON x.uid = se.src JOIN reached y ON y.uid = se.dst`,
		validAt("n", t), believed("n", a.tt), validAt("e", t), believed("e", a.tt), litList(a.strs("seeds")), a.int("hops"))
}

// snapSeedSQL walks out of the seeds: each round looks up the frontier's
// incident edges valid at t by the (src, vt_s) and (dst, vt_s) indexes and
// keeps far endpoints with a node version valid at t, so only the
// neighbourhood is read, never the whole snapshot.
func snapSeedSQL(d dialect, a args) string {
	t := a.int("t_valid")
	edge := func(alias string) string { return validAt(alias, t) + " AND " + believed(alias, a.tt) }
	return fmt.Sprintf(`WITH RECURSIVE
r(uid, hop) AS (
  SELECT n.uid, 0 FROM nodes n WHERE n.uid IN (%[1]s) AND %[2]s AND %[3]s
  UNION
  SELECT x.b, r.hop + 1 FROM r CROSS JOIN LATERAL (
      SELECT e.dst AS b FROM edges e WHERE e.src = r.uid AND %[4]s
      UNION ALL SELECT e.src FROM edges e WHERE e.dst = r.uid AND %[4]s) x
  WHERE r.hop < %[5]d AND EXISTS (SELECT 1 FROM nodes n WHERE n.uid = x.b AND %[2]s AND %[3]s)),
reached AS (SELECT uid, min(hop) AS hop FROM r GROUP BY uid)
SELECT 'n', uid, hop FROM reached
UNION ALL
SELECT 'e', e.vid, 0 FROM reached x JOIN edges e ON e.src = x.uid JOIN reached y ON y.uid = e.dst WHERE %[4]s`,
		litList(a.strs("seeds")), validAt("n", t), believed("n", a.tt), edge("e"), a.int("hops"))
}

func snapOurs(p map[string]any) []string {
	var out []string
	for _, n := range list(p, "nodes") {
		out = append(out, line("n", n["uid"], n["hop"]))
	}
	for _, e := range list(p, "rows") {
		out = append(out, line("e", e["vid"], 0))
	}
	return out
}

// diffCap is the per-list limit of the native diff (the largest page).
const diffCap = 10_000

func diffSQL(d dialect, a args) string {
	t1, t2 := a.int("t1"), a.int("t2")
	// Only versions valid at exactly one of t1 and t2 can differ: a
	// version valid at both is the same on both sides, and at one instant
	// an identity has at most one believed version. So each side reads
	// the versions with a boundary between t1 and t2 (valid at t1 and
	// ended by t2, or started after t1 and valid at t2), through the
	// interval index (PostgreSQL: GiST containment of the instant, then
	// the other end), or by plain comparisons the zone maps prune
	// (DuckDB), instead of the whole of both snapshots.
	lo, hi := min(t1, t2), max(t1, t2)
	endsIn := func(x string) string { // valid at lo, not at hi
		if d.rangeIndex {
			return fmt.Sprintf("%s AND %s.vt_e <= %d", d.validIn(x, lo), x, hi)
		}
		return fmt.Sprintf("%[1]s.vt_e > %[2]d AND %[1]s.vt_e <= %[3]d AND %[1]s.vt_s <= %[2]d", x, lo, hi)
	}
	startsIn := func(x string) string { // valid at hi, not at lo
		if d.rangeIndex {
			return fmt.Sprintf("%s AND %s.vt_s > %d", d.validIn(x, hi), x, lo)
		}
		return fmt.Sprintf("%[1]s.vt_s > %[2]d AND %[1]s.vt_s <= %[3]d AND %[1]s.vt_e > %[3]d", x, lo, hi)
	}
	at1, at2 := endsIn, startsIn
	if t1 > t2 {
		at1, at2 = startsIn, endsIn
	}
	return fmt.Sprintf(`WITH
n1 AS (SELECT n.uid, n.vid, n.label, n.props FROM nodes n WHERE %[1]s AND %[3]s),
n2 AS (SELECT n.uid, n.vid, n.label, n.props FROM nodes n WHERE %[2]s AND %[3]s),
e1 AS (SELECT e.eid, e.vid, e.props FROM edges e WHERE %[4]s AND %[6]s),
e2 AS (SELECT e.eid, e.vid, e.props FROM edges e WHERE %[5]s AND %[6]s),
d AS (
  SELECT 'na' AS cat, n2.uid AS id FROM n2 WHERE NOT EXISTS (SELECT 1 FROM n1 WHERE n1.uid = n2.uid)
  UNION ALL SELECT 'nr', n1.uid FROM n1 WHERE NOT EXISTS (SELECT 1 FROM n2 WHERE n2.uid = n1.uid)
  UNION ALL SELECT 'ea', e2.eid FROM e2 WHERE NOT EXISTS (SELECT 1 FROM e1 WHERE e1.eid = e2.eid)
  UNION ALL SELECT 'er', e1.eid FROM e1 WHERE NOT EXISTS (SELECT 1 FROM e2 WHERE e2.eid = e1.eid)
  UNION ALL SELECT 'pn', n1.uid FROM n1 JOIN n2 ON n1.uid = n2.uid WHERE n1.vid <> n2.vid AND (n1.label <> n2.label OR n1.props <> n2.props)
  UNION ALL SELECT 'pe', e1.eid FROM e1 JOIN e2 ON e1.eid = e2.eid WHERE e1.vid <> e2.vid AND e1.props <> e2.props)
SELECT cat, id, n FROM (
  SELECT cat, id, count(*) OVER (PARTITION BY cat) AS n, row_number() OVER (PARTITION BY cat ORDER BY id) AS rn FROM d) x
WHERE rn <= %[7]d`,
		at1("n"), at2("n"), believed("n", a.tt), at1("e"), at2("e"), believed("e", a.tt), diffCap)
}

func diffOurs(p map[string]any) []string {
	var out []string
	str := func(cat, total string, items []any, id func(any) any) {
		n := p[total]
		for _, it := range items {
			out = append(out, line(cat, id(it), n))
		}
	}
	self := func(x any) any { return x }
	eid := func(x any) any { return x.(map[string]any)["eid"] }
	str("na", "nodes_added_total", p["nodes_added"].([]any), self)
	str("nr", "nodes_removed_total", p["nodes_removed"].([]any), self)
	str("ea", "edges_added_total", p["edges_added"].([]any), eid)
	str("er", "edges_removed_total", p["edges_removed"].([]any), eid)
	var nodes, edges int64
	for _, c := range list(p, "props_changed") {
		if c["kind"] == "node" {
			nodes++
		} else {
			edges++
		}
	}
	for _, c := range list(p, "props_changed") {
		if c["kind"] == "node" {
			out = append(out, line("pn", c["id"], nodes))
		} else {
			out = append(out, line("pe", c["id"], edges))
		}
	}
	return out
}

// reachRun is the set-at-a-time search: each round relaxes the edges out of
// the nodes whose earliest arrival improved in the previous round.
func reachRun(ctx context.Context, c *sql.Conn, d dialect, a args) ([]string, error) {
	src, ta, tb := a.str("src"), a.int("window", "t_a"), a.int("window", "t_b")
	exec := func(q string, xs ...any) error { _, err := c.ExecContext(ctx, q); return err }
	for _, q := range []string{
		"DROP TABLE IF EXISTS reach", "DROP TABLE IF EXISTS front", "DROP TABLE IF EXISTS cand",
		"CREATE TEMP TABLE reach (uid TEXT, arr BIGINT)",
		fmt.Sprintf("CREATE TEMP TABLE front AS SELECT CAST(%s AS TEXT) AS uid, CAST(%d AS BIGINT) AS arr", lit(src), ta),
	} {
		if err := exec(q); err != nil {
			return nil, err
		}
	}
	relax := fmt.Sprintf(`CREATE TEMP TABLE cand AS
SELECT e.dst AS uid, min(greatest(f.arr, e.vt_s)) AS arr FROM front f JOIN edges e ON e.src = f.uid
WHERE %s AND e.vt_s < %d AND e.vt_e > greatest(f.arr, e.vt_s) AND e.dst <> %s GROUP BY e.dst`, believed("e", a.tt), tb, lit(src))
	for round := 0; ; round++ {
		if round > 1_000_000 {
			return nil, fmt.Errorf("reachability did not settle")
		}
		if err := exec(relax); err != nil {
			return nil, err
		}
		if err := exec("DELETE FROM cand WHERE EXISTS (SELECT 1 FROM reach r WHERE r.uid = cand.uid AND r.arr <= cand.arr)"); err != nil {
			return nil, err
		}
		var n int64
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM cand").Scan(&n); err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		for _, q := range []string{
			"DELETE FROM reach WHERE uid IN (SELECT uid FROM cand)",
			"INSERT INTO reach SELECT uid, arr FROM cand",
			"DROP TABLE front", "ALTER TABLE cand RENAME TO front",
		} {
			if err := exec(q); err != nil {
				return nil, err
			}
		}
	}
	return queryLines(ctx, c, "SELECT uid, arr FROM reach")
}

func reachOurs(p map[string]any) []string {
	var out []string
	for _, r := range list(p, "rows") {
		out = append(out, line(r["uid"], r["earliest_arrival"]))
	}
	return out
}

func pathsSQL(d dialect, a args) string {
	src, dst := lit(a.str("src")), lit(a.str("dst"))
	ta, tb := a.int("window", "t_a"), a.int("window", "t_b")
	if a.int("max_hops") != 3 {
		panic("peers: paths.k is written for max_hops 3")
	}
	// hop(alias, at): edge alias is in the window and leaves the previous
	// head at time at; a carved fragment only continues a walk already on
	// it. Each hop reads edges by source through the index, so only the
	// walks' frontier is touched, not the whole window.
	hop := func(e, at string) string {
		return fmt.Sprintf("%[1]s AND %[2]s.vt_s < %[3]d AND %[2]s.vt_e > %[4]d AND greatest(%[5]s, %[2]s.vt_s) < %[2]s.vt_e AND (%[5]s >= %[2]s.vt_s OR NOT %[6]s)",
			believed(e, a.tt), e, tb, ta, at, continues(e, a.tt))
	}
	return fmt.Sprintf(`WITH
k1 AS MATERIALIZED (SELECT * FROM edges WHERE src = %[2]s),
p1 AS (SELECT e.vt_s AS s1, e.eid AS x1, greatest(%[1]d, e.vt_s) AS a1, e.dst AS v1 FROM k1 e
  WHERE e.dst <> %[2]s AND %[4]s),
p2 AS (SELECT p1.*, e.vt_s AS s2, e.eid AS x2, greatest(p1.a1, e.vt_s) AS a2, e.dst AS v2 FROM p1 JOIN edges e ON e.src = p1.v1
  WHERE p1.v1 <> %[3]s AND e.dst <> %[2]s AND e.dst <> p1.v1 AND %[5]s),
p3 AS (SELECT p2.*, e.vt_s AS s3, e.eid AS x3, greatest(p2.a2, e.vt_s) AS a3 FROM p2 JOIN edges e ON e.src = p2.v2
  WHERE p2.v2 <> %[3]s AND e.dst = %[3]s AND %[6]s),
paths AS (
  SELECT a1 AS arr, a1 AS dep, 1 AS hops, s1, x1, CAST(NULL AS BIGINT) AS s2, CAST(NULL AS TEXT) AS x2, CAST(NULL AS BIGINT) AS s3, CAST(NULL AS TEXT) AS x3 FROM p1 WHERE v1 = %[3]s
  UNION ALL SELECT a2, a1, 2, s1, x1, s2, x2, NULL, NULL FROM p2 WHERE v2 = %[3]s
  UNION ALL SELECT a3, a1, 3, s1, x1, s2, x2, s3, x3 FROM p3)
SELECT count(*) OVER () AS total, arr, dep, hops, x1, x2, x3 FROM paths ORDER BY arr, hops, s1, x1, s2, x2, s3, x3 LIMIT %[7]d`,
		ta, src, dst, hop("e", num(ta)), hop("e", "p1.a1"), hop("e", "p2.a2"), a.int("k"))
}

func pathsOurs(p map[string]any) []string {
	var out []string
	for _, r := range list(p, "rows") {
		eids := []any{nil, nil, nil}
		for i, e := range r["edges"].([]any) {
			eids[i] = e.(map[string]any)["eid"]
		}
		out = append(out, line(p["rows_total"], r["arrival"], r["departure"], r["hops"], eids[0], eids[1], eids[2]))
	}
	return out
}

func seriesCTE(d dialect, a args) string {
	ta, tb, s := a.int("window", "t_a"), a.int("window", "t_b"), a.int("stride")
	return fmt.Sprintf(`ev AS (%s),
b AS (SELECT %s AS i, count(*) AS x FROM ev GROUP BY 1),
s AS (SELECT g.i, coalesce(b.x, 0) AS x FROM generate_series(0, %d) AS g(i) LEFT JOIN b ON b.i = g.i)`,
		events(d, a.tt, ta, tb, ""), d.div("vt_s - "+num(ta), num(s)), nBuckets(ta, tb, s)-1)
}

func seriesSQL(d dialect, a args) string {
	ta, s := a.int("window", "t_a"), a.int("stride")
	return fmt.Sprintf("WITH %s SELECT %d + i * %d, x FROM s ORDER BY i", seriesCTE(d, a), ta, s)
}

func burstSQL(d dialect, a args) string {
	if a.m["method"] != "zscore" || a.m["params"] != nil {
		panic("peers: burst.zscore is written for method zscore with default params")
	}
	ta, s := a.int("window", "t_a"), a.int("stride")
	cte := seriesCTE(d, a)
	// Defaults: w 10, z 3, min_history 3, min_excess 1.
	return fmt.Sprintf(`WITH %s,
h AS (SELECT i, x, CAST(avg(x) OVER w AS DOUBLE PRECISION) AS m, CAST(stddev_pop(x) OVER w AS DOUBLE PRECISION) AS sd, count(*) OVER w AS c
  FROM s WINDOW w AS (ORDER BY i ROWS BETWEEN 10 PRECEDING AND 1 PRECEDING)),
z AS (SELECT i, x, m, sd, c, CASE WHEN sd > 0 THEN (x - m) / sd END AS score FROM h)
SELECT %d + i * %d, x, score FROM z WHERE c >= 3 AND x > m AND x - m >= 1 AND (sd = 0 OR score >= 3) ORDER BY i`, cte, ta, s)
}

func nbrSQL(d dialect, a args) string {
	u := lit(a.str("uid"))
	t1, t2 := a.int("t1"), a.int("t2")
	stride := max(1, (t2-t1)/20)
	return fmt.Sprintf(`WITH
ks AS MATERIALIZED (SELECT * FROM edges WHERE src = %[1]s),
kd AS MATERIALIZED (SELECT * FROM edges WHERE dst = %[1]s),
inc AS (SELECT e.src, e.dst, e.vt_s, e.vt_e FROM ks e WHERE %[2]s
  UNION ALL SELECT e.src, e.dst, e.vt_s, e.vt_e FROM kd e WHERE e.src <> %[1]s AND %[2]s),
nb AS (SELECT CASE WHEN src = %[1]s THEN dst ELSE src END AS o, vt_s, vt_e FROM inc WHERE src <> dst),
a AS (SELECT DISTINCT o FROM nb WHERE vt_s <= %[3]d AND %[3]d < vt_e),
b AS (SELECT DISTINCT o FROM nb WHERE vt_s <= %[4]d AND %[4]d < vt_e)
SELECT 'g', b.o, CAST(0 AS BIGINT) FROM b WHERE NOT EXISTS (SELECT 1 FROM a WHERE a.o = b.o)
UNION ALL SELECT 'l', a.o, 0 FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.o = a.o)
UNION ALL SELECT 'd', CAST(%[3]d + g.i * %[5]d AS TEXT), count(inc.src) FROM generate_series(0, %[6]d) AS g(i)
  LEFT JOIN inc ON inc.vt_s <= %[3]d + g.i * %[5]d AND %[3]d + g.i * %[5]d < inc.vt_e GROUP BY g.i`,
		u, believed("e", a.tt), t1, t2, stride, nBuckets(t1, t2, stride)-1)
}

func nbrOurs(p map[string]any) []string {
	var out []string
	for _, u := range p["neighbors_gained"].([]any) {
		out = append(out, line("g", u, 0))
	}
	for _, u := range p["neighbors_lost"].([]any) {
		out = append(out, line("l", u, 0))
	}
	for _, r := range list(p, "degree_series") {
		out = append(out, line("d", r["t"], r["degree"]))
	}
	return out
}

func coactiveSQL(d dialect, a args) string {
	if a.m["allen_relation"].(map[string]any)["relation"] != "overlaps" {
		panic("peers: coactive.narrow is written for overlaps")
	}
	// Each side reads its rows by one indexed key (src, else dst) in a
	// MATERIALIZED CTE, where the index serves the lone equality; the
	// other conditions filter what it returned.
	side := func(alias, key string) (string, string) {
		m := a.m[key].(map[string]any)
		from, conds := "edges", []string{believed(alias, a.tt)}
		for _, f := range []string{"src", "dst", "rel_type"} {
			v, ok := m[f].(string)
			if !ok {
				continue
			}
			if from == "edges" && f != "rel_type" {
				from = fmt.Sprintf("(SELECT * FROM edges WHERE %s = %s)", f, lit(v))
				continue
			}
			conds = append(conds, fmt.Sprintf("%s.%s = %s", alias, f, lit(v)))
		}
		return from, strings.Join(conds, " AND ")
	}
	xf, xc := side("x", "a_spec")
	yf, yc := side("y", "b_spec")
	return fmt.Sprintf(`WITH ka AS MATERIALIZED %s, kb AS MATERIALIZED %s
SELECT x.vid, y.vid FROM ka x JOIN kb y ON x.vt_s < y.vt_s AND y.vt_s < x.vt_e AND x.vt_e < y.vt_e
WHERE %s AND %s AND x.vid <> y.vid`, asCTE(xf), asCTE(yf), xc, yc)
}

// asCTE is a FROM item as a CTE body.
func asCTE(from string) string {
	if from == "edges" {
		return "(SELECT * FROM edges)"
	}
	return from
}

func coactiveOurs(p map[string]any) []string {
	var out []string
	for _, r := range list(p, "rows") {
		out = append(out, line(r["a"].(map[string]any)["vid"], r["b"].(map[string]any)["vid"]))
	}
	return out
}

func resolveSQL(d dialect, a args) string {
	q := a.str("query")
	ql := lit(strings.ToLower(q))
	return fmt.Sprintf(`WITH
nv AS (SELECT n.uid, n.label, n.props, n.vt_s, n.vid FROM nodes n WHERE %[1]s),
m AS (SELECT uid, min(CASE WHEN uid = %[2]s THEN 0 WHEN strpos(lower(uid), %[3]s) > 0 THEN 1
  WHEN strpos(lower(%[4]s), %[3]s) > 0 THEN 2 END) AS match FROM nv GROUP BY uid),
c AS (SELECT nv.uid, nv.label, row_number() OVER (PARTITION BY nv.uid ORDER BY nv.vt_s DESC, nv.vid DESC) AS rn
  FROM nv JOIN m ON m.uid = nv.uid WHERE m.match IS NOT NULL)
SELECT m.uid, m.match, c.label FROM m JOIN c ON c.uid = m.uid AND c.rn = 1 ORDER BY m.match, m.uid`,
		believed("n", a.tt), lit(q), ql, d.nameIfString("props"))
}

func aggSQL(d dialect, a args) string {
	ta, tb := a.int("window", "t_a"), a.int("window", "t_b")
	s := a.m["group_by"].([]any)[1].(map[string]any)["stride"].(int64)
	return fmt.Sprintf(`WITH ev AS (%s),
d AS (SELECT rel_type, %s AS i, dst, count(*) AS n FROM ev GROUP BY 1, 2, 3),
g AS (SELECT rel_type, i, sum(n) AS n, count(*) AS nd FROM d GROUP BY 1, 2)
SELECT rel_type, %d + i * %d, n, nd FROM g ORDER BY rel_type, i LIMIT %d`,
		events(d, a.tt, ta, tb, ""), d.div("vt_s - "+num(ta), num(s)), ta, s, a.int("limit"))
}

func motifSQL(d dialect, a args) string {
	if a.m["motif"] != "M_triangle_cyclic" {
		panic("peers: motif.filtered is written for M_triangle_cyclic")
	}
	ta, tb, delta := a.int("window", "t_a"), a.int("window", "t_b"), a.int("delta")
	f := litList(a.strs("node_filter"))
	after := func(x, y string) string {
		return fmt.Sprintf("(%[1]s.vt_s > %[2]s.vt_s OR (%[1]s.vt_s = %[2]s.vt_s AND %[1]s.eid > %[2]s.eid))", x, y)
	}
	return fmt.Sprintf(`WITH ev AS (%s),
m AS (SELECT vt_s, eid, src, dst FROM ev WHERE src <> dst)
SELECT (SELECT count(*) FROM m e1
  JOIN m e2 ON e2.src = e1.dst AND e2.dst <> e1.src AND e2.vt_s <= e1.vt_s + %[2]d AND %[3]s
  JOIN m e3 ON e3.src = e2.dst AND e3.dst = e1.src AND e3.vt_s <= e1.vt_s + %[2]d AND %[4]s),
  (SELECT count(*) FROM ev)`,
		events(d, a.tt, ta, tb, fmt.Sprintf("AND e.src IN (%s) AND e.dst IN (%s)", f, f)), delta, after("e2", "e1"), after("e3", "e2"))
}

func motifOurs(p map[string]any) []string {
	return []string{line(p["count"], p["n_events_in_window"])}
}

// rowsOf reads the named fields of every row.
func rowsOf(fields ...string) func(p map[string]any) []string {
	return func(p map[string]any) []string {
		var out []string
		for _, r := range list(p, "rows") {
			vals := make([]any, len(fields))
			for i, f := range fields {
				vals[i] = r[f]
			}
			out = append(out, line(vals...))
		}
		return out
	}
}

func list(p map[string]any, key string) []map[string]any {
	var out []map[string]any
	xs, _ := p[key].([]any)
	for _, x := range xs {
		out = append(out, x.(map[string]any))
	}
	return out
}

// line joins values in the canonical text both sides use: integers in
// decimal, floats to 6 significant digits, objects as canonical JSON,
// NULL as "null".
func line(vals ...any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = text(v)
	}
	return strings.Join(parts, "|")
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	case map[string]any:
		b, err := canon.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// queryLines runs q and returns its rows as lines.
func queryLines(ctx context.Context, c *sql.Conn, q string) ([]string, error) {
	rows, err := c.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, line(vals...))
	}
	return out, rows.Err()
}

// sameLines compares two answers, sorted unless ordered; it returns the
// first difference.
func sameLines(ours, theirs []string, ordered bool) (bool, string) {
	if !ordered {
		ours, theirs = slices.Clone(ours), slices.Clone(theirs)
		slices.Sort(ours)
		slices.Sort(theirs)
	}
	for i := range max(len(ours), len(theirs)) {
		var a, b string
		if i < len(ours) {
			a = ours[i]
		}
		if i < len(theirs) {
			b = theirs[i]
		}
		if a != b {
			return false, fmt.Sprintf("line %d: native %q, peer %q (%d vs %d lines)", i, a, b, len(ours), len(theirs))
		}
	}
	return true, ""
}
