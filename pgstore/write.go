package pgstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// ErrReadOnly refuses a write to a store opened without Options.Write.
var ErrReadOnly = errors.New("the PostgreSQL store was opened read-only")

// Write applies ops as one batch, in one PostgreSQL transaction, and
// returns its transaction time once committed. Ingested events from before
// their endpoints' believed validity get the node-start corrections a file
// store adds (bitemporal.Planner.NodeStartCorrections).
func (s *Store) Write(ctx context.Context, ops ...bt.Op) (bt.Time, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	tt := s.tick()
	var pl bt.Planner
	eff, ops, err := s.plan(&pl, tt, ops, true)
	if err != nil {
		return 0, err
	}
	return tt, s.commit(ctx, &eventlog.Record{TT: tt, Seq: eff.Seq, Ops: ops}, eff)
}

// Append replays a logged batch (from events.wal or another store's
// batches) as it was logged: its own tt, no corrections added. Its Seq
// must follow the store's last batch and its tt be after it.
func (s *Store) Append(ctx context.Context, rec *eventlog.Record) error {
	if err := s.writable(); err != nil {
		return err
	}
	if want := s.eng.Batches() + 1; rec.Seq != want {
		return fmt.Errorf("batch seq %d does not follow the store's last batch (%d)", rec.Seq, want-1)
	}
	if rec.TT <= s.eng.LastTT() {
		return fmt.Errorf("transaction time %d is not after the store's last %d", rec.TT, s.eng.LastTT())
	}
	var pl bt.Planner
	eff, _, err := s.plan(&pl, rec.TT, rec.Ops, false)
	if err != nil {
		return err
	}
	s.last = max(s.last, rec.TT)
	return s.commit(ctx, rec, eff)
}

// Ingest bulk-loads events in batches of tgms.ChunkEvents, one transaction
// each, exactly as a file store splits them (input of more than one batch
// that is not in vt_s order is written stably sorted). source, when not
// nil, gives batch k of n its source text. Every event is validated before
// anything is written; when a batch fails midway, the batches committed
// before it stay and the error says how many.
func (s *Store) Ingest(ctx context.Context, events []bt.Event, nodeLabel string, source func(k, n int) string) (tgms.IngestResult, error) {
	var res tgms.IngestResult
	if err := s.writable(); err != nil {
		return res, err
	}
	for start := 0; start < len(events); start += tgms.ChunkEvents {
		op := bt.Ingest(events[start:min(start+tgms.ChunkEvents, len(events))], nodeLabel)
		if err := op.Validate(0); err != nil {
			if oe := (*bt.OpError)(nil); errors.As(err, &oe) && oe.Event >= 0 {
				oe.Event += start
			}
			return res, err
		}
	}
	if err := s.checkNewIdentities(events); err != nil {
		return res, err
	}
	if len(events) > tgms.ChunkEvents && !slices.IsSortedFunc(events, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) }) {
		events = slices.Clone(events)
		slices.SortStableFunc(events, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) })
	}
	n := (len(events) + tgms.ChunkEvents - 1) / tgms.ChunkEvents
	res.FirstSeq = s.eng.Batches() + 1
	var pl bt.Planner
	for k := range n {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("ingest stopped after %d committed events (%d batches): %w", res.Events, res.Batches, err)
		}
		chunk := events[k*tgms.ChunkEvents : min((k+1)*tgms.ChunkEvents, len(events))]
		tt := s.tick()
		eff, ops, err := s.plan(&pl, tt, []bt.Op{bt.Ingest(chunk, nodeLabel)}, true)
		if err == nil {
			rec := &eventlog.Record{TT: tt, Seq: eff.Seq, Ops: ops}
			if source != nil {
				rec.Source = source(k, n)
			}
			err = s.commit(ctx, rec, eff)
		}
		if err != nil {
			return res, fmt.Errorf("ingest stopped after %d committed events (%d batches): %w", res.Events, res.Batches, err)
		}
		if res.FirstTT == 0 {
			res.FirstTT = tt
		}
		res.LastTT = tt
		res.Batches++
		res.Events += len(chunk)
	}
	return res, nil
}

// checkNewIdentities refuses events with explicit discriminators that repeat
// within the input or name existing edges: bulk ingest only creates
// identities.
func (s *Store) checkNewIdentities(events []bt.Event) error {
	seen := map[bt.EdgeKey]int{}
	for i := range events {
		e := &events[i]
		if e.Disc == "" {
			continue
		}
		k := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
		if j, dup := seen[k]; dup {
			return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: i, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q repeats event %d; each event must be a new edge", e.Src, e.Dst, e.RelType, e.Disc, j)}
		}
		seen[k] = i
		if s.eng.EdgeKnown(k) {
			return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: i, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q already exists; bulk ingest only creates new edges", e.Src, e.Dst, e.RelType, e.Disc)}
		}
	}
	return nil
}

func (s *Store) writable() error {
	if !s.opt.Write {
		return ErrReadOnly
	}
	return s.failed
}

// plan plans one batch against the engine, with the node-start corrections
// in front when fix is set (a new batch rather than a replayed one).
func (s *Store) plan(pl *bt.Planner, tt bt.Time, ops []bt.Op, fix bool) (*bt.Effect, []bt.Op, error) {
	seq := s.eng.Batches() + 1
	eff, err := pl.Plan(s.eng, tt, seq, ops)
	if err != nil || !fix {
		return eff, ops, err
	}
	if starts := pl.NodeStartCorrections(s.eng); len(starts) > 0 {
		ops = append(starts, ops...)
		if eff, err = pl.Plan(s.eng, tt, seq, ops); err != nil {
			return nil, nil, fmt.Errorf("planning the batch with the corrections that start %d nodes at their earliest events: %w", len(starts), err)
		}
	}
	return eff, ops, nil
}

// commit writes the batch row and the version-table changes of eff in one
// transaction, then applies eff to the engine. A batch is acknowledged
// when its transaction commits.
func (s *Store) commit(ctx context.Context, rec *eventlog.Record, eff *bt.Effect) error {
	for i := range rec.Ops {
		if err := rec.Ops[i].Validate(i); err != nil {
			return err
		}
	}
	payload := eventlog.AppendRecord(nil, rec)
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("beginning the batch's transaction: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "INSERT INTO batches (tt, seq, source, payload, checksum) VALUES ($1, $2, $3, $4, $5)",
		rec.TT, int64(rec.Seq), rec.Source, payload, int64(crc32.Checksum(payload, castagnoli))); err != nil {
		return fmt.Errorf("writing the batch row at tt %d: %w", rec.TT, err)
	}
	if err := closeVersions(ctx, tx, "node_versions", eff.TT, eff.CloseNodes); err != nil {
		return err
	}
	if err := closeVersions(ctx, tx, "edge_versions", eff.TT, eff.CloseEdges); err != nil {
		return err
	}
	if len(eff.Nodes) > 0 {
		base := int64(s.eng.NumNodeVersions())
		rows := make([][]any, len(eff.Nodes))
		for i := range eff.Nodes {
			v := &eff.Nodes[i]
			rows[i] = []any{base + int64(i), v.UID, v.Label, v.Props.JSON(), v.Valid.Start, v.Valid.End, eff.TT, bt.OpenEnd, int16(v.CreatedBy)}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"node_versions"},
			[]string{"vid", "uid", "label", "props", "vt_s", "vt_e", "tt_s", "tt_e", "opened_by"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("writing the batch's node versions: %w", err)
		}
	}
	if len(eff.Edges) > 0 {
		base := int64(s.eng.NumEdgeVersions())
		rows := make([][]any, len(eff.Edges))
		for i := range eff.Edges {
			ne := &eff.Edges[i]
			k := ne.V.Key
			if ne.Auto >= 0 {
				k.Disc = bt.AutoDisc(eff.Seq, ne.Auto)
			}
			rows[i] = []any{base + int64(i), k.Src, k.Dst, k.RelType, k.Disc, ne.V.Props.JSON(), ne.V.Valid.Start, ne.V.Valid.End, eff.TT, bt.OpenEnd, int16(ne.V.CreatedBy)}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"edge_versions"},
			[]string{"vid", "src", "dst", "rel_type", "disc", "props", "vt_s", "vt_e", "tt_s", "tt_e", "opened_by"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("writing the batch's edge versions: %w", err)
		}
	}
	if err := s.writeUIDs(ctx, tx, eff); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		// Whether a failed COMMIT committed is unknown: reopen to find out.
		s.failed = fmt.Errorf("committing the batch at tt %d failed (%v): whether it is stored is unknown; reopen the store", rec.TT, err)
		return s.failed
	}
	prov := rec.Provenance()
	eff.Prov = &prov
	if err := s.eng.Apply(eff); err != nil {
		s.failed = fmt.Errorf("the batch at tt %d is committed but the read model refused it (%v); reopen the store", rec.TT, err)
		return s.failed
	}
	return nil
}

// closeVersions sets tt_e and closed_by of the closed versions, one
// statement per closing op kind.
func closeVersions(ctx context.Context, tx pgx.Tx, table string, tt bt.Time, cs []bt.Closure) error {
	byKind := map[bt.OpKind][]int64{}
	for _, c := range cs {
		byKind[c.By] = append(byKind[c.By], int64(c.H))
	}
	for _, k := range slices.Sorted(func(yield func(bt.OpKind) bool) {
		for k := range byKind {
			if !yield(k) {
				return
			}
		}
	}) {
		vids := byKind[k]
		tag, err := tx.Exec(ctx, "UPDATE "+table+" SET tt_e = $1, closed_by = $2 WHERE vid = ANY($3) AND closed_by = 0", tt, int16(k), vids)
		if err != nil {
			return fmt.Errorf("closing %d versions in %s: %w", len(vids), table, err)
		}
		if tag.RowsAffected() != int64(len(vids)) {
			return fmt.Errorf("closing %d versions in %s found %d believed ones: the table was changed outside tgms", len(vids), table, tag.RowsAffected())
		}
	}
	return nil
}

// IngestFrom is Ingest for content from a known source: every batch
// records src ("sha256=<hex> part=<k>/<n> name=<name>", as in events.wal),
// and unless allowRepeat the ingest is refused (a *tgms.RepeatIngestError,
// nothing written) when the store already holds an ingest of the same
// SHA-256.
func (s *Store) IngestFrom(ctx context.Context, src tgms.Source, allowRepeat bool, events []bt.Event, nodeLabel string) (tgms.IngestResult, error) {
	if !allowRepeat {
		var (
			n        int
			seq, tt  *int64
			firstSrc *string
		)
		err := s.conn.QueryRow(ctx, `SELECT count(*), min(seq), min(tt), (array_agg(source ORDER BY seq))[1]
			FROM batches WHERE source LIKE $1`, "sha256="+src.SHA256+" %").Scan(&n, &seq, &tt, &firstSrc)
		if err != nil {
			return tgms.IngestResult{}, fmt.Errorf("looking for an earlier ingest of the same content: %w", err)
		}
		if n > 0 {
			name := *firstSrc
			if i := strings.Index(name, " name="); i >= 0 {
				name = name[i+len(" name="):]
			}
			return tgms.IngestResult{}, &tgms.RepeatIngestError{Source: src, Earlier: name, FirstSeq: uint64(*seq), FirstTT: *tt, Batches: n}
		}
	}
	return s.Ingest(ctx, events, nodeLabel, func(k, n int) string {
		return fmt.Sprintf("sha256=%s part=%d/%d name=%s", src.SHA256, k+1, n, src.Name)
	})
}
