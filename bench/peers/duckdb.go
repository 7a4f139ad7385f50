//go:build duckdb

package peers

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver
)

func init() { openers["duckdb"] = openDuckDB }

// openDuckDB opens a DuckDB database file in dir, in process, using every
// core the Go runtime may use.
func openDuckDB(ctx context.Context, dir string) (*System, error) {
	path := filepath.Join(dir, "peers.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, fmt.Errorf("open DuckDB at %s: %w", path, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	s := &System{Name: "duckdb", db: db, conn: conn, textType: "VARCHAR",
		d: dialect{
			div:      func(a, b string) string { return fmt.Sprintf("((%s) // (%s))", a, b) },
			antiJoin: true,
			nameIfString: func(p string) string {
				return fmt.Sprintf("(CASE WHEN json_type(%[1]s, '$.name') = 'VARCHAR' THEN json_extract_string(%[1]s, '$.name') END)", p)
			},
		},
		// DuckDB scans with zone maps; ART indexes serve the point lookups.
		indexes: []string{
			"CREATE INDEX nodes_uid ON nodes (uid)",
			"CREATE INDEX edges_src ON edges (src)",
			"CREATE INDEX edges_dst ON edges (dst)",
		},
		after: []string{"ANALYZE", "CHECKPOINT"},
		diskBytes: func(context.Context) (int64, error) {
			fi, err := os.Stat(path)
			if err != nil {
				return 0, err
			}
			return fi.Size(), nil
		},
	}
	s.copyIn = func(ctx context.Context, table, csv string) error {
		_, err := conn.ExecContext(ctx, fmt.Sprintf("COPY %s FROM %s (FORMAT csv, HEADER false, QUOTE '\"', ESCAPE '\"', DELIMITER ',')", table, lit(csv)))
		return err
	}
	return s, nil
}
