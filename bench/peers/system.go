package peers

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// System is one peer SQL system holding the exported tables.
type System struct {
	Name string
	db   *sql.DB
	conn *sql.Conn // one session: temporary tables live across statements
	d    dialect
	// copyIn loads a CSV file into a table.
	copyIn func(ctx context.Context, table, path string) error
	// diskBytes is the on-disk size of the loaded tables and indexes.
	diskBytes func(ctx context.Context) (int64, error)
	// indexes are the statements that index the loaded tables.
	indexes []string
	// textType and after are the DDL spelling of text columns and the
	// statements that follow the load (ANALYZE, CHECKPOINT).
	textType string
	after    []string
	// inTx loads in one transaction that also creates the tables (so that
	// PostgreSQL's COPY FREEZE writes frozen, all-visible pages).
	inTx bool
	stop func() error
}

// LoadStats are a system's load figures.
type LoadStats struct {
	Seconds float64 `json:"seconds"`
	// CopySeconds is the bulk load alone; IndexSeconds the index builds and
	// the statistics (ANALYZE, CHECKPOINT) after it.
	CopySeconds  float64 `json:"copy_seconds,omitempty"`
	IndexSeconds float64 `json:"index_seconds,omitempty"`
	// StepSeconds times each index and statistics statement.
	StepSeconds  map[string]float64 `json:"step_seconds,omitempty"`
	RowsPerSec   float64            `json:"rows_per_sec"`
	DiskBytes    int64              `json:"disk_bytes"`
	BytesPerEdge float64            `json:"bytes_per_edge_version"`
}

// Load creates the two tables, copies the CSV files in, indexes and
// analyzes them. The time covers all of it.
func (s *System) Load(ctx context.Context, t *Tables) (LoadStats, error) {
	start := time.Now()
	tx := s.textType
	ddl := []string{
		"DROP TABLE IF EXISTS nodes", "DROP TABLE IF EXISTS edges",
		fmt.Sprintf(`CREATE TABLE nodes (uid %[1]s NOT NULL, label %[1]s NOT NULL, props %[1]s NOT NULL,
  vt_s BIGINT NOT NULL, vt_e BIGINT NOT NULL, tt_s BIGINT NOT NULL, tt_e BIGINT NOT NULL, vid %[1]s NOT NULL)`, tx),
		fmt.Sprintf(`CREATE TABLE edges (vid %[1]s NOT NULL, eid %[1]s NOT NULL, src %[1]s NOT NULL, dst %[1]s NOT NULL,
  rel_type %[1]s NOT NULL, vt_s BIGINT NOT NULL, vt_e BIGINT NOT NULL, tt_s BIGINT NOT NULL, tt_e BIGINT NOT NULL,
  props %[1]s NOT NULL, multi BOOLEAN NOT NULL)`, tx),
	}
	if s.inTx {
		ddl = append([]string{"BEGIN"}, ddl...)
	}
	for _, q := range ddl {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return LoadStats{}, fmt.Errorf("%s: %s: %w", s.Name, q, err)
		}
	}
	if err := s.copyIn(ctx, "nodes", t.NodesCSV); err != nil {
		return LoadStats{}, fmt.Errorf("%s: load nodes from %s: %w", s.Name, t.NodesCSV, err)
	}
	if err := s.copyIn(ctx, "edges", t.EdgesCSV); err != nil {
		return LoadStats{}, fmt.Errorf("%s: load edges from %s: %w", s.Name, t.EdgesCSV, err)
	}
	if s.inTx {
		if _, err := s.conn.ExecContext(ctx, "COMMIT"); err != nil {
			return LoadStats{}, fmt.Errorf("%s: commit the load: %w", s.Name, err)
		}
	}
	copied := time.Now()
	steps := map[string]float64{}
	for _, q := range append(append([]string{}, s.indexes...), s.after...) {
		t0 := time.Now()
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return LoadStats{}, fmt.Errorf("%s: %s: %w", s.Name, q, err)
		}
		steps[q] = time.Since(t0).Seconds()
	}
	st := LoadStats{Seconds: time.Since(start).Seconds(), CopySeconds: copied.Sub(start).Seconds(),
		IndexSeconds: time.Since(copied).Seconds(), StepSeconds: steps}
	st.RowsPerSec = float64(t.NodeVersions+t.EdgeVersions) / st.Seconds
	size, err := s.diskBytes(ctx)
	if err != nil {
		return st, fmt.Errorf("%s: disk size: %w", s.Name, err)
	}
	st.DiskBytes = size
	st.BytesPerEdge = float64(size) / float64(max(1, t.EdgeVersions))
	return st, nil
}

// answer runs query q and returns its answer lines.
func (s *System) answer(ctx context.Context, q peerQuery, a args) ([]string, error) {
	if q.run != nil {
		return q.run(ctx, s.conn, s.d, a)
	}
	return queryLines(ctx, s.conn, q.sql(s.d, a))
}

// Close ends the session and stops the system.
func (s *System) Close() error {
	if s.conn != nil {
		s.conn.Close()
	}
	if s.db != nil {
		s.db.Close()
	}
	if s.stop != nil {
		return s.stop()
	}
	return nil
}

// opener starts a system with its data files under dir.
type opener func(ctx context.Context, dir string) (*System, error)

var openers = map[string]opener{"postgres": openPostgres}

// Open starts the named system ("duckdb", "postgres") with its files in dir.
// duckdb is available only in binaries built with -tags duckdb.
func Open(ctx context.Context, name, dir string) (*System, error) {
	o, ok := openers[name]
	if !ok {
		if name == "duckdb" {
			return nil, fmt.Errorf("this binary has no DuckDB: build it with go build -tags duckdb ./cmd/tgms")
		}
		return nil, fmt.Errorf("unknown peer system %q (known: duckdb, postgres)", name)
	}
	return o(ctx, dir)
}
