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
	cmd.Flags().BoolVar(&r.repair, "repair", false, "settle a disagreement of the log, checkpoint and seal (with --use-log or --use-checkpoint)")
	cmd.Flags().BoolVar(&r.useLog, "use-log", false, "with --repair: keep the event log; the checkpoint and seal are kept aside as *.broken-<time> and rebuilt")
	cmd.Flags().BoolVar(&r.useCheckpoint, "use-checkpoint", false, "with --repair: keep the checkpoint; the event log and seal are kept aside as *.broken-<time>, and a new log starts from the checkpoint's store image")
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
		return repairFromCheckpoint(store, out)
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

// repairFromCheckpoint runs tgms.RepairUseCheckpoint and says exactly what
// was kept and what was lost.
func repairFromCheckpoint(store string, out io.Writer) error {
	rep, err := tgms.RepairUseCheckpoint(store, storeOptions(tgms.Options{}))
	if rep != nil {
		for _, k := range rep.Kept {
			fmt.Fprintf(out, "kept aside: %s\n", k)
		}
	}
	if err != nil {
		return classifyOpen(store, err)
	}
	fmt.Fprintf(out, "repaired: the event log was rebuilt from the checkpoint; it starts with a store image of batches 1..%d (tt %d), and the seal and checkpoint were rebuilt from it\n", rep.Batches, rep.TT)
	fmt.Fprintf(out, "kept: everything the checkpoint held, every version of batches 1..%d with its transaction times (digest %s, store id %s)\n", rep.Batches, rep.Digest, rep.StoreID)
	fmt.Fprintf(out, "lost from the live store: the ops of batches 1..%d as separate log records (the image stands for them), and the sources of earlier bulk ingests (the same file is no longer refused as already loaded)\n", rep.Batches)
	switch {
	case rep.OldLog == "":
		fmt.Fprintf(out, "lost: there was no event log\n")
	case rep.OldErr != "":
		fmt.Fprintf(out, "lost from the live store: the old event log (%d batches read before: %s); its bytes are kept in %s\n", rep.OldRead, rep.OldErr, rep.OldLog)
	default:
		fmt.Fprintf(out, "lost from the live store: the old event log's %d batches; its bytes are kept in %s\n", rep.OldRead, rep.OldLog)
	}
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
