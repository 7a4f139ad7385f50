package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/campaign"
)

func newSoak() *cobra.Command {
	var c campaign.SoakConfig
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "soak --duration D [--kill-every D] [--checkpoint-every N] [--readers N] [--json]",
		Short: "A writer appending batches, killed and restarted at random, under readers checking their digests",
		Long: `Runs a writer process (appending deterministic batches, a checkpoint
every --checkpoint-every batches, serving its store read-only over HTTP)
and --readers readers running plans on it at acknowledged belief times,
for --duration. The writer is SIGKILLed at random (uniformly between half
and one and a half --kill-every) and restarted. Checked: the reopened
store holds every acknowledged batch and the digest of an oracle engine
built in process from those batches; a plan rerun at one belief time
gives one trace digest; every fourth call gives the oracle's digest for
the same plan. Reported per interval: calls, p50 and p99 latency, write
p99, kills, RSS of the writer and of the campaign, with the slope of a
linear fit of each. Exit status 1 on any lost batch, digest mismatch,
kill not recovered or failure.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if c.Duration <= 0 {
				return usageError{fmt.Errorf("--duration must be positive (e.g. --duration 3m)")}
			}
			bin, err := os.Executable()
			if err != nil {
				return err
			}
			c.Binary = bin
			if dir == "" {
				d, err := os.MkdirTemp("", "tgms-soak-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(d)
				dir = d
			}
			c.Dir = dir + "/store"
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "soak: %v, %d readers, writer killed every %v on average, checkpoint every %d batches\n", c.Duration, max(c.Readers, 8), c.KillMean, c.CheckpointEvery)
			printSoakHeader(w)
			c.Progress = func(r campaign.SoakInterval) { printSoakRow(w, r) }
			rep, err := campaign.Soak(cmd.Context(), c)
			if err != nil {
				return err
			}
			printSoakSummary(w, rep)
			if asJSON {
				printJSON(w, rep)
			}
			if !rep.OK() {
				return fmt.Errorf("campaign soak: lost batches %d, digest mismatches %d, kills %d recovered %d, failures %d (see above)",
					rep.LostBatches, rep.Mismatches.Repeat+rep.Mismatches.Oracle+rep.Mismatches.Recovery, rep.Kills, rep.Recoveries, len(rep.Failures))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.DurationVar(&c.Duration, "duration", 0, "how long to run (e.g. 3m, 1h)")
	f.DurationVar(&c.KillMean, "kill-every", 3*time.Minute, "mean time between SIGKILLs of the writer")
	f.IntVar(&c.CheckpointEvery, "checkpoint-every", 200, "batches between checkpoints")
	f.IntVar(&c.Readers, "readers", 8, "reader goroutines")
	f.DurationVar(&c.BatchEvery, "batch-every", 50*time.Millisecond, "the writer's pause between batches")
	f.DurationVar(&c.ReaderPause, "reader-pause", 0, "each reader's pause between calls")
	f.DurationVar(&c.Interval, "interval", 0, "length of one report row (default: a twelfth of --duration, at least 5s)")
	f.Uint64Var(&c.Seed, "seed", 1, "seed of the workload and of the random choices")
	f.StringVar(&dir, "dir", "", "scratch directory (default: a new temporary one, removed at the end)")
	f.BoolVar(&asJSON, "json", false, "also print the report as JSON")
	f.BoolVar(&c.AckEarly, "fault-ack-early", false, "plant a fault: the writer acknowledges each batch before writing it (the campaign must fail)")
	f.IntVar(&c.PerturbEvery, "fault-perturb-every", 0, "plant a fault: one reader perturbs every N-th digest it receives (the campaign must fail)")
	f.MarkHidden("fault-ack-early")
	f.MarkHidden("fault-perturb-every")
	return cmd
}

func printSoakHeader(w io.Writer) {
	fmt.Fprintf(w, "  %8s %8s %7s %9s %9s %9s %5s %10s %10s\n", "t_s", "batches", "calls", "p50_ms", "p99_ms", "write_p99", "kills", "writer_MiB", "campgn_MiB")
}

func printSoakRow(w io.Writer, r campaign.SoakInterval) {
	fmt.Fprintf(w, "  %8.0f %8d %7d %9.2f %9.2f %9.2f %5d %10.1f %10.1f\n", r.EndS, r.Batches, r.Calls, r.CallP50Ms, r.CallP99Ms, r.WriteP99Ms, r.Kills, r.WriterRSSMiB, r.CampaignRSSMiB)
}

func printSoakSummary(w io.Writer, r *campaign.SoakReport) {
	m := r.Mismatches
	fmt.Fprintf(w, "soak: %.0f s, %d batches acknowledged, %d checkpoints, %d kills, %d recoveries (slowest %.0f ms)\n", r.DurationS, r.Batches, r.Checkpoints, r.Kills, r.Recoveries, r.RecoveryMaxMs)
	fmt.Fprintf(w, "  lost acknowledged batches %d\n  digest mismatches %d (rerun %d, oracle %d, recovery %d)\n", r.LostBatches, m.Repeat+m.Oracle+m.Recovery, m.Repeat, m.Oracle, m.Recovery)
	fmt.Fprintf(w, "  reader calls %d (%d reruns, %d checked on the oracle), %d found the writer down, %d errors\n", r.ReaderCalls, r.Repeats, r.OracleRuns, r.Unavailable, r.CallErrors)
	fmt.Fprintf(w, "  RSS slope: writer %+.2f MiB/min, campaign %+.2f MiB/min\n", r.WriterRSSSlope, r.CampaignRSSSlope)
	if r.Stopped != "" {
		fmt.Fprintf(w, "  stopped early: %s\n", r.Stopped)
	}
	printFailures(w, r.Failures)
}

func newSoakWriter() *cobra.Command {
	var c campaign.SoakWriterConfig
	cmd := &cobra.Command{
		Use:    "soak-writer --store DIR --http ADDR",
		Short:  "The soak campaign's writer (run by 'tgms campaign soak')",
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return campaign.SoakWriter(cmd.Context(), c, os.Stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.Dir, "store", "", "store directory")
	f.StringVar(&c.HTTP, "http", "", "address of the read-only JSON API")
	f.Uint64Var(&c.Seed, "seed", 1, "workload seed")
	f.DurationVar(&c.Every, "every", 20*time.Millisecond, "pause between batches")
	f.IntVar(&c.CheckpointEvery, "checkpoint-every", 200, "batches between checkpoints")
	f.BoolVar(&c.AckEarly, "ack-early", false, "acknowledge before writing (a broken writer, for testing the campaign)")
	return cmd
}
