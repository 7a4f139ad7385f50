package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/campaign"
	"github.com/tgms-go/tgms/internal/fault"
)

func newCampaign() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "campaign (crash | corrupt | diskfull | fscrash) --trials N | soak --duration D | overload",
		Short: "Fault campaigns: crash, corruption and disk full against the store's write and open paths",
		Long: `Fault campaigns that check the store's durability and integrity claims.
Each trial runs a deterministic workload (every write op kind, group
commits, a reopen halfway, a checkpoint every kilobyte of log) and judges
the result against the digest of each prefix of that workload.

  crash     the workload in a child process, stopped at each crash point of
            the write path in turn (every write, fsync, rename and checkpoint
            boundary, then at random points) and every fourth trial by
            SIGKILL at a random moment; after each: every acknowledged batch
            present, nothing half-applied, digest = replay of the log
  corrupt   one file of a closed store damaged one way (bit or byte flip,
            truncation, at a record boundary too, zeroed span, appended
            garbage or zeros, deletion, swap with another store's file);
            verdicts DETECTED, REPAIRED, BENIGN, LOST, SILENT
  diskfull  ENOSPC, and short writes, at each write call of the write path,
            the disk staying full; same checks as crash, no hang, and the
            error must say the disk is full
  fscrash   the workload in process over a file system that forgets what
            was not fsynced, stopped at every crash point of workloads with
            seeds S, S+1, ... until --trials distinct (workload, crash
            point) pairs ran; --reorder also lets a random part of the
            unsynced writes through, reordered (two images per point)
  soak      a writer killed and restarted at random for --duration under 8
            readers checking their plans' digests (see 'campaign soak -h')
  overload  'tgms serve' under 1, 4, 16 and 64 concurrent clients (see
            'campaign overload -h')

Exit status 0 when every trial passed (crash and diskfull: all OK; corrupt:
no LOST or SILENT), 1 otherwise. Scratch stores live under --dir (default
a new directory in the system temp dir, removed at the end).`,
	}
	var trials int
	var seed uint64
	var dir string
	var asJSON bool
	add := func(name, short string, run func(cmd *cobra.Command, scratch string) (any, bool, error)) {
		c := &cobra.Command{
			Use:   name + " --trials N [--seed S] [--dir DIR] [--json]",
			Short: short,
			RunE: func(cmd *cobra.Command, _ []string) error {
				if trials <= 0 {
					return usageError{fmt.Errorf("--trials must be positive")}
				}
				scratch := dir
				if scratch == "" {
					d, err := os.MkdirTemp("", "tgms-campaign-")
					if err != nil {
						return err
					}
					defer os.RemoveAll(d)
					scratch = d
				}
				rep, ok, err := run(cmd, scratch)
				if err != nil {
					return err
				}
				if asJSON {
					printJSON(cmd.OutOrStdout(), rep)
				}
				if !ok {
					return fmt.Errorf("campaign %s: some trials failed (see above)", name)
				}
				return nil
			},
		}
		c.Flags().IntVar(&trials, "trials", 0, "number of trials")
		c.Flags().Uint64Var(&seed, "seed", 1, "seed of the workload and of the random choices")
		c.Flags().StringVar(&dir, "dir", "", "scratch directory (default: a new temporary one)")
		c.Flags().BoolVar(&asJSON, "json", false, "also print the report as JSON")
		cmd.AddCommand(c)
	}
	add("crash", "Kill a writer at every crash point and at random moments", func(cmd *cobra.Command, scratch string) (any, bool, error) {
		bin, err := os.Executable()
		if err != nil {
			return nil, false, err
		}
		rep, err := campaign.Crash(cmd.Context(), campaign.CrashConfig{Binary: bin, Trials: trials, Seed: seed, Dir: scratch})
		if err != nil {
			return nil, false, err
		}
		w := cmd.OutOrStdout()
		fmt.Fprintf(w, "crash campaign: %d trials (%d at crash points of %d, %d by SIGKILL of the writer, %d by SIGKILL of 'serve --allow-writes'; %d writers died before acknowledging every batch)\n", rep.Trials, rep.ByPoint, rep.CrashPoints, rep.BySignal, rep.ByServe, rep.Interrupted)
		printTally(w, rep.Outcomes, outcomeNames())
		printFailures(w, rep.Failures)
		return rep, rep.Outcomes[string(campaign.OK)] == rep.Trials, nil
	})
	add("corrupt", "Damage one or two files of a sealed or post-seal store per trial and classify what an open does", func(cmd *cobra.Command, scratch string) (any, bool, error) {
		bin, err := os.Executable()
		if err != nil {
			return nil, false, err
		}
		rep, err := campaign.Corrupt(cmd.Context(), campaign.CorruptConfig{Trials: trials, Seed: seed, Dir: scratch, Binary: bin})
		if err != nil {
			return nil, false, err
		}
		w := cmd.OutOrStdout()
		fmt.Fprintf(w, "corruption campaign: %d trials (%d damaging two files; states %s; swaps from %s)\nwriter open:\n",
			rep.Trials, rep.TwoFiles, strings.Join(campaign.States, ", "), strings.Join(campaign.Sources, ", "))
		printTally(w, rep.Verdicts, campaign.Verdicts)
		fmt.Fprintln(w, "read-only open (first):")
		printTally(w, rep.Reader, campaign.Verdicts)
		fmt.Fprintln(w, "by mutation (worse of writer and reader):")
		printBy(w, rep.ByKind)
		fmt.Fprintln(w, "by file (worse of writer and reader):")
		printBy(w, rep.ByFile)
		fmt.Fprintln(w, "by state (worse of writer and reader):")
		printBy(w, rep.ByState)
		fmt.Fprintf(w, "refusals not matching ErrStoreDamaged: %d\n", rep.Untyped)
		printFailures(w, rep.Failures)
		bad := rep.Verdicts[campaign.Silent] + rep.Verdicts[campaign.LostData] + rep.Reader[campaign.Silent] + rep.Reader[campaign.LostData]
		return rep, bad == 0 && rep.Untyped == 0, nil
	})
	add("diskfull", "Fail each write call of the write path with ENOSPC or a short write", func(cmd *cobra.Command, scratch string) (any, bool, error) {
		rep, err := campaign.DiskFull(cmd.Context(), campaign.DiskFullConfig{Trials: trials, Seed: seed, Dir: scratch})
		if err != nil {
			return nil, false, err
		}
		w := cmd.OutOrStdout()
		fmt.Fprintf(w, "disk-full campaign: %d trials over %d write calls (%d short writes)\n", rep.Trials, rep.WriteCalls, rep.Short)
		printTally(w, rep.Outcomes, outcomeNames())
		fmt.Fprintf(w, "errors not saying the disk is full: %d\n", rep.Unclear)
		printFailures(w, rep.Failures)
		return rep, rep.Outcomes[string(campaign.OK)] == rep.Trials && rep.Unclear == 0, nil
	})
	add("fscrash", "Crash at every point over a file system that keeps only what was synced (--reorder: and a reordered part of the rest)", func(cmd *cobra.Command, scratch string) (any, bool, error) {
		return runFSCrash(cmd, scratch, trials, seed, fsReorder)
	})
	for _, c := range cmd.Commands() {
		if c.Name() == "fscrash" {
			c.Flags().BoolVar(&fsReorder, "reorder", false, "also let a random subset of the unsynced writes reach the disk, reordered in 512-byte pieces")
		}
	}
	cmd.AddCommand(newCrashChild(), newSoak(), newSoakWriter(), newOverload())
	return cmd
}

func newCrashChild() *cobra.Command {
	var store string
	var seed uint64
	var batches int
	var ackEarly, killAfterAck bool
	c := &cobra.Command{
		Use:    "crash-child --store DIR --seed S --batches N",
		Short:  "The crash campaign's writer (run by 'tgms campaign crash')",
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			defer fault.Report()
			if killAfterAck {
				return campaign.CrashChildKilledAfterAck(store, seed, batches, os.Stdout)
			}
			return campaign.CrashChild(store, seed, batches, ackEarly, os.Stdout)
		},
	}
	c.Flags().StringVar(&store, "store", "", "store directory")
	c.Flags().Uint64Var(&seed, "seed", 1, "workload seed")
	c.Flags().IntVar(&batches, "batches", 24, "workload batches")
	c.Flags().BoolVar(&ackEarly, "ack-early", false, "acknowledge before writing (a broken writer, for testing the campaign)")
	c.Flags().BoolVar(&killAfterAck, "kill-after-ack", false, "continue the workload on the store and SIGKILL this process right after the last acknowledgement")
	return c
}

func outcomeNames() []string {
	var out []string
	for _, o := range campaign.Outcomes {
		out = append(out, string(o))
	}
	return out
}

func printTally(w io.Writer, t campaign.Tally, order []string) {
	for _, k := range order {
		fmt.Fprintf(w, "  %-12s %d\n", k, t[k])
	}
}

func printBy(w io.Writer, by map[string]campaign.Tally) {
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var parts []string
		for _, v := range campaign.Verdicts {
			if n := by[k][v]; n > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", v, n))
			}
		}
		fmt.Fprintf(w, "  %-18s %s\n", k, strings.Join(parts, ", "))
	}
}

func printFailures(w io.Writer, fs []string) {
	for _, f := range fs {
		fmt.Fprintln(w, "  !", f)
	}
}
