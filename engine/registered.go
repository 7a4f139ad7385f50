package engine

import bt "github.com/tgms-go/tgms/bitemporal"

// Registered is the transaction time of the batch that registered dense
// node id: a reader pinned before it does not know the uid.
func (s *Store) Registered(id uint32) bt.Time { return s.batchTT[s.uidSeq[id]] }
