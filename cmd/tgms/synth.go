package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
)

func newSynth() *cobra.Command {
	var store, manifestPath string
	var cfg datasets.SynthConfig
	var noSync bool
	cmd := &cobra.Command{
		Use:   "synth --store DIR --events N --seed S [--corrections FRACTION]",
		Short: "Generate a deterministic synthetic temporal graph with planted patterns and corrections",
		Long: `Generate a synthetic event stream (seeded, deterministic at any scale) with
interval edges, instantaneous events, planted temporal triangles, ping-pongs and
bursts, ingest it, then write the chosen corrections and retractions as later
batches. --manifest writes what was planted where (JSON).

The store is built in a temporary directory beside DIR and renamed to DIR
only when everything was written: a failure or an interruption (Ctrl-C,
between batches) leaves nothing at DIR.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.Events <= 0 {
				return usageError{errors.New("--events N must be positive")}
			}
			if cfg.Corrections < 0 || cfg.Corrections > 1 {
				return usageError{errors.New("--corrections must be a fraction in [0, 1]")}
			}
			var res *synthResult
			err := buildStore(cmd.Context(), store, noSync, cmd.ErrOrStderr(), func(db *tgms.DB) error {
				var err error
				res, err = synthesize(cmd.Context(), db, store, cfg, cmd.OutOrStdout())
				return err
			})
			if err != nil {
				return err
			}
			if manifestPath != "" {
				f, err := os.Create(manifestPath)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := printJSON(f, res.manifest); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "new store directory")
	f.Int64Var(&cfg.Events, "events", 0, "number of background events")
	f.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	f.IntVar(&cfg.Nodes, "nodes", 0, "background nodes (default max(200, events/50))")
	f.Float64Var(&cfg.Corrections, "corrections", 0, "fraction of events corrected or retracted in later batches")
	f.StringVar(&manifestPath, "manifest", "", "write the manifest (planted patterns, corrections) here")
	f.BoolVar(&noSync, "no-sync", false, "skip fsync (faster; a crash may lose the load)")
	return cmd
}

type synthResult struct {
	manifest *datasets.Manifest
	ingestTT bt.Time // last transaction time of the ingest
	firstSeq uint64  // batch seq of the first ingest batch
}

// synthesize streams a synthetic graph into db: the events in batches of
// tgms.ChunkEvents, then each correction of the manifest as a batch of its
// own (group-committed). It stops between group commits when ctx is
// cancelled, with an interruptedError that says what was committed. name
// is the store as the user named it.
func synthesize(ctx context.Context, db *tgms.DB, name string, cfg datasets.SynthConfig, out io.Writer) (*synthResult, error) {
	start := time.Now()
	var firstSeq uint64
	var buf []bt.Event
	var total int64
	var done committed
	bar := progress(cfg.Events, "synth")
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if err := stopped(ctx, "synth", done); err != nil {
			return err
		}
		res, err := db.Ingest(buf, "Node", nil)
		if err != nil {
			return err
		}
		done.Batches += res.Batches
		done.Events += int64(res.Events)
		done.LastTT = db.LastTT()
		if firstSeq == 0 {
			firstSeq = res.FirstSeq
		}
		total += int64(len(buf))
		if bar != nil {
			bar.Set64(min(total, cfg.Events))
		}
		buf = buf[:0]
		return nil
	}
	manifest, err := datasets.Synthesize(cfg, func(chunk []bt.Event) error {
		if len(chunk) != tgms.ChunkEvents && len(buf) > 0 {
			// A short chunk can only be the last one; batches must line up
			// with chunks so that event indexes map onto discs.
			if err := flush(); err != nil {
				return err
			}
		}
		buf = append(buf, chunk...)
		if len(buf) >= 4*tgms.ChunkEvents {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if bar != nil {
		bar.Finish()
	}
	var ir interruptedError
	if errors.As(err, &ir) {
		return nil, err
	}
	if err != nil {
		return nil, asInput(err)
	}
	res := &synthResult{manifest: manifest, ingestTT: db.LastTT()}
	ingestDur := time.Since(start)
	// Corrections: one batch each, in manifest order.
	var batches [][]bt.Op
	var keyErr error
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		for _, c := range manifest.Corrections {
			var key bt.EdgeKey
			if c.Node == "" {
				seq := firstSeq + uint64(c.Event/tgms.ChunkEvents)
				k, ok := r.Store().AutoEdge(seq, c.Event%tgms.ChunkEvents)
				if !ok {
					keyErr = fmt.Errorf("correction of event %d: no edge #%d.%d", c.Event, seq, c.Event%tgms.ChunkEvents)
					return nil
				}
				key = k
			}
			op, err := c.Op(key)
			if err != nil {
				keyErr = err
				return nil
			}
			batches = append(batches, []bt.Op{op})
		}
		return nil
	})
	if keyErr != nil {
		return nil, keyErr
	}
	res.firstSeq = firstSeq
	refused := 0
	for i := 0; i < len(batches); {
		if err := stopped(ctx, "synth corrections", done); err != nil {
			return nil, err
		}
		end := min(len(batches), i+1000)
		n, err := db.WriteBatches(batches[i:end])
		if err != nil {
			var oe *bt.OpError
			if !errors.As(err, &oe) {
				return nil, err
			}
			refused++
			i += n + 1
			continue
		}
		done.Batches += end - i
		done.LastTT = db.LastTT()
		i = end
	}
	st := db.Stats()
	fmt.Fprintf(out, "synthesized %d events (%d planted) in %s (%.0f events/s); %d corrections written, %d refused\n",
		manifest.TotalEvents, manifest.PlantedEvents, ingestDur.Round(time.Millisecond), float64(manifest.TotalEvents)/ingestDur.Seconds(), len(batches)-refused, refused)
	fmt.Fprintf(out, "store %s: %d nodes, %d node versions, %d edge versions, %d batches\n", name, st.Nodes, st.NodeVersions, st.EdgeVersions, st.Batches)
	return res, nil
}
