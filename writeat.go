package tgms

import (
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// WriteBatchesAt writes batches with caller-chosen transaction times (a
// change log's recorded-at times), strictly increasing and after the
// store's last, with group commit; nil tts means the store's clock. source, when not empty, is recorded
// on every batch like a bulk ingest's (see IngestFrom); unless
// allowRepeat, content the store already holds is refused. Each batch is
// atomic; when one is refused, the batches before it stay committed and
// the error names the refused one (callers that need all or nothing check
// the batches first, e.g. against a bitemporal.MemStore).
func (db *DB) WriteBatchesAt(src *Source, allowRepeat bool, tts []bt.Time, batches [][]bt.Op) (int, error) {
	return db.writeBatchesAt(src, allowRepeat, tts, batches, nil)
}

// WriteChangesAt is WriteBatchesAt for batches that carry a stated
// provenance and override (a change log exported by another store): each
// is stored as stated, like WriteRecordAt, without the write contract, so
// the copy keeps the history it had.
func (db *DB) WriteChangesAt(src *Source, allowRepeat bool, tts []bt.Time, batches []bt.Batch) (int, error) {
	ops := make([][]bt.Op, len(batches))
	for i := range batches {
		ops[i] = batches[i].Ops
	}
	return db.writeBatchesAt(src, allowRepeat, tts, ops, batches)
}

func (db *DB) writeBatchesAt(src *Source, allowRepeat bool, tts []bt.Time, batches [][]bt.Op, provs []bt.Batch) (int, error) {
	if tts != nil && len(tts) != len(batches) {
		return 0, fmt.Errorf("%d transaction times for %d batches", len(tts), len(batches))
	}
	if db.opt.ReadOnly {
		return 0, ErrReadOnly
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	prev := db.clockLast
	for i, tt := range tts {
		if tt <= prev {
			if i == 0 {
				return 0, fmt.Errorf("recorded time %s is not after the store's last transaction time %s: a change log can only extend a store's history", bt.FormatBoth(tt), bt.FormatBoth(prev))
			}
			return 0, fmt.Errorf("batch %d: recorded time %s is not after the previous batch's %s", i, bt.FormatBoth(tt), bt.FormatBoth(prev))
		}
		if tt >= bt.OpenEnd-1 {
			return 0, fmt.Errorf("batch %d: recorded time %d is beyond the last representable transaction time", i, tt)
		}
		prev = tt
	}
	var sources []string
	if src != nil {
		if !sha256Hex.MatchString(src.SHA256) {
			return 0, fmt.Errorf("source %q: SHA-256 %q is not 64 lowercase hex digits", src.Name, src.SHA256)
		}
		if !allowRepeat {
			if err := db.repeated(*src); err != nil {
				return 0, err
			}
		}
		for k := range batches {
			sources = append(sources, src.text(k, len(batches)))
		}
	}
	const group = 64
	done := 0
	var pl bt.Planner
	for done < len(batches) {
		end := min(done+group, len(batches))
		var gs []string
		if sources != nil {
			gs = sources[done:end]
		}
		var gt []bt.Time
		if tts != nil {
			gt = tts[done:end]
		}
		var gp []bt.Batch
		if provs != nil {
			gp = provs[done:end]
		}
		_, _, err := db.commitProv(&pl, batches[done:end], gs, gp, gt)
		if ge := (*groupError)(nil); err != nil {
			if asGroup(err, &ge) {
				return done + ge.index, &groupError{done + ge.index, ge.err}
			}
			return done, err
		}
		done = end
	}
	return done, nil
}

func asGroup(err error, ge **groupError) bool {
	g, ok := err.(*groupError)
	if ok {
		*ge = g
	}
	return ok
}
