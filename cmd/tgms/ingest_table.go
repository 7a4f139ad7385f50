package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/tabular"
	"golang.org/x/term"
)

// tableFlags are the flags of 'tgms ingest' for the user's own tables:
// event tables (--file), node tables (--nodes) and change logs
// (--changes), read through a column mapping.
type tableFlags struct {
	m              tabular.Mapping
	props, types   string
	nodes, changes string
	mappingFile    string
	dryRun         bool
	maxProblems    int
	flags          *pflag.FlagSet
}

const tableHelp = `
Your own tables (see "Bring your own data" in the README):

  --file T.csv|.tsv|.jsonl|.parquet --src COL --dst COL --time COL [--end COL]
        [--rel-type NAME | --rel-type-col COL] [--props COL,...|'*'] [--types COL:TYPE,...]
        [--time-format unix_s|unix_ms|unix_us|rfc3339|LAYOUT] [--tz ZONE] [--label NAME]
  --nodes T --uid COL [--valid-from COL] [--valid-to COL] [--label NAME | --label-col COL] [--props ...]
  --changes T [--recorded-at COL] [--op-col COL] ...   (assert, correct, retract, ingest rows)
  --mapping FILE.yaml gives the same settings as a file (flags override it);
  --dry-run reads and checks everything, reports every problem (up to
  --max-problems) and what would be written, and writes nothing.`

func (t *tableFlags) register(f *pflag.FlagSet) {
	t.flags = f
	f.StringVar(&t.m.Format, "format", "", "table format: csv, tsv, jsonl or parquet (default: from the file name)")
	f.StringVar(&t.m.Src, "src", "", "column of the source node uid")
	f.StringVar(&t.m.Dst, "dst", "", "column of the destination node uid")
	f.StringVar(&t.m.Time, "time", "", "column of the event time (valid-time start)")
	f.StringVar(&t.m.End, "end", "", "column of the end time: events hold over [time, end)")
	f.StringVar(&t.m.TimeFormat, "time-format", "", "unix_s, unix_ms, unix_us, rfc3339 (default) or a Go layout such as '2006-01-02 15:04:05'")
	f.StringVar(&t.m.TZ, "tz", "", "IANA time zone of a layout without an offset (default UTC)")
	f.StringVar(&t.m.RelType, "rel-type", "", "rel type of every event")
	f.StringVar(&t.m.RelTypeCol, "rel-type-col", "", "column of the rel type")
	f.StringVar(&t.props, "props", "", "property columns, comma-separated, or '*' for every other column")
	f.StringVar(&t.types, "types", "", "CSV/TSV property types: COL:int,COL:float,COL:bool,COL:string,COL:json (default string); merged with the mapping file's types, an entry here wins for its column")
	f.StringVar(&t.m.Label, "label", "", "label of the nodes (events: of the nodes they create; default Node)")
	f.StringVar(&t.m.LabelCol, "label-col", "", "node tables: column of the node label")
	f.StringVar(&t.m.UIDPrefix, "uid-prefix", "", "prefix added to every node uid read")
	f.StringVar(&t.nodes, "nodes", "", "node table: one row per node version")
	f.StringVar(&t.m.UID, "uid", "", "column of the node uid")
	f.StringVar(&t.m.ValidFrom, "valid-from", "", "column of the valid-time start")
	f.StringVar(&t.m.ValidTo, "valid-to", "", "column of the valid-time end (empty cell: still holding)")
	f.StringVar(&t.changes, "changes", "", "change log: assert, correct, retract and ingest rows with the time each was recorded")
	f.StringVar(&t.m.RecordedAt, "recorded-at", "", "change logs: column of the recorded time (becomes the transaction time; default recorded_at)")
	f.StringVar(&t.m.Op, "op-col", "", "change logs: column of the op (default op)")
	f.StringVar(&t.m.Disc, "disc", "", "change logs: column of the edge discriminator (default disc)")
	f.StringVar(&t.m.PropsJSON, "props-json", "", "change logs: column holding a JSON object of props (default props)")
	f.StringVar(&t.m.ToValidFrom, "to-valid-from", "", "change logs: column of a correction's true valid-time start")
	f.StringVar(&t.m.ToValidTo, "to-valid-to", "", "change logs: column of a correction's true valid-time end")
	f.StringVar(&t.mappingFile, "mapping", "", "YAML file with the column mapping (flags override it)")
	f.BoolVar(&t.dryRun, "dry-run", false, "read and check everything, print what would be written, write nothing")
	f.IntVar(&t.maxProblems, "max-problems", 50, "with --dry-run: how many problems to list")
}

// wanted reports whether the flags ask for a table ingest.
func (t *tableFlags) wanted(dataset, file string) bool {
	return t.nodes != "" || t.changes != "" || (file != "" && dataset == "")
}

// mapping merges the mapping file and the flags.
func (t *tableFlags) mapping() (tabular.Mapping, error) {
	var m tabular.Mapping
	if t.mappingFile != "" {
		fm, err := tabular.ReadMapping(t.mappingFile)
		if err != nil {
			return m, badInput("%v", err)
		}
		m = *fm
	}
	flags := t.m
	if t.props != "" {
		flags.Props = strings.Split(t.props, ",")
	}
	if t.types != "" {
		ty, err := tabular.ParseTypes(t.types)
		if err != nil {
			return m, badInput("%v", err)
		}
		flags.Types = ty
	}
	return m.Override(&flags), nil
}

// runTable runs 'tgms ingest' on a table.
func (t *tableFlags) run(cmd *cobra.Command, store, file, nodeLabel string, noSync, again bool) error {
	var kind, path string
	n := 0
	for _, c := range []struct{ k, p string }{{"events", file}, {"nodes", t.nodes}, {"changes", t.changes}} {
		if c.p != "" {
			kind, path = c.k, c.p
			n++
		}
	}
	if n != 1 {
		return usageError{errors.New("give one table per ingest: --file (events), --nodes or --changes")}
	}
	m, err := t.mapping()
	if err != nil {
		return err
	}
	if m.Label == "" && kind == "events" && t.flags.Changed("node-label") {
		m.Label = nodeLabel
	}
	if store == "" && !t.dryRun {
		return usageError{errors.New("--store DIR is required")}
	}
	opt := tabular.Options{MaxProblems: 1}
	if t.dryRun {
		opt.MaxProblems = max(1, t.maxProblems)
	}
	w, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if kind == "events" {
		return t.runEvents(cmd.Context(), w, errw, store, path, &m, opt, noSync, again)
	}
	rd, err := tabular.Open(path, m.Format)
	if err != nil {
		return asTable(err)
	}
	defer rd.Close()
	meter := newMeter(errw, "read "+filepath.Base(path), 1000, "‰")
	opt.Progress = func(done float64, rows int64) { meter.set(int64(done*1000), rows) }
	var nodes *tabular.NodeTable
	var changes *tabular.ChangeLog
	if kind == "nodes" {
		nodes, err = tabular.ReadNodes(rd, &m, opt)
	} else {
		changes, err = tabular.ReadChanges(rd, &m, opt)
	}
	meter.finish()
	if err != nil {
		return asTable(err)
	}
	if changes != nil && len(changes.Batches) == 0 {
		return badInput("%s has no changes (only a header): nothing to write", path)
	}
	src := tgms.Source{Name: "file " + filepath.Base(path), SHA256: rd.SHA256()}
	if t.dryRun {
		var db *tgms.DB
		if store != "" {
			if _, err := os.Stat(filepath.Join(store, tgms.LogFile)); err == nil {
				if db, err = openReadOnly(store); err != nil {
					return err
				}
				defer closeDB(db, errw)
			}
		}
		return dryRun(w, db, path, nodes, changes)
	}
	db, err := openWith(store, storeOptions(tgms.Options{NoSync: noSync}))
	if err != nil {
		return err
	}
	defer closeDB(db, errw)
	switch kind {
	case "nodes":
		var batches [][]bt.Op
		for i := 0; i < len(nodes.Ops); i += tgms.ChunkEvents {
			batches = append(batches, nodes.Ops[i:min(i+tgms.ChunkEvents, len(nodes.Ops))])
		}
		if _, err := db.WriteBatchesAt(&src, again, nil, batches); err != nil {
			if errors.Is(err, tgms.ErrRepeatIngest) {
				return inputError{err}
			}
			return asInput(err)
		}
		fmt.Fprintf(w, "ingested %d node versions from %s in %d batches\n", len(nodes.Ops), path, len(batches))
	default:
		if err := checkChanges(db.Dir(), changes); err != nil {
			return err
		}
		tts := make([]bt.Time, len(changes.Batches))
		batches := make([]bt.Batch, len(changes.Batches))
		for i := range changes.Batches {
			cb := &changes.Batches[i]
			tts[i], batches[i] = cb.TT, bt.Batch{Ops: cb.Ops, Prov: cb.Prov, Override: cb.Override}
		}
		k, err := db.WriteChangesAt(&src, again, tts, batches)
		if err != nil {
			if errors.Is(err, tgms.ErrRepeatIngest) {
				return inputError{err}
			}
			return inputError{fmt.Errorf("%s: %w (%d batches committed before it)", path, err, k)}
		}
		fmt.Fprintf(w, "ingested %d changes from %s in %d batches at their recorded times %s .. %s\n", changes.Rows, path, len(batches), bt.FormatRFC3339(tts[0]), bt.FormatRFC3339(tts[len(tts)-1]))
	}
	st := db.Stats()
	fmt.Fprintf(w, "store %s: %d nodes, %d node versions, %d edge versions, last tt %s\n", store, st.Nodes, st.NodeVersions, st.EdgeVersions, bt.FormatBoth(st.LastTT))
	return nil
}

// checkChanges plans every batch of a change log against a replay of the
// store's history before anything is written, so that a refused op (a
// correction of a fact the store does not hold, say) names its row and
// leaves the store unchanged.
func checkChanges(dir string, cl *tabular.ChangeLog) error {
	ms := bt.NewMemStore()
	logPath := filepath.Join(dir, tgms.LogFile)
	if _, err := os.Stat(logPath); dir != "" && err == nil {
		err := eventlog.ReadFile(logPath, func(r *eventlog.Record, _ int64) error { return ms.Write(r.TT, r.Ops) })
		if err != nil {
			return fmt.Errorf("replaying the store's log to check the change log: %w", err)
		}
	}
	for i := range cl.Batches {
		b := &cl.Batches[i]
		if b.TT <= ms.LastTT {
			return inputError{fmt.Errorf("%s: recorded at %s, which is not after the store's last transaction time %s: a change log can only extend a store's history; nothing was written",
				b.Where(0, -1), bt.FormatBoth(b.TT), bt.FormatBoth(ms.LastTT))}
		}
		if err := ms.Write(b.TT, b.Ops); err != nil {
			var oe *bt.OpError
			if errors.As(err, &oe) {
				return inputError{fmt.Errorf("%s: %s refused: %s; nothing was written", b.Where(oe.Op, oe.Event), oe.Kind, oe.Msg)}
			}
			return inputError{fmt.Errorf("%s: %v; nothing was written", b.Where(0, -1), err)}
		}
	}
	return nil
}

// asTable classifies reader errors: problems in the input or a mapping
// that does not fit it are exit 2.
func asTable(err error) error {
	var pr *tabular.Problems
	var ce *tabular.CellError
	var me *tabular.MappingError
	if errors.As(err, &pr) || errors.As(err, &ce) || errors.As(err, &me) || errors.Is(err, os.ErrNotExist) {
		return inputError{err}
	}
	if strings.Contains(err.Error(), "--format") || strings.Contains(err.Error(), "Parquet file") {
		return inputError{err}
	}
	return err
}

// dryRun prints what a load would write.
func dryRun(w io.Writer, db *tgms.DB, path string, nodes *tabular.NodeTable, ch *tabular.ChangeLog) error {
	if ch != nil {
		dir := ""
		if db != nil {
			dir = db.Dir()
		}
		if err := checkChanges(dir, ch); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "dry run: %s is valid; nothing was written\n", path)
	switch {
	case nodes != nil:
		uids := map[string]bool{}
		for _, op := range nodes.Ops {
			uids[op.UID] = true
		}
		fmt.Fprintf(w, "  %d node versions of %d nodes\n", len(nodes.Ops), len(uids))
		for i := range min(3, len(nodes.Ops)) {
			op := &nodes.Ops[i]
			fmt.Fprintf(w, "  e.g. %s :%s %s props %s\n", op.UID, op.Label, op.Valid, op.Props.JSON())
		}
	default:
		fmt.Fprintf(w, "  %d changes in %d batches recorded %s .. %s\n", ch.Rows, len(ch.Batches), bt.FormatRFC3339(ch.Batches[0].TT), bt.FormatRFC3339(ch.Batches[len(ch.Batches)-1].TT))
		fmt.Fprintf(w, "  every batch plans cleanly against the store's history\n")
	}
	return nil
}

func mapKeys(m map[string]int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// meter shows progress: a bar with a rate and an ETA on a terminal, a
// plain line every few seconds otherwise (only for loads that last).
type meter struct {
	bar   *progressbar.ProgressBar
	w     io.Writer
	what  string
	unit  string
	total int64
	start time.Time
	last  time.Time
	rows  int64
}

func newMeter(w io.Writer, what string, total int64, unit string) *meter {
	m := &meter{w: w, what: what, unit: unit, total: total, start: time.Now()}
	m.last = m.start
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		m.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("rows"), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	return m
}

func (m *meter) set(done, rows int64) {
	m.rows = rows
	if m.bar != nil {
		m.bar.Set64(done)
		return
	}
	if now := time.Now(); now.Sub(m.last) >= 2*time.Second {
		m.last = now
		el := now.Sub(m.start).Seconds()
		pct := ""
		if m.total > 0 {
			pct = fmt.Sprintf(" (%.0f%%)", 100*float64(done)/float64(m.total))
		}
		fmt.Fprintf(m.w, "%s: %d rows%s, %.0f rows/s\n", m.what, rows, pct, float64(rows)/el)
	}
}

func (m *meter) finish() {
	if m.bar != nil {
		m.bar.Finish()
	}
}
