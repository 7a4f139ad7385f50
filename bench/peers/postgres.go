package peers

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/tgms-go/tgms/internal/pgtest"
)

// PostgresBin is where the server binaries are looked for (the Debian
// layout); TGMS_PG_BIN overrides it.
var PostgresBin = pgtest.Bin

// pgSettings are the server settings: a warm, memory-resident analytical
// setup (the data fit in shared_buffers), durability off for the load.
var pgSettings = []string{
	"shared_buffers=2GB", "work_mem=256MB", "maintenance_work_mem=1GB", "effective_cache_size=8GB",
	"random_page_cost=1.1", "max_parallel_workers_per_gather=2", "jit=off",
	"fsync=off", "synchronous_commit=off", "full_page_writes=off",
}

// openPostgres starts a cluster in dir (see pgtest.Start: run as root, the
// server runs as the postgres user) and connects with pgx.
func openPostgres(ctx context.Context, dir string) (*System, error) {
	pgtest.Bin = PostgresBin
	c, err := pgtest.Start(ctx, dir, pgSettings...)
	if err != nil {
		return nil, err
	}
	port, stop := c.Port, c.Stop
	db, err := sql.Open("pgx", fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port))
	if err != nil {
		stop()
		return nil, err
	}
	db.SetMaxOpenConns(1)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := db.Conn(cctx)
	if err != nil {
		db.Close()
		stop()
		return nil, fmt.Errorf("connect to PostgreSQL on port %d: %w", port, err)
	}
	s := &System{Name: "postgres", db: db, conn: conn, textType: `TEXT COLLATE "C"`, stop: stop, inTx: true,
		d: dialect{
			// Bigint "/" truncates, which is floor division on the
			// non-negative offsets it is used for (div() would go through
			// numeric).
			div:        func(a, b string) string { return fmt.Sprintf("((%s) / (%s))", a, b) },
			oneScan:    true,
			rangeIndex: true,
			seedDriven: true,
			nameIfString: func(p string) string {
				return fmt.Sprintf("(CASE WHEN %[1]s <> '{}' AND jsonb_typeof(CAST(%[1]s AS jsonb) -> 'name') = 'string' THEN CAST(%[1]s AS jsonb) ->> 'name' END)", p)
			},
		},
		indexes: []string{
			"CREATE INDEX nodes_uid ON nodes (uid, vt_s)",
			"CREATE INDEX edges_src ON edges (src, vt_s)",
			"CREATE INDEX edges_dst ON edges (dst, vt_s)",
			"CREATE INDEX edges_vt ON edges (vt_s) INCLUDE (vt_e, tt_s, tt_e)",
			// The fragment test looks up only identities with several versions.
			"CREATE INDEX edges_multi ON edges (eid, vt_e) INCLUDE (tt_s, tt_e) WHERE multi",
			// Range containment on the valid interval (diff_snapshots).
			"CREATE INDEX nodes_valid ON nodes USING gist (int8range(vt_s, vt_e))",
			"CREATE INDEX edges_valid ON edges USING gist (int8range(vt_s, vt_e))",
		},
		// The frozen pages are all-visible already: ANALYZE is enough.
		after: []string{"ANALYZE nodes", "ANALYZE edges"},
		diskBytes: func(ctx context.Context) (int64, error) {
			var n int64
			err := conn.QueryRowContext(ctx, "SELECT pg_total_relation_size('nodes') + pg_total_relation_size('edges')").Scan(&n)
			return n, err
		},
	}
	s.copyIn = func(ctx context.Context, table, path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return conn.Raw(func(dc any) error {
			_, err := dc.(*stdlib.Conn).Conn().PgConn().CopyFrom(ctx, f, "COPY "+table+" FROM STDIN WITH (FORMAT csv, FREEZE)")
			return err
		})
	}
	return s, nil
}
