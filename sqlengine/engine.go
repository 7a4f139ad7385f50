package sqlengine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/pgstore"
)

// kernel computes one operator's payload with SQL inside a pinned
// transaction.
type kernel func(p *pinned, c *ops.Call) (map[string]any, error)

// uidsVersion is the first schema version with the uids table.
const uidsVersion = 3

var kernels = map[string]kernel{
	"aggregate_events":        runAggregate,
	"burst_detection":         runBurst,
	"co_active":               runCoActive,
	"compute":                 runCompute,
	"count_temporal_motifs":   runMotifs,
	"diff_snapshots":          runDiffSnapshots,
	"entity_history":          runHistory,
	"graph_metric_timeseries": runSeries,
	"neighborhood_evolution":  runNeighborhood,
	"resolve_entities":        runResolve,
	"snapshot_subgraph":       runSnapshot,
	"temporal_paths":          runPaths,
	"temporal_reachability":   runReach,
}

// Supported lists the operators that have a SQL form, sorted.
func Supported() []string {
	out := make([]string, 0, len(kernels))
	for n := range kernels {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Engine runs operators as SQL against a PostgreSQL store's version
// tables. It reads no batch and builds no in-memory engine. An Engine
// holds one connection; calls on it run one at a time.
type Engine struct {
	mu     sync.Mutex
	conn   *pgx.Conn
	schema string
	// counts were read in a snapshot whose last batch was countsTT: the
	// version tables change only with a batch, so they hold until then.
	counts   engine.Counts
	stated   bool // some batch states provenance (see withoutProvenance)
	countsTT bt.Time
	haveCnt  bool
}

// Open connects to the store named by url (pgstore.ParseURL) read-only.
// A schema without a store, or written by a later release, is refused.
func Open(ctx context.Context, url string) (*Engine, error) {
	cfg, schema, err := pgstore.ParseURL(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["search_path"] = schema
	cfg.RuntimeParams["application_name"] = "tgms sql engine"
	// Plans are made for each call's values: a generic plan of a cached
	// statement cannot see that the belief test keeps nearly every row (it
	// guesses a few), and would then pick nested loops over whole tables.
	cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("sql engine: connecting to %s: %w", pgstore.Redact(url), err)
	}
	var version int
	if err := conn.QueryRow(ctx, "SELECT schema_version FROM tgms_meta").Scan(&version); err != nil {
		conn.Close(ctx)
		if errors.Is(err, pgx.ErrNoRows) || strings.Contains(err.Error(), "does not exist") {
			return nil, fmt.Errorf("sql engine: no store in schema %q of %s (write one with 'tgms ingest --store %s')", schema, pgstore.Redact(url), pgstore.Redact(url))
		}
		return nil, fmt.Errorf("sql engine: reading tgms_meta in schema %q: %w", schema, err)
	}
	if version > pgstore.SchemaVersion {
		conn.Close(ctx)
		return nil, fmt.Errorf("sql engine: schema %q is at version %d, newer than this release reads (%d): upgrade tgms", schema, version, pgstore.SchemaVersion)
	}
	if version < uidsVersion {
		conn.Close(ctx)
		return nil, fmt.Errorf("sql engine: schema %q is at version %d, which does not record the uids each batch registers (version %d does): open it once with a writer of this release (e.g. tgms ingest --store %s) to migrate it", schema, version, uidsVersion, pgstore.Redact(url))
	}
	var pending bool
	if err := conn.QueryRow(ctx, "SELECT uids_pending FROM tgms_meta").Scan(&pending); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("sql engine: reading tgms_meta in schema %q: %w", schema, err)
	}
	if pending {
		conn.Close(ctx)
		return nil, fmt.Errorf("sql engine: schema %q was migrated to version %d but its uids table is not filled yet: open it once with a writer of this release (e.g. tgms ingest --store %s) to fill it", schema, uidsVersion, pgstore.Redact(url))
	}
	return &Engine{conn: conn, schema: schema}, nil
}

// Close closes the connection.
func (e *Engine) Close() error { return e.conn.Close(context.Background()) }

// LastTT is the transaction time of the store's last batch (0 when none).
func (e *Engine) LastTT() bt.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	var tt int64
	if err := e.conn.QueryRow(context.Background(), "SELECT coalesce(max(tt), 0) FROM batches").Scan(&tt); err != nil {
		return 0
	}
	return tt
}

// Pin runs fn inside one REPEATABLE READ, READ ONLY transaction, pinned
// at asOf clamped to the last batch's transaction time, as the native
// engine pins a read: every statement of a call sees one snapshot.
func (e *Engine) Pin(asOf bt.Time, fn func(ops.Pinned) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	ctx := context.Background()
	tx, err := e.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("sql engine: %w", err)
	}
	defer tx.Rollback(ctx)
	var last int64
	if err := tx.QueryRow(ctx, "SELECT coalesce(max(tt), 0) FROM batches").Scan(&last); err != nil {
		return fmt.Errorf("sql engine: reading the last batch: %w", err)
	}
	p := &pinned{tx: tx, asOf: bt.ClampTT(min(asOf, last))}
	if e.haveCnt && e.countsTT == last {
		p.counts, p.stated = e.counts, e.stated
	} else {
		if err := p.readCounts(ctx); err != nil {
			return err
		}
		// Record type 3 in eventlog's payload encoding: a batch with its
		// stated provenance.
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM batches WHERE get_byte(payload, 0) = 3)").Scan(&p.stated); err != nil {
			return fmt.Errorf("sql engine: reading batch provenance: %w", err)
		}
		e.counts, e.stated, e.countsTT, e.haveCnt = p.counts, p.stated, last, true
	}
	return fn(p)
}

// pinned is one call's transaction and belief time.
type pinned struct {
	tx     pgx.Tx
	asOf   bt.Time
	counts engine.Counts
	stated bool
}

func (p *pinned) AsOf() bt.Time         { return p.asOf }
func (p *pinned) Counts() engine.Counts { return p.counts }
func (p *pinned) Reader() ops.Reader    { return nil }

// Run dispatches to the operator's SQL kernel, or refuses an operator
// that has none.
func (p *pinned) Run(spec *ops.Spec, c *ops.Call) (map[string]any, error) {
	k, ok := kernels[spec.Name]
	if !ok {
		return nil, Refusal(spec.Name)
	}
	return k(p, c)
}

// Refusal is the E_INVALID_ARG of an operator without a SQL form.
func Refusal(op string) *ops.Error {
	return ops.Errorf(ops.EInvalidArg, map[string]any{"allowed": Supported(), "hint": "run it on the in-memory engine (drop --engine sql)"},
		"%s has no SQL form under --engine sql; the operators that have one: %s", op, strings.Join(Supported(), ", "))
}

// readCounts reads the statistics the cost models and the envelope's
// dataset extent use (once per last batch: Engine keeps them), over every stored version as the native engine's
// Counts: nodes are the registered uids;
// the extent runs from the earliest edge start to the latest edge end, an
// open end counting as start + 1.
func (p *pinned) readCounts(ctx context.Context) error {
	var c engine.Counts
	var nodes, nv, ev int64
	err := p.tx.QueryRow(ctx, `SELECT
  (SELECT count(*) FROM uids),
  (SELECT count(*) FROM node_versions),
  (SELECT count(*) FROM edge_versions),
  (SELECT coalesce(min(vt_s), 0) FROM edge_versions),
  (SELECT coalesce(max(CASE WHEN vt_e >= $1 THEN vt_s + 1 ELSE vt_e END), 0) FROM edge_versions)`, bt.OpenEnd).
		Scan(&nodes, &nv, &ev, &c.VtMin, &c.VtMax)
	if err != nil {
		return fmt.Errorf("sql engine: reading store counts: %w", err)
	}
	c.Nodes, c.NodeVersions, c.EdgeVersions = int(nodes), int(nv), int(ev)
	p.counts = c
	return nil
}

// known refuses a uid that no batch at or before the pinned time
// registered. A batch registers every uid it names, also when none of the
// uid's versions outlives the batch (an edge asserted and retracted in
// one batch), so the uids table, not the version tables, decides.
func (p *pinned) known(c *ops.Call, path, uid string) error {
	var ok bool
	err := p.tx.QueryRow(c.Ctx, `SELECT EXISTS (SELECT 1 FROM uids WHERE uid = $1 AND tt <= $2)`, uid, p.asOf).Scan(&ok)
	if err != nil {
		return err
	}
	if !ok {
		return ops.UnknownUID(path, uid)
	}
	return nil
}

var ctx0 = context.Background()

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
