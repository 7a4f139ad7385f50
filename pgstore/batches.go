package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/eventlog"
)

// ReadBatches calls fn with every batch of the store that url names, in
// tt order, read in one snapshot and verified as Open verifies them
// (checksum, columns, seq), stopping at the first bad row (a
// *ChecksumError) or at fn's first error, which it returns.
func ReadBatches(ctx context.Context, url string, fn func(*eventlog.Record) error) error {
	conn, schema, err := connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT to_regclass('tgms_meta') IS NOT NULL").Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("schema %q: %w", schema, ErrNoStore)
	}
	var version int
	if err := tx.QueryRow(ctx, "SELECT schema_version FROM tgms_meta").Scan(&version); err != nil {
		return fmt.Errorf("schema %q: reading tgms_meta: %w", schema, err)
	}
	if version > SchemaVersion {
		return newerSchema(schema, version)
	}
	rows, err := tx.Query(ctx, "SELECT tt, seq, source, payload, checksum FROM batches ORDER BY tt")
	if err != nil {
		return err
	}
	var (
		tt, seq, sum int64
		source       string
		payload      []byte
		next         uint64 = 1
		last         int64
	)
	_, err = pgx.ForEachRow(rows, []any{&tt, &seq, &source, &payload, &sum}, func() error {
		rec, err := verifyRow(tt, seq, source, payload, sum)
		if err != nil {
			return err
		}
		if rec.Seq != next {
			return &ChecksumError{TT: rec.TT, Msg: fmt.Sprintf("its seq is %d where %d follows in tt order", rec.Seq, next)}
		}
		if next > 1 && rec.TT <= last {
			return &ChecksumError{TT: rec.TT, Msg: fmt.Sprintf("its tt is not after the previous batch's %d", last)}
		}
		next, last = next+1, rec.TT
		return fn(rec)
	})
	return err
}
