package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/tabular"
)

// eventPass reads an event table once per call: the first pass checks
// every row, the second (for a table too large to keep) writes it. Each
// shows its progress on errw.
type eventPass struct {
	path   string
	m      *tabular.Mapping
	opt    tabular.Options
	errw   io.Writer
	passes int
	rows   int64
	load   bool // one pass that checks and writes
}

func (p *eventPass) read(fn func([]bt.Event) error) (string, error) {
	p.passes++
	what := "check "
	if p.load {
		what = "load "
	} else if p.passes > 1 {
		what = "write "
	}
	rd, err := tabular.Open(p.path, p.m.Format)
	if err != nil {
		return "", err
	}
	defer rd.Close()
	meter := newMeter(p.errw, what+filepath.Base(p.path), 1000, "‰")
	opt := p.opt
	opt.Progress = func(done float64, rows int64) { meter.set(int64(done*1000), rows) }
	sc, err := tabular.ScanEvents(rd, p.m, opt, tgms.ChunkEvents, fn)
	meter.finish()
	if err != nil {
		return "", err
	}
	p.rows = sc.Rows
	return sc.SHA256, nil
}

// runEvents loads an event table: a first pass checks every row (nothing
// is written when any is bad), and a table too large to keep in memory is
// read a second time to write it, so memory does not grow with the file.
// A new store is built beside its target and moved into place when the
// load succeeds, so a failed or interrupted load leaves no store behind.
func (t *tableFlags) runEvents(ctx context.Context, w, errw io.Writer, store, path string, m *tabular.Mapping, opt tabular.Options, noSync, again bool) error {
	p := &eventPass{path: path, m: m, opt: opt, errw: errw}
	if t.dryRun {
		return t.dryRunEvents(w, store, p)
	}
	if isNewStore(store) {
		// A new store is discarded when the load fails, so a table whose
		// rows can be counted up front is written as it is read; one that
		// turns out not to suit is loaded again into a fresh store.
		if sv, err := tabular.SurveyFile(path, m.Format); err == nil && sv.OK {
			p.load = true
			err := buildStore(ctx, store, noSync, errw, func(db *tgms.DB) error {
				return loadEvents(ctx, w, db, store, p, again, "", &tgms.OnePass{SHA256: sv.SHA256, Events: int(sv.Rows)})
			})
			if !errors.Is(err, tgms.ErrNotOnePass) {
				return err
			}
			p.load, p.passes = false, 0
		}
		return buildStore(ctx, store, noSync, errw, func(db *tgms.DB) error {
			return loadEvents(ctx, w, db, store, p, again, "", nil)
		})
	}
	db, err := openWith(store, storeOptions(tgms.Options{NoSync: noSync}))
	if err != nil {
		return err
	}
	defer closeDB(db, errw)
	return loadEvents(ctx, w, db, store, p, again, "; the committed batches stay and record their source, so the same ingest again is refused as a repeat (with --again it would load those batches a second time)", nil)
}

// isNewStore reports whether dir is no store yet: missing, or an empty
// directory.
func isNewStore(dir string) bool {
	ents, err := os.ReadDir(dir)
	return errors.Is(err, os.ErrNotExist) || (err == nil && len(ents) == 0)
}

// loadEvents ingests the event table p reads into db; stays says what
// becomes of the batches an interrupt leaves.
func loadEvents(ctx context.Context, w io.Writer, db *tgms.DB, store string, p *eventPass, again bool, stays string, one *tgms.OnePass) error {
	start := time.Now()
	var checked time.Duration
	pass := func(fn func([]bt.Event) error) (string, error) {
		sha, err := p.read(fn)
		if p.passes == 1 {
			checked = time.Since(start)
		}
		return sha, err
	}
	res, err := db.IngestStream(ctx, "file "+filepath.Base(p.path), pass, tgms.StreamOptions{AllowRepeat: again, NodeLabel: tabular.NodeLabelOf(p.m), OnePass: one})
	if errors.Is(err, tgms.ErrNotOnePass) {
		return err
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return interruptedError{fmt.Sprintf("interrupted: ingest of %s: committed %s%s", p.path,
			committed{Batches: res.Batches, Events: int64(res.Events), LastTT: res.LastTT}, stays)}
	}
	if errors.Is(err, tgms.ErrRepeatIngest) {
		return inputError{err}
	}
	if err != nil {
		if e := asTable(err); isInputErr(e) {
			return e
		}
		return asInput(err)
	}
	el := time.Since(start)
	if p.load {
		fmt.Fprintf(w, "ingested %d events from %s in %d batches (%.0f events/s, read and written in one pass)\n", res.Events, p.path, res.Batches, float64(res.Events)/el.Seconds())
	} else {
		fmt.Fprintf(w, "ingested %d events from %s in %d batches (%.0f events/s: read %s, write %s)\n", res.Events, p.path, res.Batches, float64(res.Events)/el.Seconds(), checked.Round(time.Millisecond), (el - checked).Round(time.Millisecond))
	}
	st := db.Stats()
	fmt.Fprintf(w, "store %s: %d nodes, %d node versions, %d edge versions, last tt %s\n", store, st.Nodes, st.NodeVersions, st.EdgeVersions, bt.FormatBoth(st.LastTT))
	return nil
}

func isInputErr(err error) bool {
	var ie inputError
	return errors.As(err, &ie)
}

// dryRunEvents checks every row of an event table and prints what a load
// would write, holding only the summary.
func (t *tableFlags) dryRunEvents(w io.Writer, store string, p *eventPass) error {
	var s eventSummary
	sha, err := p.read(func(evs []bt.Event) error {
		for i := range evs {
			s.add(&evs[i])
		}
		return nil
	})
	if err != nil {
		return asTable(err)
	}
	fmt.Fprintf(w, "dry run: %s is valid; nothing was written\n", p.path)
	s.print(w, tabular.NodeLabelOf(p.m))
	if store == "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(store, tgms.LogFile)); err != nil {
		return nil
	}
	db, err := openReadOnly(store)
	if err != nil {
		return err
	}
	defer closeDB(db, p.errw)
	if err := db.IngestCheck(tgms.Source{Name: p.path, SHA256: sha}); err != nil {
		fmt.Fprintf(w, "  note: %v\n", err)
	}
	return nil
}

// eventSummary is what a dry run reports of an event table: counts by
// rel type, the distinct node uids, the valid-time extent and the first
// few events.
type eventSummary struct {
	n, intervals int
	rels         map[string]int
	uids         map[string]struct{}
	vmin, vmax   bt.Time
	first        []bt.Event
}

func (s *eventSummary) add(e *bt.Event) {
	if s.rels == nil {
		s.rels, s.uids = map[string]int{}, map[string]struct{}{}
		s.vmin, s.vmax = -1, -1
	}
	s.n++
	s.rels[e.RelType]++
	s.uids[e.Src], s.uids[e.Dst] = struct{}{}, struct{}{}
	iv := e.Valid()
	if e.VtE != 0 {
		s.intervals++
	}
	if s.vmin < 0 || iv.Start < s.vmin {
		s.vmin = iv.Start
	}
	if iv.End < bt.OpenEnd && iv.End > s.vmax {
		s.vmax = iv.End
	}
	if len(s.first) < 3 {
		s.first = append(s.first, *e)
	}
}

func (s *eventSummary) print(w io.Writer, label string) {
	fmt.Fprintf(w, "  %d events in %d batches; nodes they create get label %q\n", s.n, (s.n+tgms.ChunkEvents-1)/tgms.ChunkEvents, label)
	fmt.Fprintf(w, "  %d distinct node uids, %d interval facts, valid time %s .. %s\n", len(s.uids), s.intervals, bt.FormatRFC3339(max(s.vmin, 0)), bt.FormatRFC3339(max(s.vmax, 0)))
	for _, r := range slices.Sorted(mapKeys(s.rels)) {
		fmt.Fprintf(w, "  rel type %-20s %d\n", r, s.rels[r])
	}
	for i := range s.first {
		e := &s.first[i]
		fmt.Fprintf(w, "  e.g. %s -[%s]-> %s %s props %s\n", e.Src, e.RelType, e.Dst, e.Valid(), e.Props.JSON())
	}
}
