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
	"github.com/tgms-go/tgms/eventlog"
)

func newIngest() *cobra.Command {
	var store, dataset, file, eventsFile, label string
	var download, noSync, acks, again bool
	var groupEvents int
	cmd := &cobra.Command{
		Use:   "ingest --store DIR (--dataset NAME [--file PATH] | --events FILE.jsonl)",
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
  {"src":"a","dst":"b","rel_type":"MSG","vt_s":T,["vt_e":T],["disc":"..."],["props":{...}]}`,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			db, err := tgms.Open(store, storeOptions(tgms.Options{NoSync: noSync, GroupEvents: groupEvents}))
			if err != nil {
				return asInput(err)
			}
			defer db.Close()
			bar := progress(int64(len(events)), "ingest")
			start := time.Now()
			res, err := db.IngestFrom(src, again, events, label, func(done int, tt bt.Time) {
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
	f.StringVar(&store, "store", "", "store directory (created if missing)")
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
	return cmd
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
Use "-" to read the ops from standard input.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opsFile == "" {
				return usageError{fmt.Errorf("--ops FILE is required")}
			}
			ops, err := readOpsFile(opsFile)
			if err != nil {
				return err
			}
			db, err := openStore(store, false)
			if err != nil {
				return err
			}
			defer db.Close()
			tt, err := db.Write(ops...)
			if err != nil {
				return asInput(fmt.Errorf("%s: batch refused, nothing written: %w", opsFile, err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d ops at tt %s\n", len(ops), bt.FormatBoth(tt))
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory (created if missing)")
	cmd.Flags().StringVar(&opsFile, "ops", "", "JSONL file of ops, one batch")
	return cmd
}

func readOpsFile(path string) ([]bt.Op, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, asInput(err)
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	var ops []bt.Op
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(text)) > 0 {
			op, derr := bt.DecodeOp(text)
			if derr == nil {
				derr = op.Validate(len(ops))
			}
			if derr != nil {
				return nil, badInput("%s:%d: %v", path, line, derr)
			}
			ops = append(ops, op)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(ops) == 0 {
		return nil, badInput("%s: no ops", path)
	}
	return ops, nil
}

func newReplay() *cobra.Command {
	var logPath, store string
	cmd := &cobra.Command{
		Use:   "replay --log FILE --store DIR",
		Short: "Rebuild a store from an event log, keeping its transaction times",
		Long: `Replay every batch of an event log (events.wal of another store) into a new,
empty store. Transaction times are kept, so the new store has the same digest.
The saved answers beside the log (answers.log) are copied into the new store.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if logPath == "" {
				return usageError{fmt.Errorf("--log FILE is required")}
			}
			db, err := openEmpty(store)
			if err != nil {
				return err
			}
			defer db.Close()
			n := 0
			err = eventlog.ReadFile(logPath, func(r *eventlog.Record, _ int64) error {
				n++
				if err := db.WriteAt(r.TT, r.Ops); err != nil {
					return fmt.Errorf("batch %d (tt %d): %w", r.Seq, r.TT, err)
				}
				return nil
			})
			if err != nil {
				return asInput(fmt.Errorf("replay %s: %w", logPath, err))
			}
			// Saved answers belong to the store: they move with its log.
			if err := answers.Carry(filepath.Dir(logPath), store); err != nil {
				return fmt.Errorf("replay %s: %w", logPath, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "replayed %d batches into %s\ndigest %s\n", n, store, db.Digest())
			return nil
		},
	}
	cmd.Flags().StringVar(&logPath, "log", "", "event log file to replay")
	cmd.Flags().StringVar(&store, "store", "", "new store directory")
	return cmd
}

// openEmpty opens a store that must have no batches yet.
func openEmpty(dir string) (*tgms.DB, error) {
	db, err := openStore(dir, false)
	if err != nil {
		return nil, err
	}
	if db.LastTT() != 0 {
		db.Close()
		return nil, badInput("store %s already has data: replay and import need a new, empty store", dir)
	}
	return db, nil
}

func newImport() *cobra.Command {
	var format, logPath, store string
	cmd := &cobra.Command{
		Use:   "import --format tgms-py --log FILE --store DIR",
		Short: "Import the JSONL event log of the Python TGMS system, keeping its transaction times",
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
			db, err := openEmpty(store)
			if err != nil {
				return err
			}
			defer db.Close()
			skipped := 0
			for i, b := range batches {
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
			}
			st := db.Stats()
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d batches (%d skipped) into %s: %d nodes, %d node versions, %d edge versions\ndigest %s\n",
				len(batches)-skipped, skipped, store, st.Nodes, st.NodeVersions, st.EdgeVersions, db.Digest())
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "source format (tgms-py)")
	cmd.Flags().StringVar(&logPath, "log", "", "source event log (JSONL)")
	cmd.Flags().StringVar(&store, "store", "", "new store directory")
	return cmd
}
