package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/campaign"
)

func newOverload() *cobra.Command {
	var c campaign.OverloadConfig
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "overload [--levels 1,4,16,64] [--per-level D] [--deadline D] [--heavy N] [--json]",
		Short: "'tgms serve' under 1, 4, 16 and 64 concurrent clients on loopback: throughput, latency, E_BUSY, RSS, recovery",
		Long: `Builds a store of --batches soak batches, serves it with 'tgms serve' on
loopback and runs each level's clients against it for --per-level, every
client calling without pause a mix of cheap calls (stats, validate_plan)
and, a --heavy-share of the time, heavy ones (plans: a two-hop snapshot,
temporal reachability, an entity's history), which count against the
server's bound on concurrent heavy calls (--heavy; a call that cannot
start within --deadline is refused with E_BUSY). Reports per level: calls,
throughput, p50 and p99 (all, cheap, heavy), E_BUSY count and rate (of
heavy calls), calls stopped at the deadline, other errors, peak RSS; and the idle latency of each kind (calls
one at a time) before the first level and after the last. Exit status 1
on any error other than E_BUSY, or when the idle latency after is not
within twice the one before plus 2 ms.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bin, err := os.Executable()
			if err != nil {
				return err
			}
			c.Binary = bin
			if dir == "" {
				d, err := os.MkdirTemp("", "tgms-overload-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(d)
				dir = d
			}
			c.Dir = dir
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "overload: %d-batch store, %v per level, heavy share %.2f\n", max(c.Batches, 3000), c.PerLevel, c.HeavyShare)
			fmt.Fprintf(w, "  %7s %7s %8s %8s %8s %9s %9s %9s %7s %7s %6s %6s %8s\n", "clients", "calls", "calls/s", "p50_ms", "p99_ms", "cheap_p99", "heavy_p50", "heavy_p99", "e_busy", "busy_%", "late", "errors", "rss_MiB")
			c.Progress = func(l campaign.OverloadLevel) {
				fmt.Fprintf(w, "  %7d %7d %8.1f %8.2f %8.2f %9.2f %9.2f %9.2f %7d %7.2f %6d %6d %8.1f\n", l.Clients, l.Calls, l.PerSecond, l.P50Ms, l.P99Ms, l.CheapP99Ms, l.HeavyP50Ms, l.HeavyP99Ms, l.Busy, 100*l.BusyRate, l.Late, l.Errors, l.PeakRSSMiB)
			}
			rep, err := campaign.Overload(cmd.Context(), c)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "idle p50 before: cheap %.2f ms, heavy %.2f ms; after: cheap %.2f ms, heavy %.2f ms; recovered %v\n",
				rep.IdleBefore.CheapP50Ms, rep.IdleBefore.HeavyP50Ms, rep.IdleAfter.CheapP50Ms, rep.IdleAfter.HeavyP50Ms, rep.Recovered)
			fmt.Fprintf(w, "server peak RSS %.1f MiB\n", rep.PeakRSSMiB)
			printFailures(w, rep.Failures)
			if asJSON {
				printJSON(w, rep)
			}
			if !rep.OK() {
				return fmt.Errorf("campaign overload: errors other than E_BUSY, or latency did not recover to idle (see above)")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntSliceVar(&c.Levels, "levels", []int{1, 4, 16, 64}, "concurrent clients of each level")
	f.DurationVar(&c.PerLevel, "per-level", 10*time.Second, "how long each level runs")
	f.Float64Var(&c.HeavyShare, "heavy-share", 0.5, "fraction of calls that are heavy (plans)")
	f.DurationVar(&c.Deadline, "deadline", 0, "the server's --deadline (default: its own)")
	f.IntVar(&c.Heavy, "heavy", 0, "the server's --heavy (default: one per CPU)")
	f.IntVar(&c.Batches, "batches", 3000, "soak batches in the served store")
	f.Uint64Var(&c.Seed, "seed", 1, "seed of the store and of the clients' choices")
	f.StringVar(&dir, "dir", "", "scratch directory (default: a new temporary one, removed at the end)")
	f.BoolVar(&asJSON, "json", false, "also print the report as JSON")
	return cmd
}
