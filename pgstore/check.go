package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Finding is one result of Check: Severity "error" (damage: the store
// does not open, or its version tables are not its batches' replay),
// "warning" (it opens, but something is missing) or "info".
type Finding struct {
	Severity string `json:"severity"`
	Where    string `json:"where"` // table[@tt=T | @vid=V | @uid=U]
	Message  string `json:"message"`
}

func (f Finding) String() string { return f.Severity + " " + f.Where + ": " + f.Message }

// CheckResult is what Check found.
type CheckResult struct {
	Schema        string    `json:"schema"`
	SchemaVersion int       `json:"schema_version"`
	Batches       int       `json:"batches"`
	LastTT        bt.Time   `json:"last_tt"`
	NodeVersions  int       `json:"node_versions"` // rows compared
	EdgeVersions  int       `json:"edge_versions"`
	Digest        string    `json:"digest,omitempty"` // of the replay, when every batch replayed
	Findings      []Finding `json:"findings"`
}

// Clean reports whether the check found no error and no warning.
func (r *CheckResult) Clean() bool {
	for _, f := range r.Findings {
		if f.Severity != "info" {
			return false
		}
	}
	return true
}

// maxRowFindings bounds the rows reported per version table; the rest are
// counted.
const maxRowFindings = 10

// Check verifies the store that url names without changing it, in one
// REPEATABLE READ snapshot: every batch row's checksum, payload and
// columns (a bad one is reported with its tt, and every later row is still
// checksummed), the batches' replay, and that node_versions and
// edge_versions hold exactly the replay's versions, row by row (vid, every
// column, props compared as JSON values). The error is for a check that
// could not run (no connection, no store); damage is in the findings.
func Check(ctx context.Context, url string) (*CheckResult, error) {
	conn, schema, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx)
	res := &CheckResult{Schema: schema, Findings: []Finding{}}
	add := func(sev, where, format string, args ...any) {
		res.Findings = append(res.Findings, Finding{sev, where, fmt.Sprintf(format, args...)})
	}
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT to_regclass('tgms_meta') IS NOT NULL").Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("schema %q: %w", schema, ErrNoStore)
	}
	if err := tx.QueryRow(ctx, "SELECT schema_version FROM tgms_meta").Scan(&res.SchemaVersion); err != nil {
		return nil, fmt.Errorf("schema %q: reading tgms_meta: %w", schema, err)
	}
	switch {
	case res.SchemaVersion > SchemaVersion:
		return nil, newerSchema(schema, res.SchemaVersion)
	case res.SchemaVersion < 2:
		add("info", "tgms_meta", "schema version %d: the next writer migrates it to %d; until then replicas find new batches by polling", res.SchemaVersion, SchemaVersion)
	default:
		var trig bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'batches'::regclass AND tgname = 'batches_notify' AND tgenabled <> 'D')").Scan(&trig); err != nil {
			return nil, err
		}
		if !trig {
			add("warning", "batches", "the trigger batches_notify is missing or disabled: replicas hear of new batches only by polling (a writer of this release does not recreate it; run migrations/0002_notify.sql)")
		}
	}

	eng := engine.New()
	var (
		pl           bt.Planner
		tt, seq, sum int64
		source       string
		payload      []byte
		broken       bool
	)
	rows, err := tx.Query(ctx, "SELECT tt, seq, source, payload, checksum FROM batches ORDER BY tt")
	if err != nil {
		return nil, err
	}
	_, err = pgx.ForEachRow(rows, []any{&tt, &seq, &source, &payload, &sum}, func() error {
		res.Batches++
		res.LastTT = tt
		where := fmt.Sprintf("batches@tt=%d", tt)
		if broken {
			if _, err := verifyRow(tt, seq, source, payload, sum); err != nil {
				add("error", where, "%v", err)
			}
			return nil
		}
		if err := applyRow(eng, &pl, tt, seq, source, payload, sum); err != nil {
			add("error", where, "%v", err)
			broken = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if broken {
		add("info", "node_versions", "not compared with the batches' replay: the replay stopped at the damaged batch above")
		return res, nil
	}
	res.Digest = eng.Digest()
	if err := compareNodes(ctx, tx, eng, res, add); err != nil {
		return nil, err
	}
	if err := compareEdges(ctx, tx, eng, res, add); err != nil {
		return nil, err
	}
	if err := compareUIDs(ctx, tx, eng, res.SchemaVersion, add); err != nil {
		return nil, err
	}
	return res, nil
}

type addFunc func(sev, where, format string, args ...any)

// rowDiffs counts and reports (up to maxRowFindings) rows of one table
// that differ from the replay.
type rowDiffs struct {
	table string
	n     int
	add   addFunc
}

func (d *rowDiffs) report(vid int64, format string, args ...any) {
	d.n++
	if d.n <= maxRowFindings {
		d.add("error", fmt.Sprintf("%s@vid=%d", d.table, vid), format, args...)
	}
}

func (d *rowDiffs) finish(rows, want int) {
	if rows != want {
		d.add("error", d.table, "holds %d versions where the batches' replay has %d", rows, want)
	}
	if d.n > maxRowFindings {
		d.add("error", d.table, "%d more versions differ from the batches' replay", d.n-maxRowFindings)
	}
	if d.n > 0 {
		d.add("info", d.table, "the table was changed outside tgms; rebuild the store from its batches (tgms replay --log URL --store DIR, then back) or restore a backup")
	}
}

func propsEqual(stored []byte, want bt.Props) (bool, error) {
	p, err := bt.ParseProps(stored)
	if err != nil {
		return false, err
	}
	return p.JSON() == want.JSON(), nil
}

func compareNodes(ctx context.Context, tx pgx.Tx, eng *engine.Store, res *CheckResult, add addFunc) error {
	d := &rowDiffs{table: "node_versions", add: add}
	rows, err := tx.Query(ctx, "SELECT vid, uid, label, props::text, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by FROM node_versions ORDER BY vid")
	if err != nil {
		return err
	}
	var (
		vid    int64
		v      bt.NodeVersion
		p      []byte
		ob, cb int16
		n      int
	)
	_, err = pgx.ForEachRow(rows, []any{&vid, &v.UID, &v.Label, &p, &v.Valid.Start, &v.Valid.End, &v.TTs, &v.TTe, &ob, &cb}, func() error {
		n++
		if vid < 0 || vid >= int64(eng.NumNodeVersions()) {
			d.report(vid, "no such version in the batches' replay (it has %d)", eng.NumNodeVersions())
			return nil
		}
		want := eng.NodeVersion(int(vid))
		v.CreatedBy, v.ClosedBy = bt.OpKind(ob), bt.OpKind(cb)
		same, perr := propsEqual(p, want.Props)
		switch {
		case perr != nil:
			d.report(vid, "props are not a property bag: %v", perr)
		case v.UID != want.UID || v.Label != want.Label || v.Valid != want.Valid || v.TTs != want.TTs || v.TTe != want.TTe || v.CreatedBy != want.CreatedBy || v.ClosedBy != want.ClosedBy:
			d.report(vid, "row (uid %q, label %q, vt [%d,%d), tt [%d,%d), %v/%v) where the replay has (uid %q, label %q, vt [%d,%d), tt [%d,%d), %v/%v)",
				v.UID, v.Label, v.Valid.Start, v.Valid.End, v.TTs, v.TTe, v.CreatedBy, v.ClosedBy,
				want.UID, want.Label, want.Valid.Start, want.Valid.End, want.TTs, want.TTe, want.CreatedBy, want.ClosedBy)
		case !same:
			d.report(vid, "props %s where the replay has %s", p, want.Props.JSON())
		}
		return nil
	})
	if err != nil {
		return err
	}
	res.NodeVersions = n
	d.finish(n, eng.NumNodeVersions())
	return nil
}

func compareEdges(ctx context.Context, tx pgx.Tx, eng *engine.Store, res *CheckResult, add addFunc) error {
	d := &rowDiffs{table: "edge_versions", add: add}
	rows, err := tx.Query(ctx, "SELECT vid, src, dst, rel_type, disc, props::text, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by FROM edge_versions ORDER BY vid")
	if err != nil {
		return err
	}
	var (
		vid    int64
		e      bt.EdgeVersion
		p      []byte
		ob, cb int16
		n      int
	)
	_, err = pgx.ForEachRow(rows, []any{&vid, &e.Key.Src, &e.Key.Dst, &e.Key.RelType, &e.Key.Disc, &p, &e.Valid.Start, &e.Valid.End, &e.TTs, &e.TTe, &ob, &cb}, func() error {
		n++
		if vid < 0 || vid >= int64(eng.NumEdgeVersions()) {
			d.report(vid, "no such version in the batches' replay (it has %d)", eng.NumEdgeVersions())
			return nil
		}
		want := eng.EdgeVersion(uint32(vid))
		e.CreatedBy, e.ClosedBy = bt.OpKind(ob), bt.OpKind(cb)
		same, perr := propsEqual(p, want.Props)
		switch {
		case perr != nil:
			d.report(vid, "props are not a property bag: %v", perr)
		case e.Key != want.Key || e.Valid != want.Valid || e.TTs != want.TTs || e.TTe != want.TTe || e.CreatedBy != want.CreatedBy || e.ClosedBy != want.ClosedBy:
			d.report(vid, "row (%s→%s %s %q, vt [%d,%d), tt [%d,%d), %v/%v) where the replay has (%s→%s %s %q, vt [%d,%d), tt [%d,%d), %v/%v)",
				e.Key.Src, e.Key.Dst, e.Key.RelType, e.Key.Disc, e.Valid.Start, e.Valid.End, e.TTs, e.TTe, e.CreatedBy, e.ClosedBy,
				want.Key.Src, want.Key.Dst, want.Key.RelType, want.Key.Disc, want.Valid.Start, want.Valid.End, want.TTs, want.TTe, want.CreatedBy, want.ClosedBy)
		case !same:
			d.report(vid, "props %s where the replay has %s", p, want.Props.JSON())
		}
		return nil
	})
	if err != nil {
		return err
	}
	res.EdgeVersions = n
	d.finish(n, eng.NumEdgeVersions())
	return nil
}
