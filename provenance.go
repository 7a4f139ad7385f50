package tgms

import (
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// WriteBatch applies a batch with its stated provenance (b.Prov; nil: the
// default, see bitemporal.Provenance) as one atomic write and returns its
// transaction time once it is durable. The provenance is stored with the
// batch and read back on every version the batch writes or closes.
func (db *DB) WriteBatch(b bt.Batch) (bt.Time, error) {
	if b.Prov != nil {
		if err := b.Prov.Validate(); err != nil {
			return 0, fmt.Errorf("batch refused, nothing written: %w", err)
		}
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.commit(0, "", b)
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
