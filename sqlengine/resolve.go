package sqlengine

import (
	"fmt"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// Candidate tests of resolve_entities on a believed version w. SQL only
// narrows to a superset of the matches; the operator's own code scores
// them. Lower-casing is where PostgreSQL and Go could disagree: lower()
// follows the collation's locale, strings.ToLower Go's simple Unicode
// mapping (U+212A KELVIN SIGN lowers to an ASCII k, U+0130 to i). So the
// test lower-cases under COLLATE "C", which maps A-Z only, exactly as Go
// maps an ASCII string, and keeps every text with a byte outside ASCII
// (octet_length > char_length in a UTF8 database) whatever it holds: the
// Go scoring decides those. The query is $2, lower-cased by Go $3; a prop criterion alone
// needs the property ($2).
var (
	resolveTextSQL = `(w.uid = $2 OR %[1]s OR (jsonb_typeof(w.props -> 'name') = 'string' AND %[2]s))`
	resolveFoldSQL = `(octet_length(%[1]s) <> char_length(%[1]s) OR strpos(lower(%[1]s COLLATE "C"), $3) > 0)`
	resolvePropSQL = `w.props ? $2`
	resolveAtSQL   = ` AND w.vt_s <= $%[1]d AND $%[1]d < w.vt_e`
)

// resolveSQL reads every believed version of the candidate uids: those
// with a believed version passing the test (a semi-join on the
// distribution column uid: co-located).
const resolveSQL = `SELECT v.uid, v.label, v.props::text, v.vt_s, v.vt_e, v.tt_s FROM node_versions v
WHERE v.tt_s <= $1 AND $1 < v.tt_e AND v.uid IN (SELECT w.uid FROM node_versions w WHERE w.tt_s <= $1 AND $1 < w.tt_e AND %s%s)
ORDER BY v.uid`

// runResolve is resolve_entities: one statement selects the candidates'
// versions, the operator's scoring ranks them.
func runResolve(p *pinned, c *ops.Call) (map[string]any, error) {
	q, err := ops.ParseResolve(c)
	if err != nil {
		return nil, err
	}
	// $1 the pinned time, then the test's parameters, then at's.
	test, args := resolvePropSQL, []any{p.asOf, q.Prop}
	if q.HasQuery {
		test = fmt.Sprintf(resolveTextSQL, fmt.Sprintf(resolveFoldSQL, "w.uid"), fmt.Sprintf(resolveFoldSQL, "(w.props ->> 'name')"))
		args = []any{p.asOf, q.Query, q.Lower}
	}
	at := ""
	if q.HasAt {
		args = append(args, q.At)
		at = fmt.Sprintf(resolveAtSQL, len(args))
	}
	rows, err := p.tx.Query(c.Ctx, fmt.Sprintf(resolveSQL, test, at), args...)
	if err != nil {
		return nil, err
	}
	var (
		nodes []ops.ResolveNode
		v     bt.NodeVersion
		props []byte
	)
	if _, err := pgx.ForEachRow(rows, []any{&v.UID, &v.Label, &props, &v.Valid.Start, &v.Valid.End, &v.TTs}, func() error {
		pr, err := bt.ParseProps(props)
		if err != nil {
			return fmt.Errorf("node %q: props: %w", v.UID, err)
		}
		v.Props = pr
		if len(nodes) == 0 || nodes[len(nodes)-1].UID != v.UID {
			nodes = append(nodes, ops.ResolveNode{UID: v.UID})
		}
		n := &nodes[len(nodes)-1]
		n.Versions = append(n.Versions, v)
		return c.Work(1)
	}); err != nil {
		return nil, err
	}
	return q.Payload(c, nodes)
}
