package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
)

func newDemo() *cobra.Command {
	var store string
	var events int64
	cmd := &cobra.Command{
		Use:   "demo [--store DIR]",
		Short: "Build a small synthetic store with corrections and show belief-time queries",
		Long: `Build a synthetic temporal graph with corrections written in later batches,
print its statistics, and ask the same questions as of two belief times: just
before a correction and now. The answers differ, and the earlier one stays
what it was, forever. Without --store the demo uses a temporary directory.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if store == "" {
				dir, err := os.MkdirTemp("", "tgms-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				store = dir
			}
			db, err := openStore(store, false)
			if err != nil {
				return err
			}
			defer db.Close()
			if db.LastTT() != 0 {
				return badInput("store %s already has data: the demo needs a new, empty store", store)
			}
			fmt.Fprintf(out, "== building a synthetic store in %s\n", store)
			res, err := synthesize(db, datasets.SynthConfig{Events: events, Seed: 7, Corrections: 0.01}, out)
			if err != nil {
				return err
			}
			fmt.Fprintln(out)
			s := collectStats(db)
			fmt.Fprintf(out, "== stats\nnodes %d, node versions %d, edge versions %d, batches %d\nvalid time %s .. %s\ndigest %s\n\n",
				s.Nodes, s.NodeVersions, s.EdgeVersions, s.Batches, bt.FormatRFC3339(s.VtMin), bt.FormatRFC3339(s.VtMax), s.Digest)
			return db.Read(bt.OpenEnd, func(r engine.Reader) error {
				return demoQueries(out, r, res)
			})
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory (default: a temporary one, removed afterwards)")
	cmd.Flags().Int64Var(&events, "events", 20_000, "synthetic events")
	return cmd
}

// demoQueries asks about one corrected node and one corrected edge, as of
// just before the correction and now.
func demoQueries(out io.Writer, now engine.Reader, res *synthResult) error {
	s := now.Store()
	shown := 0
	for _, c := range res.manifest.Corrections {
		if c.Kind != "correct" || shown == 2 {
			continue
		}
		if c.Node != "" && shown == 0 {
			id, ok := now.Node(c.Node)
			if !ok {
				continue
			}
			tt := correctionTT(now.NodeHistory(id))
			fmt.Fprintf(out, "== question: what did we believe about node %s? (a correction was written at tt %s)\n", c.Node, bt.FormatBoth(tt))
			for _, asOf := range []bt.Time{tt - 1, now.AsOf()} {
				fmt.Fprintf(out, "as of tt %s:\n", bt.FormatBoth(asOf))
				for _, v := range s.Reader(asOf).NodeHistory(id) {
					fmt.Fprintf(out, "  valid %s .. %s  props %s  (written by %s)\n", bt.FormatRFC3339(v.Valid.Start), bt.FormatRFC3339(v.Valid.End), v.Props.JSON(), v.CreatedBy)
				}
			}
			fmt.Fprintln(out)
			shown++
		}
	}
	for _, c := range res.manifest.Corrections {
		if c.Kind != "correct" || c.Node != "" {
			continue
		}
		seq := res.firstSeq + uint64(c.Event/50_000)
		key, ok := s.AutoEdge(seq, c.Event%50_000)
		if !ok {
			continue
		}
		var tt bt.Time
		for _, h := range s.BelievedEdges(key, bt.Always) {
			tt = max(tt, h.V.TTs)
		}
		t := c.Valid.Start
		fmt.Fprintf(out, "== question: which edges from %s were valid at %s, and with what props? (corrected at tt %s)\n", key.Src, bt.FormatRFC3339(t), bt.FormatBoth(tt))
		src, _ := now.Node(key.Src)
		for _, asOf := range []bt.Time{tt - 1, now.AsOf()} {
			r := s.Reader(asOf)
			fmt.Fprintf(out, "as of tt %s:\n", bt.FormatBoth(asOf))
			for _, v := range r.Out(src) {
				if r.Valid(v).Contains(t) {
					e := r.Edge(v)
					fmt.Fprintf(out, "  %s -> %s %s disc %s  props %s\n", e.Key.Src, e.Key.Dst, e.Key.RelType, e.Key.Disc, e.Props.JSON())
				}
			}
		}
		break
	}
	return nil
}

// correctionTT is the transaction time of the latest correction among a
// node's believed versions.
func correctionTT(hist []bt.NodeVersion) bt.Time {
	var tt bt.Time
	for _, v := range hist {
		if v.CreatedBy == bt.OpCorrect {
			tt = max(tt, v.TTs)
		}
	}
	return tt
}
