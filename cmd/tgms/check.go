package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/pgstore"
)

func newCheck() *cobra.Command {
	var store string
	var full, asJSON bool
	var rep repairFlags
	cmd := &cobra.Command{
		Use:   "check --store DIR [--full] [--json]",
		Short: "Verify a store's files without changing them (an fsck)",
		Long: `Verify a store without changing it, under a shared lock like any reader:
the event log's framing, checksums, batch numbers and transaction times,
its store id, whether the checkpoint and the seal belong to this log and
agree with it, and whether the store opens (and with which warnings).
--full also replays the whole log into a fresh engine and compares its
digest with the digest the store opens with, and warns about every
believed edge that lies outside its endpoints' validity (an endpoint with
no node version covering the edge's valid time).

Each finding is printed as: SEVERITY FILE[@OFFSET]: MESSAGE, with severity
error (damage, or files that do not belong together), warning (an open
would repair or ignore something) or info.

When the log, the checkpoint and the seal disagree (or one is missing),
every read and write refuses until you choose: --repair --use-log keeps the
event log, the source of truth, renames the checkpoint and the seal to
*.broken-<time> and rebuilds both from the log, then checks again.

A PostgreSQL store (--store postgres://...) is checked in one snapshot:
every batch row's checksum (a bad one is named by its tt), the batches'
replay, and that node_versions and edge_versions equal that replay row by
row; --full changes nothing there (the replay is always done).

Exit status: 0 when there are no errors or warnings; 5 (a damaged store, see
README) for every finding of an error or warning, a missing log beside a
checkpoint or seal included; 1 for an internal error.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if store == "" {
				return usageError{errors.New("--store DIR is required")}
			}
			if pgstore.IsURL(store) {
				if rep.repair || rep.useLog || rep.useCheckpoint {
					return usageError{errors.New("--repair is for store directories: a PostgreSQL store has no checkpoint or seal to settle; restore a damaged batches table from a backup (see README, PostgreSQL and scaling out)")}
				}
				return pgCheck(cmd, store, asJSON)
			}
			out := cmd.OutOrStdout()
			if err := rep.run(store, out); err != nil {
				return err
			}
			res, err := tgms.Check(store, full, storeOptions(tgms.Options{}))
			if err != nil {
				return checkError(err)
			}
			if asJSON {
				if err := printJSON(out, res); err != nil {
					return err
				}
			} else {
				for _, f := range res.Findings {
					fmt.Fprintln(out, f)
				}
			}
			if !res.Clean() {
				return checkFailed{}
			}
			if !asJSON {
				if n := res.DataFindings(); n > 0 {
					fmt.Fprintf(out, "files clean: %d batches; %d data findings above (the data breaks a modelling rule; the store opens and answers as written)\n", res.Batches, n)
				} else {
					fmt.Fprintf(out, "clean: %d batches\n", res.Batches)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory, or a PostgreSQL store's URL")
	cmd.Flags().BoolVar(&full, "full", false, "also compare the digest with a replay of the whole log")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the findings as JSON")
	rep.add(cmd)
	return cmd
}

// checkFailed is the error of a check that found problems; it matches
// tgms.ErrStoreDamaged, so it exits like any command that meets a damaged
// store.
type checkFailed struct{}

func (checkFailed) Error() string { return "the store check found problems (see the findings above)" }
func (checkFailed) Unwrap() error { return tgms.ErrStoreDamaged }
