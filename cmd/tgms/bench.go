package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/bench"
	"github.com/tgms-go/tgms/bench/peers"
)

func newBench() *cobra.Command {
	var store, vs, only string
	var asJSON bool
	var warmups, reps, minReps int
	var budget, hotBelow time.Duration
	cmd := &cobra.Command{
		Use:   "bench --store DIR [--vs duckdb,postgres] [--json]",
		Short: "Time the 13-query operator registry on a store (p50/p95 latency), optionally against DuckDB and PostgreSQL",
		Long: `Run the benchmark registry: 13 operator queries (the reference system's
shapes) whose arguments are drawn from the store so that every answer is
non-empty at any scale: its valid-time extent, the busiest nodes for each
query (most versions, most edges valid at the midpoint, most early
out-edges), a paths target and co-active partner that have answers, and a
200-uid motif filter that holds instances. Each query is warmed up, then
timed in process; p50 and p95 are reported with the answer size and
result digest.

--vs duckdb,postgres also runs the registry on peer systems: the store's
node and edge version tables are exported to a temporary directory and
loaded into DuckDB (in process; only in binaries built with -tags duckdb)
and into a PostgreSQL 15 server started on a free loopback port from
/usr/lib/postgresql/15/bin (TGMS_PG_BIN overrides; run as root, the server
runs as user postgres). Every query's answer is checked equal to the
native one before it is timed; then the systems are timed interleaved and
the table gives each p50, the peer/native ratio and the answer size, with
each system's load rate (peers: bulk load, then indexes and ANALYZE;
native: a durable replay of the store's whole log into a new store, the
same node and edge versions, history included, its digest checked) and
bytes per edge version on disk. Each query gets --warmups untimed runs per
system (none for a system whose checked run took over a second), then
--min-reps timed rounds however slow, and more up to --reps while
--budget lasts; progress goes to stderr. The table leads with cold figures (each run straight after another
system's); when any system's checked run took under --hot-below, every
system also runs the query again right after, and a second table gives
those hot figures (its own code and data in the caches, as a database
serving a workload has them). A peer that
cannot start is skipped with the reason. Exit status 1 when any answer
differs.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			qs, err := bench.Registry(db)
			if err != nil {
				return badInput("%v", err)
			}
			if only != "" {
				if qs, err = pickQueries(qs, strings.Split(only, ",")); err != nil {
					return err
				}
			}
			if vs != "" {
				o := peers.Options{Warmups: warmups, Reps: reps, MinReps: minReps, Budget: budget, HotBelow: hotBelow, Progress: cmd.ErrOrStderr()}
				return runPeers(cmd, db, qs, strings.Split(vs, ","), o, asJSON)
			}
			res := bench.Run(cmd.Context(), db, qs, warmups, reps)
			if asJSON {
				return printJSON(cmd.OutOrStdout(), map[string]any{"store": store, "stats": db.Stats(), "results": res})
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%-16s %-26s %9s %9s %6s %10s  %s\n", "query", "operator", "p50 ms", "p95 ms", "reps", "size", "status")
			for _, r := range res {
				fmt.Fprintf(w, "%-16s %-26s %9.3f %9.3f %6d %10d  %s %s\n", r.ID, r.Op, r.P50Ms, r.P95Ms, r.Reps, r.Size, r.Status, r.Error)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().StringVar(&vs, "vs", "", "peer systems to compare with: duckdb, postgres (comma-separated)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&only, "queries", "", "run only these registry queries (ids, comma-separated, e.g. resolve.substr)")
	cmd.Flags().IntVar(&warmups, "warmups", 5, "untimed runs per query")
	cmd.Flags().IntVar(&reps, "reps", 30, "timed runs per query (fewer when a query is slow)")
	cmd.Flags().IntVar(&minReps, "min-reps", 3, "with --vs: timed rounds always run per query, however slow; more run within --budget")
	cmd.Flags().DurationVar(&hotBelow, "hot-below", 50*time.Millisecond, "with --vs: when any system's checked run took less, every system is also timed hot (the query again right after its cold run; a second table); 0: cold only")
	cmd.Flags().DurationVar(&budget, "budget", 20*time.Second, "with --vs: time spent timing one query on all systems beyond --min-reps")
	return cmd
}

// pickQueries is the registry queries named by ids, in registry order.
func pickQueries(qs []bench.Query, ids []string) ([]bench.Query, error) {
	var out []bench.Query
	var known []string
	for _, q := range qs {
		known = append(known, q.ID)
		if slices.Contains(ids, q.ID) {
			out = append(out, q)
		}
	}
	for _, id := range ids {
		if !slices.Contains(known, id) {
			return nil, badInput("--queries %q: no such registry query; the ids are %s", id, strings.Join(known, ", "))
		}
	}
	return out, nil
}

func runPeers(cmd *cobra.Command, db *tgms.DB, qs []bench.Query, names []string, o peers.Options, asJSON bool) error {
	ctx := cmd.Context()
	w, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	for _, n := range names {
		if n != "duckdb" && n != "postgres" {
			return badInput("--vs %q: the peer systems are duckdb and postgres", n)
		}
	}
	tmp, err := os.MkdirTemp("", "tgms-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if o.Reps < 1 || o.MinReps < 1 || o.MinReps > o.Reps || o.Budget < 0 || o.HotBelow < 0 {
		return badInput("--reps %d, --min-reps %d, --budget %s, --hot-below %s: need 1 <= --min-reps <= --reps and a non-negative budget and --hot-below", o.Reps, o.MinReps, o.Budget, o.HotBelow)
	}
	step := func(what string) {
		fmt.Fprintf(errw, "%s %s\n", time.Now().UTC().Format("15:04:05"), what)
	}
	step("export the version tables to " + tmp)
	t, err := peers.Export(db, tmp)
	if err != nil {
		return err
	}
	loads := map[string]peers.LoadStats{}
	step("native durable load of the store's log (the same version tables)")
	native, err := peers.NativeLoad(db, t, filepath.Join(tmp, "native"))
	if err != nil {
		return err
	}
	loads["native"] = native
	var systems []*peers.System
	var ran []string
	for _, n := range names {
		dir := filepath.Join(tmp, n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		s, err := peers.Open(ctx, n, dir)
		if err != nil {
			fmt.Fprintf(errw, "%s: skipped: %v\n", n, err)
			continue
		}
		defer s.Close()
		step("load " + n)
		st, err := s.Load(ctx, t)
		if err != nil {
			return err
		}
		loads[n] = st
		systems = append(systems, s)
		ran = append(ran, n)
	}
	step("check every answer, then time the systems interleaved")
	rows, err := peers.Compare(ctx, db, qs, systems, o)
	if err != nil {
		return err
	}
	bad := 0
	for _, r := range rows {
		for _, c := range r.Peers {
			if c.Status == "mismatch" || c.Status == "error" {
				bad++
			}
		}
	}
	if asJSON {
		if err := printJSON(w, map[string]any{"stats": db.Stats(), "systems": ran, "load": loads, "results": rows}); err != nil {
			return err
		}
	} else {
		st := db.Stats()
		fmt.Fprintf(w, "store: %d node versions, %d edge versions\n", st.NodeVersions, st.EdgeVersions)
		fmt.Fprintf(w, "%-10s %9s %9s %9s %12s %12s\n", "system", "load s", "copy s", "index s", "rows/s", "B/edge ver.")
		for _, n := range append([]string{"native"}, ran...) {
			l := loads[n]
			fmt.Fprintf(w, "%-10s %9.2f %9.2f %9.2f %12.0f %12.1f\n", n, l.Seconds, l.CopySeconds, l.IndexSeconds, l.RowsPerSec, l.BytesPerEdge)
		}
		fmt.Fprintln(w, "(native: durable replay of every batch of the store's log into a new store, the same node and edge versions, digest checked; peers: bulk load of both tables, then indexes and ANALYZE; rows/s over node and edge versions)")
		peers.Print(w, rows, ran)
	}
	if bad > 0 {
		return fmt.Errorf("%d peer answers differ from the native ones or failed", bad)
	}
	return nil
}
