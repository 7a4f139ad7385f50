package tgms

import "github.com/tgms-go/tgms/engine"

// Memory breaks the bytes the store's engine holds down by structure (see
// engine.Store.Memory), at its latest durable belief.
func (db *DB) Memory() []engine.MemoryPart {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.store.Memory()
}
