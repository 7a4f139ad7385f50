package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/pgstore"
)

// storeStats is what `tgms stats` reports.
type storeStats struct {
	Store         string       `json:"store"`
	Nodes         int          `json:"nodes"`
	NodeVersions  int          `json:"node_versions"`
	EdgeVersions  int          `json:"edge_versions"`
	Batches       uint64       `json:"batches"`
	LastTT        bt.Time      `json:"last_tt"`
	LastTTRFC3339 string       `json:"last_tt_rfc3339"`
	VtMin         bt.Time      `json:"vt_min"`
	VtMax         bt.Time      `json:"vt_max"`
	VtMinRFC3339  string       `json:"vt_min_rfc3339"`
	VtMaxRFC3339  string       `json:"vt_max_rfc3339"`
	RelTypes      []string     `json:"rel_types"`
	LogBytes      int64        `json:"log_bytes"`
	CkptBytes     int64        `json:"checkpoint_bytes"`
	Digest        string       `json:"digest"`
	Card          *engine.Card `json:"card"`
}

func collectStats(db *tgms.DB) storeStats {
	st := db.Stats()
	out := storeStats{
		Store: db.Dir(), Nodes: st.Nodes, NodeVersions: st.NodeVersions, EdgeVersions: st.EdgeVersions,
		Batches: st.Batches, LastTT: st.LastTT, LastTTRFC3339: bt.FormatRFC3339(st.LastTT),
		VtMin: st.VtMin, VtMax: st.VtMax, VtMinRFC3339: bt.FormatRFC3339(st.VtMin), VtMaxRFC3339: bt.FormatRFC3339(st.VtMax),
		RelTypes: st.RelTypes, Digest: db.Digest(), Card: db.Card(),
	}
	if fi, err := os.Stat(filepath.Join(db.Dir(), tgms.LogFile)); err == nil {
		out.LogBytes = fi.Size()
	}
	if fi, err := os.Stat(filepath.Join(db.Dir(), tgms.CheckpointFile)); err == nil {
		out.CkptBytes = fi.Size()
	}
	return out
}

func newStats() *cobra.Command {
	var store string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats --store DIR [--json]",
		Short: "Print a store's size, extent and digest",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if pgstore.IsURL(store) {
				return pgStats(cmd, store, asJSON)
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			s := collectStats(db)
			if asJSON {
				return printJSON(cmd.OutOrStdout(), s)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "store          %s\n", s.Store)
			fmt.Fprintf(w, "nodes          %d\n", s.Nodes)
			fmt.Fprintf(w, "node versions  %d\n", s.NodeVersions)
			fmt.Fprintf(w, "edge versions  %d\n", s.EdgeVersions)
			fmt.Fprintf(w, "batches        %d\n", s.Batches)
			fmt.Fprintf(w, "last tt        %s\n", bt.FormatBoth(s.LastTT))
			fmt.Fprintf(w, "valid time     %s .. %s\n", bt.FormatBoth(s.VtMin), bt.FormatBoth(s.VtMax))
			fmt.Fprintf(w, "rel types      %v\n", s.RelTypes)
			fmt.Fprintf(w, "on disk        log %d B, checkpoint %d B\n", s.LogBytes, s.CkptBytes)
			fmt.Fprintf(w, "digest         %s\n", s.Digest)
			printCard(w, s.Card)
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory, or postgres://USER@HOST:PORT/DB?schema=NAME")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newDigest() *cobra.Command {
	var store string
	cmd := &cobra.Command{
		Use:   "digest --store DIR",
		Short: "Print the store digest (SHA-256 over every version ever stored)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if pgstore.IsURL(store) {
				return pgDigest(cmd, store)
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			fmt.Fprintln(cmd.OutOrStdout(), db.Digest())
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory, or postgres://USER@HOST:PORT/DB?schema=NAME")
	return cmd
}

func newCheckpoint() *cobra.Command {
	var store string
	cmd := &cobra.Command{
		Use:   "checkpoint --store DIR",
		Short: "Write a checkpoint now so the next open replays nothing",
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := openExisting(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			start := time.Now()
			if err := db.Checkpoint(); err != nil {
				return err
			}
			fi, _ := os.Stat(filepath.Join(store, tgms.CheckpointFile))
			fmt.Fprintf(cmd.OutOrStdout(), "checkpoint written (%d bytes, %s)\n", fi.Size(), time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	return cmd
}
