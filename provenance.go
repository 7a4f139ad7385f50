package tgms

import (
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/writecheck"
)

// WriteBatch applies a batch with its stated provenance (b.Prov; nil: the
// default, see bitemporal.Provenance) as one atomic write and returns its
// transaction time once it is durable. The provenance is stored with the
// batch and read back on every version the batch writes or closes.
//
// A batch that states a provenance must pass the write contract (package
// writecheck) first; a refusal is a *writecheck.RefusedError and nothing
// is written.
func (db *DB) WriteBatch(b bt.Batch) (bt.Time, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if b.Prov != nil {
		if res := db.checkLocked(b); !res.Admitted {
			return 0, res.Err()
		}
	}
	return db.commit(0, "", b)
}

// ValidateWrite checks a batch against the write contract without writing
// it: the violations, and a preview of the versions it would open and
// close.
func (db *DB) ValidateWrite(b bt.Batch) writecheck.Result {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.checkLocked(b)
}

// checkLocked runs the contract; the caller holds wmu, so no batch lands
// between the check and the write.
func (db *DB) checkLocked(b bt.Batch) writecheck.Result {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return writecheck.Check(db.store, db.store.LastTT()+1, db.store.Batches()+1, b)
}

// WriteRecordAt writes a batch read from another store's log (replay,
// import) at its transaction time, with its ingest source and stated
// provenance, so the copy keeps both.
func (db *DB) WriteRecordAt(tt bt.Time, source string, b bt.Batch) error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if tt <= db.clockLast {
		return fmt.Errorf("transaction time %d is not after the store's last %d", tt, db.clockLast)
	}
	_, err := db.commit(tt, source, b)
	return err
}
