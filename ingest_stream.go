package tgms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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
	// OnePass, if not nil, says what the content holds, so that an ingest
	// into a store without batches can write it as it reads it (see
	// IngestStream).
	OnePass *OnePass
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
	if opt.OnePass != nil && db.Stats().Batches == 0 {
		return db.ingestOnePass(ctx, name, pass, opt)
	}
	hold := opt.Hold
	if hold == 0 {
		hold = DefaultStreamHold
	}
	chk := newStreamCheck(opt.NodeLabel, max(hold, 0))
	sha, err := pass(func(evs []bt.Event) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ingest stopped while checking, before anything was written: %w", err)
		}
		return chk.add(evs)
	})
	if verr := chk.finish(); verr != nil {
		return IngestResult{}, verr // an invalid event, before whatever stopped the pass
	}
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
	case chk.kept() != nil:
		return db.ingestKept(ctx, chk, src, opt)
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
	return db.ingestSecondPass(ctx, src, pass, chk, opt)
}

// ingestKept writes content the first pass kept and checked: validated
// event by event, explicit discriminators not repeated.
func (db *DB) ingestKept(ctx context.Context, chk *streamCheck, src Source, opt StreamOptions) (IngestResult, error) {
	var chunks [][]bt.Op
	if !chk.sorted && chk.total > ChunkEvents {
		events := make([]bt.Event, 0, chk.total)
		for _, c := range chk.kept() {
			events = append(events, c...)
		}
		slices.SortStableFunc(events, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) })
		chunks = chunkOps(events, opt.NodeLabel)
	} else {
		for _, c := range chk.kept() {
			chunks = append(chunks, []bt.Op{bt.Ingest(c, opt.NodeLabel)})
		}
	}
	if err := db.checkKnownDiscs(chk.discs); err != nil {
		return IngestResult{}, err
	}
	return db.writeChunks(ctx, chunks, src.text, opt.Ack)
}

// ingestSecondPass writes content checked by a first pass as it reads it
// again, in the batches IngestFrom would cut.
func (db *DB) ingestSecondPass(ctx context.Context, src Source, pass EventPass, chk *streamCheck, opt StreamOptions) (IngestResult, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if err := db.checkKnownDiscs(chk.discs); err != nil {
		return IngestResult{}, err
	}
	res, err := db.writePass(ctx, src, pass, chk.total, opt)
	if err != nil {
		var pe *passError
		if errors.As(err, &pe) {
			return res, fmt.Errorf("%s changed between the check and the write: %s; %d events in %d batches were written before it (the log records their source, so loading the file again needs --again)", src.Name, pe.msg, res.Events, res.Batches)
		}
	}
	return res, err
}

// passError is a write pass that did not read the content it expected.
type passError struct {
	msg   string
	cause error // the event's validation or the read's error, if that was it
}

func (e *passError) Error() string { return e.msg }

// writePass writes content of total events and SHA-256 src.SHA256 as it
// reads it, in the batches IngestFrom would cut: each batch is validated,
// and content of more than one batch must be in vt_s order. The pass runs
// on a goroutine of its own (see readAhead), so reading the next batch
// overlaps writing this one. When the pass does not read what was
// expected the error is a *passError, returned once the batches before
// are durable. The caller holds db.wmu.
func (db *DB) writePass(ctx context.Context, src Source, pass EventPass, total int, opt StreamOptions) (IngestResult, error) {
	nb := (total + ChunkEvents - 1) / ChunkEvents
	ra := startReadAhead(pass)
	defer ra.stop()
	seen, k := 0, 0
	last := bt.Time(0)
	// next is the next batch read, checked against what was expected.
	next := func() ([]bt.Event, error) {
		chunk := ra.next()
		if chunk == nil {
			if _, err := ra.result(); err != nil {
				return nil, &passError{msg: fmt.Sprintf("reading it again: %v", err), cause: err}
			}
			return nil, nil
		}
		if seen+len(chunk) > total {
			return nil, &passError{msg: fmt.Sprintf("it has more than the %d events first read", total)}
		}
		for i := range chunk {
			if seen+i > 0 && chunk[i].VtS < last && total > ChunkEvents {
				return nil, &passError{msg: fmt.Sprintf("event %d is no longer in time order", seen+i)}
			}
			last = chunk[i].VtS
		}
		if err := validateEvents(chunk, opt.NodeLabel, seen); err != nil {
			return nil, &passError{msg: err.Error(), cause: err}
		}
		seen += len(chunk)
		return chunk, nil
	}
	perGroup := db.perGroup()
	feed := func() ([][]bt.Op, []string, error) {
		var group [][]bt.Op
		var sources []string
		for len(group) < perGroup {
			chunk, err := next()
			if err != nil {
				return nil, nil, err
			}
			if chunk == nil {
				break
			}
			group = append(group, []bt.Op{bt.Ingest(chunk, opt.NodeLabel)})
			sources = append(sources, src.text(k, nb))
			k++
		}
		return group, sources, nil
	}
	res, err := db.writeGroups(ctx, feed, opt.Ack)
	if fe := (*feedError)(nil); errors.As(err, &fe) {
		return res, fe.err
	}
	if err != nil {
		return res, err
	}
	if sha, _ := ra.result(); seen != total || sha != src.SHA256 {
		return res, &passError{msg: fmt.Sprintf("%d events with SHA-256 %s, first %d with %s", seen, sha, total, src.SHA256)}
	}
	return res, nil
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
