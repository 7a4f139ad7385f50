package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
)

// repairFlags are check's --repair choices.
type repairFlags struct {
	repair, useLog, useCheckpoint bool
}

func (r *repairFlags) add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&r.repair, "repair", false, "settle a disagreement of the log, checkpoint and seal (with --use-log)")
	cmd.Flags().BoolVar(&r.useLog, "use-log", false, "with --repair: keep the event log; the checkpoint and seal are kept aside as *.broken-<time> and rebuilt")
	cmd.Flags().BoolVar(&r.useCheckpoint, "use-checkpoint", false, "with --repair: keep the checkpoint (refused: see the message)")
}

// run performs the repair the flags ask for, if any, before the check.
func (r *repairFlags) run(store string, out io.Writer) error {
	switch {
	case !r.repair && (r.useLog || r.useCheckpoint):
		return usageError{errors.New("--use-log and --use-checkpoint go with --repair")}
	case !r.repair:
		return nil
	case r.useLog == r.useCheckpoint:
		return usageError{errors.New("--repair needs exactly one of --use-log or --use-checkpoint")}
	case r.useCheckpoint:
		return badInput("--use-checkpoint cannot be done: a checkpoint holds the versions but not the batches' ops, so no event log can be rebuilt from it, and a store without its log could not be checked or replayed again. " +
			"Nothing was changed. Keep the checkpoint as it is and restore events.wal from a backup, or choose --use-log")
	}
	kept, err := tgms.RepairUseLog(store, storeOptions(tgms.Options{}))
	for _, k := range kept {
		fmt.Fprintf(out, "kept aside: %s\n", k)
	}
	if err != nil {
		return classifyOpen(store, err)
	}
	fmt.Fprintf(out, "repaired: the checkpoint and the seal were rebuilt from the event log\n")
	return nil
}

// checkError sorts an error of tgms.Check: a directory that is no store is
// bad input (2), a store another process holds is in use (4), anything
// else internal (1); a damaged store is never an error here but findings.
func checkError(err error) error {
	switch {
	case errors.Is(err, tgms.ErrStoreInUse):
		return storeError{err, exitInUse}
	case errors.Is(err, os.ErrNotExist):
		return inputError{err}
	}
	return err
}
