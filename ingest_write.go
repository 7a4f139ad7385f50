package tgms

import (
	"context"
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// groupFeed hands a bulk ingest its next group of batches (one ingest op
// each) with their source texts (nil: none); no batches at the end. An
// error stops the ingest after the groups already handed over are
// logged; writeGroups returns it wrapped in a *feedError.
type groupFeed func() (batches [][]bt.Op, sources []string, err error)

// feedError is an error of a groupFeed, returned once the groups before
// it are durable.
type feedError struct{ err error }

func (e *feedError) Error() string { return e.err.Error() }
func (e *feedError) Unwrap() error { return e.err }

// chunkOps cuts events into batches of ChunkEvents, one ingest op each.
func chunkOps(events []bt.Event, nodeLabel string) [][]bt.Op {
	var chunks [][]bt.Op
	for start := 0; start < len(events); start += ChunkEvents {
		chunks = append(chunks, []bt.Op{bt.Ingest(events[start:min(start+ChunkEvents, len(events))], nodeLabel)})
	}
	return chunks
}

// listFeed feeds batches known in advance, in groups of perGroup.
func listFeed(chunks [][]bt.Op, sources []string, perGroup int) groupFeed {
	return func() ([][]bt.Op, []string, error) {
		group := chunks[:min(perGroup, len(chunks))]
		chunks = chunks[len(group):]
		var gsrc []string
		if sources != nil {
			gsrc, sources = sources[:len(group)], sources[len(group):]
		}
		return group, gsrc, nil
	}
}

// perGroup is how many batches of ChunkEvents one group commit holds.
func (db *DB) perGroup() int { return max(1, db.opt.GroupEvents/ChunkEvents) }

// writeGroups writes the batches feed hands over, validated already,
// with group commit: each group is planned and applied in memory, then
// logged on a goroutine of its own while the next group is fetched and
// planned, so the fsync of one overlaps the work of the next. A group is
// acknowledged, counted and published only once its fsync is done; a
// staged group is always logged (or the store fails), so the store in
// memory never runs ahead of the log. It stops between groups once ctx
// is done: what was committed stays, the result counts it, and the error
// wraps ctx.Err(). The caller holds db.wmu.
func (db *DB) writeGroups(ctx context.Context, feed groupFeed, ack func(done int, tt bt.Time)) (IngestResult, error) {
	var res IngestResult
	res.FirstSeq = db.store.Batches() + 1
	// One planner for every batch (each is applied before the next is
	// planned).
	planner := bt.Planner{Validated: true}
	done := 0
	// One checkpoint when the whole ingest is durable, not one image per
	// 64 MiB of its log: an ingest much larger than the store would
	// otherwise write the growing store several times over. (A crash
	// midway replays the ingest's durable batches from the log.)
	db.bulk = true
	defer func() {
		db.bulk = false
		if db.failed == nil {
			db.maybeCheckpoint()
		}
	}()
	var logging chan groupLogged
	wait := func() error {
		if logging == nil {
			return nil
		}
		r := <-logging
		logging = nil
		if r.err != nil {
			db.failed = r.err
			return fmt.Errorf("ingest stopped after %d durable events: %w", done, r.err)
		}
		if r.batches == 0 {
			return nil
		}
		done += r.events
		if res.FirstTT == 0 {
			res.FirstTT = r.first
		}
		res.LastTT = r.last
		res.Batches += r.batches
		res.Events = done
		if ack != nil {
			ack(done, r.last)
		}
		return nil
	}
	defer wait() // on every return, after which the deferred checkpoint runs
	for {
		if err := ctx.Err(); err != nil {
			if werr := wait(); werr != nil {
				return res, werr
			}
			return res, fmt.Errorf("ingest stopped after %d durable events (%d batches): %w", done, res.Batches, err)
		}
		group, gsrc, err := feed()
		if err != nil {
			if werr := wait(); werr != nil {
				return res, werr
			}
			return res, &feedError{err}
		}
		if len(group) == 0 {
			break
		}
		st, err := db.stage(&planner, group, gsrc, nil, nil)
		if werr := wait(); werr != nil {
			return res, werr // st, if staged, is never logged: the store has failed
		}
		if err != nil {
			return res, fmt.Errorf("ingest stopped after %d durable events: %w", done, err)
		}
		r := groupLogged{batches: len(st.recs)}
		for _, b := range group[:len(st.recs)] {
			r.events += len(b[0].Events)
		}
		ch := make(chan groupLogged, 1)
		logging = ch
		go func() {
			r.first, r.last, r.err = db.logGroup(st)
			ch <- r
		}()
		if st.refused != nil {
			if werr := wait(); werr != nil {
				return res, werr
			}
			return res, fmt.Errorf("ingest stopped after %d durable events: %w", done, st.refused)
		}
	}
	err := wait()
	return res, err
}

// groupLogged is what logging one group of a bulk ingest did.
type groupLogged struct {
	first, last     bt.Time
	events, batches int
	err             error
}
