package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/campaign"
)

var fsReorder bool

// runFSCrash runs FS crash campaigns over workloads seed, seed+1, ...
// until at least pairs distinct (workload, crash point) pairs ran.
func runFSCrash(cmd *cobra.Command, scratch string, pairs int, seed uint64, reorder bool) (any, bool, error) {
	total := &campaign.FSCrashReport{Outcomes: campaign.Tally{}, ByPoint: campaign.Tally{}}
	var seeds []uint64
	for s := seed; total.Pairs < pairs; s++ {
		rep, err := campaign.FSCrash(cmd.Context(), campaign.FSCrashConfig{Seeds: []uint64{s}, Reorder: reorder, Draws: 2, Dir: scratch})
		if err != nil {
			return nil, false, err
		}
		seeds = append(seeds, s)
		total.Mode = rep.Mode
		total.Pairs += rep.Pairs
		total.Trials += rep.Trials
		for k, n := range rep.Outcomes {
			total.Outcomes[k] += n
		}
		for k, n := range rep.ByPoint {
			total.ByPoint[k] += n
		}
		for _, f := range rep.Failures {
			if len(total.Failures) < 10 {
				total.Failures = append(total.Failures, f)
			}
		}
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "fs crash campaign (%s): %d distinct (workload, crash point) pairs over %d workloads, %d trials\n", total.Mode, total.Pairs, len(seeds), total.Trials)
	printTally(w, total.Outcomes, outcomeNames())
	printFailures(w, total.Failures)
	return total, total.Outcomes[string(campaign.OK)] == total.Trials, nil
}
