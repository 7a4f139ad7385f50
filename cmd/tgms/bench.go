package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/bench"
)

func newBench() *cobra.Command {
	var store string
	var asJSON bool
	var warmups, reps int
	cmd := &cobra.Command{
		Use:   "bench --store DIR [--json]",
		Short: "Time the 13-query operator registry on a store (p50/p95 latency)",
		Long: `Run the benchmark registry: 13 operator queries whose arguments derive
from the store (its valid-time extent, uids n1/n2 or the first two, the
belief time of the first batch, the first 200 source uids as a motif
filter). Each query is warmed up, then timed in process; p50 and p95 are
reported with the answer size and result digest.`,
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&warmups, "warmups", 5, "untimed runs per query")
	cmd.Flags().IntVar(&reps, "reps", 30, "timed runs per query (fewer when a query is slow)")
	return cmd
}
