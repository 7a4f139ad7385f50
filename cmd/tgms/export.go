package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/export"
	"github.com/tgms-go/tgms/pgstore"
)

func newExport() *cobra.Command {
	var store, out, asOf, format string
	cmd := &cobra.Command{
		Use:   "export --store DIR --out DIR [--as-of-tt T] [--format csv|parquet]",
		Short: "Write every node and edge version (all four times) and the change log as tables",
		Long: `Write nodes, edges and changes tables into --out: every version with its
valid and recorded intervals, the ops that opened and closed it, and its
props as a JSON column; changes is the store's history as a change log
(each batch's stated provenance and override in its prov_* and override
columns), so

  tgms ingest --store NEW --changes OUT/changes.csv

rebuilds the store with the same digest. --as-of-tt exports what the store
had recorded by that transaction time.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usageError{fmt.Errorf("--out DIR is required")}
			}
			at := bt.OpenEnd
			if asOf != "" {
				t, err := bt.ParseTime(asOf)
				if err != nil {
					return badInput("--as-of-tt: %v", err)
				}
				at = t
			}
			if pgstore.IsURL(store) {
				sum, err := pgExport(cmd, store, out, format, at)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "exported %d node versions, %d edge versions and %d changes in %d batches to %v\n", sum.NodeVersions, sum.EdgeVersions, sum.Changes, sum.Batches, sum.Files)
				return nil
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			var sum *export.Summary
			err = db.Read(bt.MaxBelief, func(r engine.Reader) error {
				var e error
				sum, e = export.Write(r.Store(), filepath.Join(db.Dir(), tgms.LogFile), out, format, at)
				return e
			})
			if err != nil {
				return asInput(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "exported %d node versions, %d edge versions and %d changes in %d batches to %v\n", sum.NodeVersions, sum.EdgeVersions, sum.Changes, sum.Batches, sum.Files)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "store directory, or a PostgreSQL store's URL")
	f.StringVar(&out, "out", "", "directory to write the tables into (created if missing)")
	f.StringVar(&asOf, "as-of-tt", "", "export what was recorded by this transaction time (µs or RFC 3339)")
	f.StringVar(&format, "format", "csv", "csv or parquet")
	return cmd
}
