package tgms

import (
	"fmt"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// A group commit has two halves: staging plans and applies its batches
// in memory (unpublished: readers are pinned at or before db.published)
// and starts encoding their log records, each on a goroutine of its own
// while the next batch is planned; logging writes the records with one
// fsync, advances the seal and publishes them. A bulk ingest stages the
// next group while the previous one is being logged.

// staged is a group of batches applied in memory and not yet logged.
type staged struct {
	recs     []*eventlog.Record
	encs     []*eventlog.Encoded
	encoding sync.WaitGroup
	refused  error // a *groupError for the batch that stopped the group
}

// commitProv is commitSourced with the stated provenance of each batch
// (nil: none stated; only Prov and Override of each are read).
func (db *DB) commitProv(pl *bt.Planner, batches [][]bt.Op, sources []string, provs []bt.Batch, tts []bt.Time) (first, last bt.Time, err error) {
	st, err := db.stage(pl, batches, sources, provs, tts)
	if err != nil {
		return 0, 0, err
	}
	if first, last, err = db.logGroup(st); err != nil {
		db.failed = err
		return 0, 0, err
	}
	if len(st.recs) > 0 {
		db.maybeCheckpoint()
	}
	return first, last, st.refused
}

// stage plans and applies batches in memory, stopping at the first one
// refused (recorded in the result: the batches before it stay staged),
// and starts encoding each one's record. An error is one that leaves
// the store unusable (db.failed).
func (db *DB) stage(pl *bt.Planner, batches [][]bt.Op, sources []string, provs []bt.Batch, tts []bt.Time) (*staged, error) {
	if db.opt.ReadOnly {
		return nil, ErrReadOnly
	}
	if db.failed != nil {
		return nil, db.failed
	}
	st := &staged{recs: make([]*eventlog.Record, 0, len(batches))}
	encs := make([]*eventlog.Encoded, len(batches)) // the goroutines write their own element
	for i, ops := range batches {
		if len(ops) > MaxBatchOps {
			st.refused = &groupError{i, fmt.Errorf("the batch has %d ops, over the limit of %d per batch (MaxBatchOps): split it into several batches", len(ops), MaxBatchOps)}
			break
		}
		var tt bt.Time
		if tts != nil {
			tt, db.clockLast = tts[i], tts[i]
		} else {
			tt = db.tick()
		}
		seq := db.store.Batches() + 1
		eff, ops, err := db.plan(pl, tt, seq, ops, true)
		if err != nil {
			st.refused = &groupError{i, err}
			break
		}
		rec := &eventlog.Record{TT: tt, Seq: seq, Ops: ops}
		if sources != nil {
			rec.Source = sources[i]
		}
		if provs != nil {
			rec.Prov, rec.Override = provs[i].Prov, provs[i].Override
		}
		prov := rec.Provenance()
		eff.Prov = &prov
		db.mu.Lock()
		err = db.store.Apply(eff)
		db.mu.Unlock()
		if err != nil {
			st.encoding.Wait()
			db.failed = fmt.Errorf("%w: %v", ErrFailed, err)
			return nil, db.failed
		}
		st.recs = append(st.recs, rec)
		if encodeAhead(ops) {
			st.encoding.Go(func() { encs[i] = eventlog.Encode(rec) })
		} else {
			encs[i] = eventlog.Encode(rec)
		}
	}
	st.encs = encs[:len(st.recs)]
	return st, nil
}

// logGroup writes a staged group's records with one fsync, advances the
// seal and publishes the group. It does not set db.failed (a bulk ingest
// calls it on a goroutine of its own): an error wraps ErrFailed, and the
// caller must record it there.
func (db *DB) logGroup(st *staged) (first, last bt.Time, err error) {
	st.encoding.Wait()
	if len(st.recs) == 0 {
		return 0, 0, nil
	}
	_, err = db.log.AppendEncoded(st.encs...)
	for _, e := range st.encs {
		e.Release()
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrFailed, err)
	}
	if err := db.advanceSeal(); err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrFailed, err)
	}
	first, last = st.recs[0].TT, st.recs[len(st.recs)-1].TT
	db.mu.Lock()
	db.published = last
	db.mu.Unlock()
	return first, last, nil
}

// encodeAhead says whether a batch is large enough to encode on a
// goroutine of its own: one that holds a bulk ingest op of many events.
func encodeAhead(ops []bt.Op) bool {
	for i := range ops {
		if ops[i].Kind == bt.OpIngest && len(ops[i].Events) >= 1024 {
			return true
		}
	}
	return false
}
