package tgms

import (
	"context"
	"errors"
	"fmt"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// EventPass reads the content of a bulk ingest once, from the start: it
// calls fn with the events in order, in consecutive slices (fn copies
// what it keeps, so a pass may reuse a slice), and returns the SHA-256 of
// the content it read (64 lowercase hex digits). It returns fn's error
// as it is.
type EventPass func(fn func(events []bt.Event) error) (sha256 string, err error)

// DefaultStreamHold is how many events IngestStream keeps from its first
// pass by default (about 100 bytes each, plus their props).
const DefaultStreamHold = 40 * ChunkEvents

// StreamOptions tune IngestStream.
type StreamOptions struct {
	// AllowRepeat loads content the store already holds an ingest of.
	AllowRepeat bool
	// NodeLabel is the label of the nodes the events create.
	NodeLabel string
	// Hold bounds the events the first pass keeps: content of at most
	// Hold events is written from them, without a second pass. 0 means
	// DefaultStreamHold; a negative Hold keeps none.
	Hold int
	// Ack, if not nil, is called after each group commit with the events
	// durable so far and the group's last transaction time.
	Ack func(done int, tt bt.Time)
}

// IngestStream is IngestFromContext for content that need not fit in
// memory, read through pass: once to check every event (nothing is
// written when the pass fails or any event is invalid), then, when the
// content is larger than opt.Hold, a second time to write it in batches
// of ChunkEvents with group commit. Memory grows with the batch and the
// store, not with the content. The store gets the same batches, source
// texts and digest as IngestFrom of all the events at once.
//
// Content of more than one batch that is not in vt_s order is written
// sorted (stably), as Ingest does: the second pass then cuts it into
// runs of Hold events (at least ChunkEvents), each sorted and written to
// a temporary file (see os.TempDir), and the write reads a merge of the
// runs. Memory stays bounded either way; the temporary files take about
// the size of the events and are removed when the ingest ends.
//
// The second pass must read what the first did: if it yields other
// events (the file changed in between), the ingest stops there, the
// batches written so far stay, and the error says how many.
func (db *DB) IngestStream(ctx context.Context, name string, pass EventPass, opt StreamOptions) (IngestResult, error) {
	if strings.ContainsAny(name, "\n\x00") {
		return IngestResult{}, fmt.Errorf("ingest source name %q has a newline or NUL", name)
	}
	if db.opt.ReadOnly {
		return IngestResult{}, ErrReadOnly
	}
	hold := opt.Hold
	if hold == 0 {
		hold = DefaultStreamHold
	}
	chk := streamCheck{label: opt.NodeLabel, hold: max(hold, 0)}
	sha, err := pass(func(evs []bt.Event) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ingest stopped while checking, before anything was written: %w", err)
		}
		return chk.add(evs)
	})
	if err != nil {
		return IngestResult{}, err
	}
	src := Source{Name: name, SHA256: sha}
	if !sha256Hex.MatchString(sha) {
		return IngestResult{}, fmt.Errorf("ingest source %q: SHA-256 %q is not 64 lowercase hex digits", name, sha)
	}
	if !opt.AllowRepeat {
		if err := db.repeated(src); err != nil {
			return IngestResult{}, err
		}
	}
	switch {
	case chk.held != nil:
		return db.ingest(ctx, chk.held, opt.NodeLabel, src.text, opt.Ack)
	case !chk.sorted && chk.total > ChunkEvents:
		runs := sortRuns{}
		defer runs.close()
		sha2, n, err := runs.spill(func(fn func([]bt.Event) error) (string, error) {
			return pass(func(evs []bt.Event) error {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("ingest stopped while sorting, before anything was written: %w", err)
				}
				return fn(evs)
			})
		}, max(hold, ChunkEvents))
		if err == nil && (sha2 != sha || n != chk.total) {
			err = fmt.Errorf("%s changed while it was read (%d events, SHA-256 %s, then %d events, %s); nothing was written: load it again", name, chk.total, sha, n, sha2)
		}
		if err != nil {
			return IngestResult{}, err
		}
		pass = runs.merge(sha)
	}
	return db.ingestSecondPass(ctx, src, pass, &chk, opt)
}

// streamCheck is what the first pass of IngestStream keeps: the count,
// whether the events are in vt_s order, the explicit discriminators (an
// ingest only creates identities) and, up to hold, the events.
type streamCheck struct {
	label  string
	hold   int
	total  int
	sorted bool
	last   bt.Time
	held   []bt.Event
	discs  map[bt.EdgeKey]int
}

func (c *streamCheck) add(evs []bt.Event) error {
	if c.total == 0 {
		c.sorted = true
		if c.hold > 0 {
			c.held = []bt.Event{}
		}
	}
	if err := validateEvents(evs, c.label, c.total); err != nil {
		return err
	}
	for i := range evs {
		e := &evs[i]
		if c.total+i > 0 && e.VtS < c.last {
			c.sorted = false
		}
		c.last = e.VtS
		if e.Disc == "" {
			continue
		}
		if c.discs == nil {
			c.discs = map[bt.EdgeKey]int{}
		}
		k := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
		if j, dup := c.discs[k]; dup {
			return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: c.total + i, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q repeats event %d; each event must be a new edge", e.Src, e.Dst, e.RelType, e.Disc, j)}
		}
		c.discs[k] = c.total + i
	}
	c.total += len(evs)
	if c.held != nil {
		if len(c.held)+len(evs) > c.hold {
			c.held = nil // too many to keep: a second pass writes them
		} else {
			c.held = append(c.held, evs...)
		}
	}
	return nil
}

// validateEvents checks events as one ingest op; from is the index of
// the first in the whole input, for the error.
func validateEvents(evs []bt.Event, label string, from int) error {
	op := bt.Ingest(evs, label)
	if err := op.Validate(0); err != nil {
		if oe := (*bt.OpError)(nil); errors.As(err, &oe) && oe.Event >= 0 {
			oe.Event += from
		}
		return err
	}
	return nil
}

// ingestSecondPass writes content checked by a first pass as it reads it
// again, in the batches IngestFrom would cut.
func (db *DB) ingestSecondPass(ctx context.Context, src Source, pass EventPass, chk *streamCheck, opt StreamOptions) (IngestResult, error) {
	var res IngestResult
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if err := db.checkKnownDiscs(chk.discs); err != nil {
		return res, err
	}
	nb := (chk.total + ChunkEvents - 1) / ChunkEvents
	res.FirstSeq = db.store.Batches() + 1
	planner := bt.Planner{Validated: true}
	db.bulk = true
	defer func() {
		db.bulk = false
		if db.failed == nil {
			db.maybeCheckpoint()
		}
	}()
	changed := func(format string, args ...any) error {
		return fmt.Errorf("%s changed between the check and the write: %s; %d events in %d batches were written before it (the log records their source, so loading the file again needs --again)", src.Name, fmt.Sprintf(format, args...), res.Events, res.Batches)
	}
	perGroup := max(1, db.opt.GroupEvents/ChunkEvents)
	var group [][]bt.Op
	var sources []string
	chunk := make([]bt.Event, 0, ChunkEvents)
	seen := 0
	last := bt.Time(0)
	commit := func() error {
		if len(group) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ingest stopped after %d durable events (%d batches): %w", res.Events, res.Batches, err)
		}
		first, lastTT, err := db.commitSourced(&planner, group, sources, nil)
		if err != nil {
			return fmt.Errorf("ingest stopped after %d durable events: %w", res.Events, err)
		}
		for _, b := range group {
			res.Events += len(b[0].Events)
		}
		if res.FirstTT == 0 {
			res.FirstTT = first
		}
		res.LastTT = lastTT
		res.Batches += len(group)
		group, sources = group[:0], sources[:0]
		if opt.Ack != nil {
			opt.Ack(res.Events, lastTT)
		}
		return nil
	}
	cut := func() error {
		if err := validateEvents(chunk, opt.NodeLabel, seen-len(chunk)); err != nil {
			return changed("%v", err)
		}
		k := res.Batches + len(group)
		group = append(group, []bt.Op{bt.Ingest(chunk, opt.NodeLabel)})
		sources = append(sources, src.text(k, nb))
		chunk = make([]bt.Event, 0, ChunkEvents) // the batch keeps its events
		if len(group) == perGroup {
			return commit()
		}
		return nil
	}
	write := func(evs []bt.Event) error {
		for i := range evs {
			e := &evs[i]
			if seen == chk.total {
				return changed("it has more than the %d events first read", chk.total)
			}
			if seen > 0 && e.VtS < last && chk.total > ChunkEvents {
				return changed("event %d is no longer in time order", seen)
			}
			last = e.VtS
			chunk = append(chunk, *e)
			seen++
			if len(chunk) == ChunkEvents {
				if err := cut(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var fnErr error
	sha, err := pass(func(evs []bt.Event) error {
		fnErr = write(evs)
		return fnErr
	})
	if err != nil && err != fnErr {
		err = changed("reading it again: %v", err)
	}
	if err == nil && len(chunk) > 0 {
		err = cut()
	}
	if err == nil {
		err = commit()
	}
	if err == nil && (seen != chk.total || sha != src.SHA256) {
		err = changed("%d events with SHA-256 %s, first %d with %s", seen, sha, chk.total, src.SHA256)
	}
	return res, err
}

// checkKnownDiscs refuses explicit discriminators that name edges the
// store already has: bulk ingest only creates identities.
func (db *DB) checkKnownDiscs(discs map[bt.EdgeKey]int) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	for k, i := range discs {
		if db.store.EdgeKnown(k) {
			return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: i, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q already exists; bulk ingest only creates new edges", k.Src, k.Dst, k.RelType, k.Disc)}
		}
	}
	return nil
}
