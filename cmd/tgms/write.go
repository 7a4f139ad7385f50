package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/answers"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/pgstore"
	"github.com/tgms-go/tgms/writecheck"
)

func newIngest() *cobra.Command {
	var store, dataset, file, eventsFile, label string
	var download, noSync, acks, again bool
	var groupEvents int
	var table tableFlags
	cmd := &cobra.Command{
		Use:   "ingest --store DIR (--dataset NAME [--file PATH] | --events FILE.jsonl | --file TABLE ... | --nodes TABLE ... | --changes TABLE ...)",
		Short: "Bulk-load a SNAP dataset or a JSONL file of edge events",
		Long: `Bulk-load events. Every line is parsed and checked (and a dataset's SHA-256
pin verified) before anything is written, so bad input leaves the store
unchanged. Events are written in batches of 50,000 with group commit.

Each batch records its source (the dataset name or file, and the SHA-256 of
the content) in the event log; ingesting content the store already holds is
refused unless --again is given.

Datasets: ` + fmt.Sprint(datasets.Names()) + `. Without --file the dataset is looked up
in ../shared/data and ./data, and downloaded from SNAP with --download.

--events reads one JSON object per line:
  {"src":"a","dst":"b","rel_type":"MSG","vt_s":T,["vt_e":T],["disc":"..."],["props":{...}]}` + tableHelp,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if table.wanted(dataset, file) && eventsFile == "" {
				return table.run(cmd, store, file, label, noSync, again)
			}
			if (dataset == "") == (eventsFile == "") {
				return usageError{fmt.Errorf("give exactly one of --dataset or --events")}
			}
			var events []bt.Event
			var err error
			source := eventsFile
			if dataset != "" {
				events, source, err = loadDataset(cmd.Context(), dataset, file, download)
			} else {
				events, err = readEventsFile(eventsFile)
			}
			if err != nil {
				return err
			}
			if store == "" {
				return usageError{fmt.Errorf("--store DIR is required")}
			}
			src, err := ingestSource(dataset, source)
			if err != nil {
				return err
			}
			if pgstore.IsURL(store) {
				return pgIngest(cmd, store, src, again, events, label, source)
			}
			db, err := openWith(store, storeOptions(tgms.Options{NoSync: noSync, GroupEvents: groupEvents}))
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			bar := progress(int64(len(events)), "ingest")
			start := time.Now()
			res, err := ingestInterruptible(cmd.Context(), db, src, again, events, label, func(done int, tt bt.Time) {
				if bar != nil {
					bar.Set(done)
				}
				if acks {
					fmt.Fprintf(cmd.OutOrStdout(), "ack %d %d\n", done, tt)
				}
			})
			if bar != nil {
				bar.Finish()
			}
			if errors.Is(err, tgms.ErrRepeatIngest) {
				return inputError{err}
			}
			if err != nil {
				return asInput(err)
			}
			el := time.Since(start)
			st := db.Stats()
			fmt.Fprintf(cmd.OutOrStdout(), "ingested %d events from %s in %d batches (%.0f events/s)\n", res.Events, source, res.Batches, float64(res.Events)/el.Seconds())
			fmt.Fprintf(cmd.OutOrStdout(), "store %s: %d nodes, %d edge versions, last tt %s\n", store, st.Nodes, st.EdgeVersions, bt.FormatBoth(st.LastTT))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "store directory (created if missing), or postgres://USER@HOST:PORT/DB?schema=NAME")
	f.StringVar(&dataset, "dataset", "", "SNAP dataset name")
	f.StringVar(&file, "file", "", "local copy of the dataset file (plain or .gz)")
	f.StringVar(&eventsFile, "events", "", "JSONL file of events")
	f.StringVar(&label, "node-label", "Node", "label of nodes the ingest creates")
	f.BoolVar(&download, "download", false, "download the dataset from SNAP when no local copy is found")
	f.BoolVar(&noSync, "no-sync", false, "skip fsync (faster; a crash may lose the load)")
	f.BoolVar(&again, "again", false, "load content the store already holds a second time (refused by default: every ingest records its source's SHA-256)")
	f.BoolVar(&acks, "acks", false, "print 'ack EVENTS TT' after each durable group commit")
	f.MarkHidden("acks")
	f.IntVar(&groupEvents, "group-events", 0, "events per group commit (default 200,000)")
	f.MarkHidden("group-events")
	table.register(f)
	return cmd
}

// ingestInterruptible ingests events from src, stopping between group
// commits when ctx is cancelled (SIGINT) with an interruptedError that says
// what was committed.
func ingestInterruptible(ctx context.Context, db *tgms.DB, src tgms.Source, again bool, events []bt.Event, label string, ack func(done int, tt bt.Time)) (tgms.IngestResult, error) {
	res, err := db.IngestFromContext(ctx, src, again, events, label, ack)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return res, interruptedError{fmt.Sprintf("interrupted: ingest (of %d events): committed %s; the committed batches stay and record their source, so the same ingest again is refused as a repeat (with --again it would load those batches a second time)", len(events),
			committed{Batches: res.Batches, Events: int64(res.Events), LastTT: res.LastTT})}
	}
	return res, err
}

func loadDataset(ctx context.Context, name, file string, download bool) ([]bt.Event, string, error) {
	spec, err := datasets.Lookup(name)
	if err != nil {
		return nil, "", badInput("%v", err)
	}
	if file == "" {
		if p, ok := datasets.Locate(spec, filepath.Join("..", "shared", "data"), "data"); ok {
			file = p
		} else if download {
			if file, err = datasets.Download(ctx, spec, "data"); err != nil {
				return nil, "", err
			}
		} else {
			return nil, "", badInput("no local copy of %s found in ../shared/data or ./data: give --file PATH or --download", spec.FileName)
		}
	}
	events, err := datasets.Load(spec, file)
	return events, file, asInput(err)
}

func readEventsFile(path string) ([]bt.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, asInput(err)
	}
	defer f.Close()
	events, err := datasets.ReadEventsJSONL(f, path)
	if err != nil {
		return nil, inputError{err}
	}
	return events, nil
}

func newWrite() *cobra.Command {
	var store, opsFile string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "write --store DIR --ops FILE.jsonl",
		Short: "Write one atomic batch of ops (assert_node, assert_edge, retract, correct, ingest)",
		Long: `Write one batch: every line of the file is one op, and the batch is applied
atomically (all ops or none) at one transaction time. Formats:

  {"op":"assert_node","uid":"a","label":"Person","props":{...},"vt_s":T,"vt_e":T}
  {"op":"assert_edge","src":"a","dst":"b","rel_type":"KNOWS","disc":"","props":{...},"vt_s":T,"vt_e":T}
  {"op":"retract","ref":{"kind":"node","uid":"a"},"t":T}
  {"op":"correct","ref":{"kind":"edge","src":"a","dst":"b","rel_type":"KNOWS"},"props":{...},"vt_s":T,"vt_e":T}
  {"op":"ingest","node_label":"Node","events":[{"src":..,"dst":..,"rel_type":..,"vt_s":T}, ...]}

T is µs since the epoch or RFC 3339; vt_s defaults to 0 and vt_e to open.
Use "-" to read the ops from standard input.

An optional first line states the batch's provenance, stored with every
version it writes, and whether it may replace facts a user stated:

  {"provenance":{"authority":"user|model|import|system","source":..,"actor":..,"ref":..,"note":..},"override":false}

A batch with a provenance line must pass the write contract (entities
exist or are created by the batch, no assert over a believed fact, no
model batch replacing a user's fact without override, sane valid times,
property types as already stored). --dry-run checks any batch and prints
the violations and a preview. A refused batch exits 3 (like a rejected
plan) and writes nothing.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opsFile == "" {
				return usageError{fmt.Errorf("--ops FILE is required")}
			}
			batch, err := readBatchFile(opsFile)
			if err != nil {
				return err
			}
			ops := batch.Ops
			if dryRun {
				return dryRunWrite(cmd, store, opsFile, batch)
			}
			if pgstore.IsURL(store) {
				if batch.Prov != nil || batch.Override {
					return badInput("%s: batches with a provenance header are not written to PostgreSQL stores yet: leave the header out", opsFile)
				}
				return pgWrite(cmd, store, opsFile, ops)
			}
			db, err := openStore(store, false)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			tt, err := db.WriteBatch(batch)
			if re := (*writecheck.RefusedError)(nil); errors.As(err, &re) {
				return rejectedError{fmt.Sprintf("%s: %v", opsFile, err)} // exit 3, like a rejected plan
			}
			if err != nil {
				return asInput(fmt.Errorf("%s: batch refused, nothing written: %w", opsFile, err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d ops at tt %s\n", len(ops), bt.FormatBoth(tt))
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory (created if missing), or postgres://USER@HOST:PORT/DB?schema=NAME")
	cmd.Flags().StringVar(&opsFile, "ops", "", "JSONL file of ops, one batch")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "check the batch against the write contract and print the violations and the versions it would open and close, as JSON; write nothing")
	return cmd
}

// Bounds on one 'tgms write' batch: its lines, its size and its events.
// The batch is held in memory (parsed, validated, applied at once), so the
// bounds keep a mistaken or hostile file from exhausting memory; bulk loads
// belong to 'tgms ingest', which streams in batches of tgms.ChunkEvents.
// (Variables so that tests can lower them.)
var (
	maxOpLine     int   = datasets.MaxJSONLLine // bytes per line, as ingest --events
	maxBatchBytes int64 = 64 << 20              // bytes of the whole file
	maxOpsEvents  int64 = 4 * tgms.ChunkEvents  // ingest events over all the ops
	// maxBatchOps bounds the ops of one batch: in memory an op costs
	// about 1.7 KB to write and as much again to replay without a
	// checkpoint, so a batch needs at most about 170 MB either way.
	maxBatchOps int = tgms.MaxBatchOps
)

func readBatchFile(path string) (bt.Batch, error) {
	return readBatch(os.Stdin, path)
}

// readBatch reads one batch of ops, one JSON op per line after an
// optional header line, from path (or stdin when path is "-"), within the
// bounds above.
func readBatch(stdin io.Reader, path string) (bt.Batch, error) {
	var batch bt.Batch
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return batch, asInput(err)
		}
		defer f.Close()
		r = f
	}
	cr := &countingReader{r: io.LimitReader(r, maxBatchBytes+1)}
	sc := bufio.NewScanner(cr)
	sc.Buffer(make([]byte, 0, min(64<<10, maxOpLine)), maxOpLine)
	tooBig := func(line int) error {
		return badInput("%s:%d: the batch is larger than %d bytes, the limit of one 'tgms write' batch: split it into several files (one batch each), or load bulk events with 'tgms ingest --events FILE.jsonl'", path, line, maxBatchBytes)
	}
	var ops []bt.Op
	var events int64
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if len(ops) == 0 && batch.Prov == nil && !batch.Override && bt.IsHeaderLine(text) {
			if err := bt.DecodeBatchHeader(text, &batch); err != nil {
				return batch, badInput("%s:%d: batch header: %v", path, line, err)
			}
			continue
		}
		op, err := bt.DecodeOp(text)
		if err == nil {
			err = op.Validate(len(ops))
		}
		if err != nil {
			if cr.n > maxBatchBytes { // the line was cut at the size bound
				return batch, tooBig(line)
			}
			return batch, badInput("%s:%d: %v", path, line, err)
		}
		if len(ops) >= maxBatchOps {
			return batch, badInput("%s:%d: the batch has more than %d ops, the limit of one 'tgms write' batch (about 1.7 KB of memory each to write and to replay): split it into several files (one batch each), or load bulk events with 'tgms ingest --events FILE.jsonl'", path, line, maxBatchOps)
		}
		if events += int64(len(op.Events)); events > maxOpsEvents {
			return batch, badInput("%s:%d: the batch's ingest ops carry more than %d events, the limit of one 'tgms write' batch: load bulk events with 'tgms ingest --events FILE.jsonl' (batches of %d)",
				path, line, maxOpsEvents, tgms.ChunkEvents)
		}
		ops = append(ops, op)
	}
	if err := sc.Err(); err != nil {
		if cr.n > maxBatchBytes {
			return batch, tooBig(line + 1)
		}
		if errors.Is(err, bufio.ErrTooLong) {
			return batch, badInput("%s:%d: line longer than %d bytes, the limit of one op: split the op, or load bulk events with 'tgms ingest --events FILE.jsonl'", path, line+1, maxOpLine)
		}
		return batch, asInput(fmt.Errorf("read %s: %w", path, err))
	}
	if cr.n > maxBatchBytes {
		return batch, tooBig(line)
	}
	if len(ops) == 0 {
		return batch, badInput("%s: no ops", path)
	}
	batch.Ops = ops
	return batch, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func newReplay() *cobra.Command {
	var logPath, store string
	var noSync bool
	cmd := &cobra.Command{
		Use:   "replay --log FILE|URL --store DIR|URL",
		Short: "Rebuild a store from an event log, keeping its transaction times",
		Long: `Replay every batch of an event log (events.wal of another store) into a new
store. Transaction times are kept, so the new store has the same digest.
The saved answers beside the log (answers.log) are copied into the new store.

The store is built in a temporary directory beside DIR and renamed to DIR
only when every batch replayed: a damaged log or an interruption (Ctrl-C,
between batches) leaves nothing at DIR.

Either side may be a PostgreSQL store (postgres://USER@HOST:PORT/DB?schema=NAME):
--log URL replays its batches table, --store URL writes into a schema that
holds no batches yet. Every batch of the source is verified first, so a
damaged source writes nothing.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if logPath == "" {
				return usageError{fmt.Errorf("--log FILE is required")}
			}
			if pgstore.IsURL(logPath) || pgstore.IsURL(store) {
				return pgReplay(cmd, logPath, store, noSync)
			}
			if _, err := os.Stat(logPath); err != nil {
				return badInput("replay: --log %s: %v", logPath, err)
			}
			var done committed
			var digest string
			err := buildStore(cmd.Context(), store, noSync, cmd.ErrOrStderr(), func(db *tgms.DB) error {
				if err := replayLog(cmd.Context(), logPath, db, &done); err != nil {
					return err
				}
				// Saved answers belong to the store: they move with its log.
				if err := answers.Carry(filepath.Dir(logPath), db.Dir()); err != nil {
					return fmt.Errorf("replay %s: %w", logPath, err)
				}
				digest = db.Digest()
				return nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "replayed %d batches into %s\ndigest %s\n", done.Batches, store, digest)
			return nil
		},
	}
	cmd.Flags().StringVar(&logPath, "log", "", "event log file to replay, or a PostgreSQL store's URL (its batches)")
	cmd.Flags().StringVar(&store, "store", "", "new store directory, or a PostgreSQL store's URL")
	cmd.Flags().BoolVar(&noSync, "no-sync", false, "skip fsync (faster; a crash may lose the copy)")
	return cmd
}

// replayLog writes every batch of the log at logPath into db at its
// transaction time, stopping between batches when ctx is cancelled. A
// damaged log is an input error (exit 2): it is what the user gave.
func replayLog(ctx context.Context, logPath string, db *tgms.DB, done *committed) error {
	err := eventlog.ReadFile(logPath, func(r *eventlog.Record, _ int64) error {
		if err := stopped(ctx, "replay of "+logPath, *done); err != nil {
			return err
		}
		if err := db.WriteRecordAt(r.TT, r.Source, bt.Batch{Ops: r.Ops, Prov: r.Prov, Override: r.Override}); err != nil {
			return fmt.Errorf("batch %d (tt %d): %w", r.Seq, r.TT, err)
		}
		done.Batches++
		done.Events += int64(countEvents(r.Ops))
		done.LastTT = r.TT
		return nil
	})
	var ir interruptedError
	if errors.As(err, &ir) {
		return err
	}
	if err != nil {
		return inputError{fmt.Errorf("replay %s: %w", logPath, err)}
	}
	return nil
}

// countEvents is the number of bulk-ingested events in a batch.
func countEvents(ops []bt.Op) int {
	n := 0
	for _, op := range ops {
		if op.Kind == bt.OpIngest {
			n += len(op.Events)
		}
	}
	return n
}

func newImport() *cobra.Command {
	var format, logPath, store string
	cmd := &cobra.Command{
		Use:   "import --format tgms-py --log FILE --store DIR",
		Short: "Import the JSONL event log of the Python TGMS system, keeping its transaction times",
		Long: `Import the JSONL event log of the Python TGMS system into a new store,
keeping its transaction times. The whole log is parsed before anything is
written; the store is built in a temporary directory beside DIR and renamed
to DIR only on success, so a bad log or an interruption leaves nothing.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "tgms-py" {
				return usageError{fmt.Errorf("--format must be tgms-py, got %q", format)}
			}
			if logPath == "" {
				return usageError{fmt.Errorf("--log FILE is required")}
			}
			f, err := os.Open(logPath)
			if err != nil {
				return asInput(err)
			}
			defer f.Close()
			// Parse everything first: a malformed log imports nothing.
			type batch struct {
				tt  bt.Time
				ops []bt.Op
			}
			var batches []batch
			if err := eventlog.ImportTGMSPy(f, logPath, func(tt bt.Time, ops []bt.Op) error {
				batches = append(batches, batch{tt, ops})
				return nil
			}); err != nil {
				return inputError{err}
			}
			skipped := 0
			var done committed
			var st engine.Stats
			var digest string
			err = buildStore(cmd.Context(), store, false, cmd.ErrOrStderr(), func(db *tgms.DB) error {
				for i, b := range batches {
					if err := stopped(cmd.Context(), "import of "+logPath, done); err != nil {
						return err
					}
					if err := db.WriteAt(b.tt, b.ops); err != nil {
						// The reference system logged batches that then failed to
						// apply, and skipped them on replay; do the same, loudly.
						if oe := (*bt.OpError)(nil); errors.As(err, &oe) {
							fmt.Fprintf(cmd.ErrOrStderr(), "tgms: %s: batch %d (tt %d) did not apply in the source system either; skipped: %v\n", logPath, i+1, b.tt, err)
							skipped++
							continue
						}
						return err
					}
					done.Batches++
					done.Events += int64(countEvents(b.ops))
					done.LastTT = b.tt
				}
				st, digest = db.Stats(), db.Digest()
				return nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d batches (%d skipped) into %s: %d nodes, %d node versions, %d edge versions\ndigest %s\n",
				len(batches)-skipped, skipped, store, st.Nodes, st.NodeVersions, st.EdgeVersions, digest)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "source format (tgms-py)")
	cmd.Flags().StringVar(&logPath, "log", "", "source event log (JSONL)")
	cmd.Flags().StringVar(&store, "store", "", "new store directory")
	return cmd
}
