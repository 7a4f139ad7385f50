package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/pgstore"
)

// dryRunWrite checks a batch against the write contract on a read-only
// open of the store and prints the verdict (violations and preview) as
// JSON. A refused batch exits 3, like a plan the contract rejects.
func dryRunWrite(cmd *cobra.Command, store, opsFile string, batch bt.Batch) error {
	if pgstore.IsURL(store) {
		return badInput("--dry-run reads a store directory; PostgreSQL stores are not supported yet")
	}
	db, err := openReadOnly(store)
	if err != nil {
		return err
	}
	defer closeDB(db, cmd.ErrOrStderr())
	res := db.ValidateWrite(batch)
	out, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s\n", out)
	if !res.Admitted {
		return rejectedError{fmt.Sprintf("%s: the write contract refuses the batch (%d violations); nothing was written", opsFile, len(res.Violations))}
	}
	return nil
}
