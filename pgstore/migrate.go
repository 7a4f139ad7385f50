package pgstore

import (
	"context"
	"embed"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// migrationFiles holds the changes from one schema version to the next:
// migrations/NNNN_name.sql brings a store of version NNNN-1 to NNNN.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	to   int
	name string
	sql  string
}

// migrations are the embedded migrations in version order, checked to run
// 2, 3, ... SchemaVersion without a gap.
var migrations = func() []migration {
	ents, err := migrationFiles.ReadDir("migrations")
	if err != nil {
		panic(err)
	}
	var ms []migration
	for _, e := range ents {
		n, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			panic(fmt.Sprintf("pgstore: migration %s is not named NNNN_name.sql", e.Name()))
		}
		b, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			panic(err)
		}
		ms = append(ms, migration{to: n, name: e.Name(), sql: string(b)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.to - b.to })
	for i, m := range ms {
		if m.to != i+2 {
			panic(fmt.Sprintf("pgstore: migration %s where version %d comes next", m.name, i+2))
		}
	}
	if len(ms)+1 != SchemaVersion {
		panic(fmt.Sprintf("pgstore: migrations reach version %d, SchemaVersion is %d", len(ms)+1, SchemaVersion))
	}
	return ms
}()

// ensureSchema creates the schema and its tables when missing (schema.sql,
// version 1, then every migration), or migrates an older store to
// upTo, all in one transaction under the writer's lock. A store of a later
// version than this release's is refused.
func (s *Store) ensureSchema(ctx context.Context) error {
	upTo := SchemaVersion
	if s.opt.schemaUpTo > 0 {
		upTo = s.opt.schemaUpTo
	}
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{s.schema}.Sanitize()); err != nil {
		return fmt.Errorf("creating schema %q: %w", s.schema, err)
	}
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT to_regclass('tgms_meta') IS NOT NULL").Scan(&exists); err != nil {
		return err
	}
	version := 1
	if !exists {
		if _, err := tx.Exec(ctx, schemaSQL); err != nil {
			return fmt.Errorf("creating the store's tables in schema %q: %w", s.schema, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO tgms_meta (schema_version, store_id) VALUES (1, gen_random_uuid())"); err != nil {
			return err
		}
	} else if err := tx.QueryRow(ctx, "SELECT schema_version FROM tgms_meta FOR UPDATE").Scan(&version); err != nil {
		return fmt.Errorf("schema %q: reading tgms_meta: %w", s.schema, err)
	}
	if version > SchemaVersion {
		return newerSchema(s.schema, version)
	}
	for _, m := range migrations {
		if m.to <= version || m.to > upTo {
			continue
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("schema %q: migrating the store from schema version %d to %d (%s): %w; nothing was changed", s.schema, m.to-1, m.to, m.name, err)
		}
		if _, err := tx.Exec(ctx, "UPDATE tgms_meta SET schema_version = $1", m.to); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

func newerSchema(schema string, version int) error {
	return fmt.Errorf("schema %q holds a store of schema version %d; this release reads versions up to %d: upgrade tgms", schema, version, SchemaVersion)
}
