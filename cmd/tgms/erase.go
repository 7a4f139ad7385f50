package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	_ "github.com/tgms-go/tgms/answers" // rewrites saved answers for an erase
	bt "github.com/tgms-go/tgms/bitemporal"
)

func newErase() *cobra.Command {
	var store, uid string
	var edges, asJSON, resume bool
	cmd := &cobra.Command{
		Use:   "erase --store DIR --uid U [--edges] [--json]",
		Short: "Erase an entity's contents (label, props, names) from every file of the store, leaving tombstones",
		Long: `Removes the label and props (names included) of every version of node U, and
with --edges the props of every version of its incident edges, from the
event log, the checkpoint and the saved answers (an answer whose trace
mentions U or the erased text is replaced by an erased record). The files
are rewritten into a staging directory and moved into place under a commit
marker, so a crash leaves the store as before or as after the erase.

Each erased version stays as a tombstone: its identity, its four times and
the SHA-256 of what it held. The store digest is computed from tombstones,
so 'tgms check --full' (replay equals checkpoint) still verifies. The erase
is itself a batch in the log. 'tgms trace verify' of a trace that read
erased content reports ERASED (exit 3).

Limits: copies outside the store directory (exported files, traces written
with --trace, backups) are not touched, and the file system may keep the
old blocks until they are reused.

--resume finishes an erase a crash interrupted after it committed (a
read-only open refuses such a store until then).

Exit codes: 0 erased, 2 bad input (unknown uid, already erased).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if resume {
				db, err := openExisting(store)
				if err != nil {
					return err
				}
				return db.Close()
			}
			if uid == "" {
				return usageError{errors.New("--uid is required")}
			}
			db, err := openExisting(store)
			if err != nil {
				return err
			}
			res, err := db.Erase(uid, edges)
			if cerr := db.Close(); err == nil && cerr != nil {
				return cerr
			}
			if err != nil {
				if errors.Is(err, bt.ErrNothingToErase) || errors.Is(err, bt.ErrNoSuchNode) || errors.Is(err, tgms.ErrReadOnly) {
					return badInput("%v", err)
				}
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return printJSON(w, res)
			}
			fmt.Fprintf(w, "erased %s: %d node versions, %d edge versions; %d log records rewritten, %d saved answers erased\n",
				res.UID, res.NodeVersions, res.EdgeVersions, res.Records, res.Answers)
			fmt.Fprintf(w, "erase batch %d at tt %s; files rewritten: %s\n", res.Seq, bt.FormatBoth(res.TT), strings.Join(res.Files, ", "))
			fmt.Fprintf(w, "digest %s\n", res.Digest)
			for _, r := range res.Remnants {
				fmt.Fprintf(w, "warning: %s in the store directory still holds erased text (bytes a torn write left are kept aside like this); delete it to finish the erasure\n", r)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "store directory")
	f.StringVar(&uid, "uid", "", "the node whose contents to erase")
	f.BoolVar(&edges, "edges", false, "also erase the props of its incident edges")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.BoolVar(&resume, "resume", false, "finish an interrupted erase")
	return cmd
}
