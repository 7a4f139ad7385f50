package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
)

func newDemo() *cobra.Command {
	var store, htmlPath string
	var events int64
	cmd := &cobra.Command{
		Use:   "demo [--store DIR]",
		Short: "Build a small synthetic store with corrections and ask it certified questions (no model, no network)",
		Long: `Build a synthetic temporal graph with corrections written in later batches,
print its statistics, and ask the same questions as of two belief times: just
before a correction and now. The answers differ, and the earlier one stays
what it was, forever.

Then ask questions end to end through the built-in question reader (no model,
no network): plan, plan contract, executor, deterministic reporter, evidence
gate. One question is asked as of before a correction and now; one is first
planned naively, as a count over a truncated page, which the executor
refuses and the repair loop fixes; one is outside what the reader
understands and is refused cleanly. The repaired question's HTML report is
written to --html (default: report.html in a new directory under the system
temporary directory, printed at the end).

Without --store the demo uses a temporary directory.`,
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
			defer closeDB(db, cmd.ErrOrStderr())
			if db.LastTT() != 0 {
				return badInput("store %s already has data: the demo needs a new, empty store", store)
			}
			fmt.Fprintf(out, "== building a synthetic store in %s\n", store)
			res, err := synthesize(cmd.Context(), db, store, datasets.SynthConfig{Events: events, Seed: 7, Corrections: 0.01}, out)
			if err != nil {
				return err
			}
			fmt.Fprintln(out)
			s := collectStats(db)
			fmt.Fprintf(out, "== stats\nnodes %d, node versions %d, edge versions %d, batches %d\nvalid time %s .. %s\ndigest %s\n\n",
				s.Nodes, s.NodeVersions, s.EdgeVersions, s.Batches, bt.FormatRFC3339(s.VtMin), bt.FormatRFC3339(s.VtMax), s.Digest)
			if err := db.Read(bt.OpenEnd, func(r engine.Reader) error {
				return demoQueries(out, r, res)
			}); err != nil {
				return err
			}
			if htmlPath == "" {
				// A fresh directory per run: a fixed name in the shared
				// temporary directory would be overwritten by other runs.
				dir, err := os.MkdirTemp("", "tgms-demo-report-")
				if err != nil {
					return err
				}
				htmlPath = filepath.Join(dir, "report.html")
			}
			return demoAsk(cmd.Context(), out, db, res, htmlPath)
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory (default: a temporary one, removed afterwards)")
	cmd.Flags().Int64Var(&events, "events", 20_000, "synthetic events")
	cmd.Flags().StringVar(&htmlPath, "html", "", "write the HTML report of the repaired question here (default: a new directory under the system temporary directory)")
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

// utcWithMicros prints a time the way questions write it.
func utcWithMicros(t bt.Time) string {
	return time.UnixMicro(int64(t)).UTC().Format("2006-01-02 15:04") + " UTC (" + fmt.Sprint(int64(t)) + ")"
}

// demoAsk asks questions end to end through the built-in reader.
func demoAsk(ctx context.Context, out io.Writer, db *tgms.DB, res *synthResult, htmlPath string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	fmt.Fprintf(out, "== asking questions (built-in reader: no model, no network)\n\n")
	show := func(title string, r *agent.Result) {
		fmt.Fprintf(out, "-- %s\n", title)
		printAsk(out, r)
		fmt.Fprintln(out)
	}
	// 1. A question whose answer changed after a correction, asked as of
	// just before it and now.
	for _, c := range res.manifest.Corrections {
		if c.Kind != "correct" || c.Node == "" {
			continue
		}
		var tt bt.Time
		db.Read(bt.OpenEnd, func(r engine.Reader) error {
			if id, ok := r.Node(c.Node); ok {
				tt = correctionTT(r.NodeHistory(id))
			}
			return nil
		})
		if tt == 0 {
			continue
		}
		before, err := askOne(ctx, db, fmt.Sprintf("As of transaction time %s, how many versions of node %s did the store believe?", utcWithMicros(tt-1), c.Node), "", agent.Options{})
		if err != nil {
			return err
		}
		show("before the correction", before)
		now, err := askOne(ctx, db, fmt.Sprintf("Under current belief, how many versions of node %s does the store hold?", c.Node), "", agent.Options{})
		if err != nil {
			return err
		}
		show("now", now)
		fmt.Fprintf(out, "the certified answer changed from %v to %v after the correction at tt %s; the earlier belief stays answerable.\n\n", jsonText(before.Value), jsonText(now.Value), bt.FormatBoth(tt))
		break
	}
	// 2. A naive count over a truncated page: refused at run time, repaired.
	st := db.Stats()
	uid := busiestSender(db)
	q := fmt.Sprintf("How many nodes can %s reach along time-respecting paths (each edge no earlier than the one before) with events from %s to %s?", uid, utcWithMicros(st.VtMin), utcWithMicros(st.VtMax))
	naive := fmt.Sprintf(`{"plan_id":"naive-count","steps":[{"id":"s1","op":"temporal_reachability","args":{"src":%q,"window":{"t_a":%d,"t_b":%d},"limit":5},"depends_on":[]},{"id":"s2","op":"compute","args":{"fn":"count","input":{"$ref":"s1.rows"}},"depends_on":["s1"]}],"answer_spec":{"kind":"count","from":"s2.value"}}`, uid, st.VtMin, st.VtMax)
	repaired, err := askOne(ctx, db, q, "", agent.Options{Planner: &agent.Scripted{Plans: [][]byte{[]byte(naive)}}})
	if err != nil {
		return err
	}
	show("a naive plan counts a 5-row page (as a model might write it)", repaired)
	direct, err := askOne(ctx, db, q, "", agent.Options{})
	if err != nil {
		return err
	}
	show("the reader's own plan for the same question", direct)
	// 3. A question the reader cannot read.
	refused, err := askOne(ctx, db, "Which node is the most influential one?", "", agent.Options{})
	if err != nil {
		return err
	}
	show("an unsupported question", refused)
	if err := writeHTMLFile(htmlPath, repaired); err != nil {
		return err
	}
	fmt.Fprintf(out, "== HTML report of the repaired question: %s\n", htmlPath)
	return nil
}

func jsonText(v any) string {
	if v == nil {
		return "null (withheld)"
	}
	return fmt.Sprint(v)
}

// busiestSender is the node with the most believed outgoing edges.
func busiestSender(db *tgms.DB) string {
	best, bestN := "n1", -1
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		for id := range uint32(r.NumNodes()) {
			if !r.Known(id) {
				continue
			}
			if n := len(r.Out(id)); n > bestN {
				best, bestN = r.UID(id), n
			}
		}
		return nil
	})
	return best
}
