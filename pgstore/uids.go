package pgstore

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// uidsVersion is the schema version that has the uids table.
const uidsVersion = 3

// writeUIDs records the uids a batch registers, in the batch's
// transaction.
func (s *Store) writeUIDs(ctx context.Context, tx pgx.Tx, eff *bt.Effect) error {
	if s.version < uidsVersion || len(eff.NewUIDs) == 0 {
		return nil
	}
	rows := make([][]any, len(eff.NewUIDs))
	for i, uid := range eff.NewUIDs {
		rows[i] = []any{uid, eff.TT}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"uids"}, []string{"uid", "tt"}, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("writing the %d uids the batch registers: %w", len(rows), err)
	}
	return nil
}

// fillUIDs fills the uids table of a store migrated to schema version 3
// with batches in it (tgms_meta.uids_pending) from the batches' replay,
// in one transaction that also clears the mark. The writer holds the
// store's lock, so no batch lands in between.
func (s *Store) fillUIDs(ctx context.Context) error {
	if s.version < uidsVersion {
		return nil
	}
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var pending bool
	if err := tx.QueryRow(ctx, "SELECT uids_pending FROM tgms_meta FOR UPDATE").Scan(&pending); err != nil {
		return fmt.Errorf("schema %q: reading tgms_meta: %w", s.schema, err)
	}
	if !pending {
		return nil
	}
	if _, err := tx.Exec(ctx, "DELETE FROM uids"); err != nil {
		return err
	}
	r := s.eng.Reader(bt.OpenEnd)
	n, i := r.NumNodes(), 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i == n {
			return nil, nil
		}
		id := uint32(i)
		i++
		return []any{r.UID(id), s.eng.Registered(id)}, nil
	})
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"uids"}, []string{"uid", "tt"}, src); err != nil {
		return fmt.Errorf("schema %q: filling the uids table from the batches' replay: %w", s.schema, err)
	}
	if _, err := tx.Exec(ctx, "UPDATE tgms_meta SET uids_pending = false"); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("schema %q: filling the uids table: %w", s.schema, err)
	}
	return nil
}

// checkUIDs checks that the uids table names as many uids as eng, read in
// the same snapshot as eng's batches (a pending table is not yet filled).
func checkUIDs(ctx context.Context, q pgx.Tx, schema string, version int, eng *engine.Store) error {
	if version < uidsVersion {
		return nil
	}
	var pending bool
	var n int
	if err := q.QueryRow(ctx, "SELECT uids_pending, (SELECT count(*) FROM uids) FROM tgms_meta").Scan(&pending, &n); err != nil {
		return fmt.Errorf("schema %q: reading the uids table: %w", schema, err)
	}
	if want := eng.Reader(bt.OpenEnd).NumNodes(); !pending && n != want {
		return fmt.Errorf("schema %q: the uids table holds %d uids where the batches register %d; it was changed outside tgms", schema, n, want)
	}
	return nil
}

// compareUIDs reports the rows of the uids table that differ from the
// uids the batches' replay registers, and the batch of each.
func compareUIDs(ctx context.Context, tx pgx.Tx, eng *engine.Store, version int, add addFunc) error {
	if version < uidsVersion {
		return nil
	}
	var pending bool
	if err := tx.QueryRow(ctx, "SELECT uids_pending FROM tgms_meta").Scan(&pending); err != nil {
		return err
	}
	if pending {
		add("info", "uids", "not filled since the migration to schema version %d: the next writer fills it from the batches (until then --engine sql refuses the store)", uidsVersion)
		return nil
	}
	want := map[string]bt.Time{}
	r := eng.Reader(bt.OpenEnd)
	for id := range uint32(r.NumNodes()) {
		want[r.UID(id)] = eng.Registered(id)
	}
	rows, err := tx.Query(ctx, "SELECT uid, tt FROM uids ORDER BY uid")
	if err != nil {
		return err
	}
	n := 0
	report := func(uid, format string, args ...any) {
		n++
		if n <= maxRowFindings {
			add("error", "uids@uid="+uid, format, args...)
		}
	}
	var (
		uid string
		tt  int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&uid, &tt}, func() error {
		w, ok := want[uid]
		switch {
		case !ok:
			report(uid, "names a uid no batch registers")
		case w != tt:
			report(uid, "tt %d where the batches' replay registers it at %d", tt, w)
		}
		delete(want, uid)
		return nil
	}); err != nil {
		return err
	}
	for _, u := range slices.Sorted(maps.Keys(want)) {
		report(u, "missing: the batch at tt %d registers it", want[u])
	}
	if n > maxRowFindings {
		add("error", "uids", "%d more rows differ from the batches' replay", n-maxRowFindings)
	}
	if n > 0 {
		add("info", "uids", "the table was changed outside tgms; rebuild the store from its batches or restore a backup")
	}
	return nil
}
