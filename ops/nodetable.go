package ops

import "sync"

// nodeTable is a per-call map from dense node id to T, held in arrays of
// the store's node count that calls reuse: an entry is present only when
// its stamp is the current call's epoch, so starting a call clears
// nothing. Lookups are an array read, where a Go map spends most of a
// small search's time on hashing and growth.
type nodeTable[T any] struct {
	stamp []uint32
	val   []T
	epoch uint32
}

// get returns id's value and whether it is set in this call.
func (t *nodeTable[T]) get(id uint32) (T, bool) {
	if t.stamp[id] == t.epoch {
		return t.val[id], true
	}
	var zero T
	return zero, false
}

// set sets id's value for this call.
func (t *nodeTable[T]) set(id uint32, v T) {
	t.stamp[id] = t.epoch
	t.val[id] = v
}

// nodeTables lends nodeTables to calls and takes them back. Unlike a
// sync.Pool it keeps them across garbage collections: a table of a large
// store is megabytes that a call should not allocate and clear.
type nodeTables[T any] struct {
	mu   sync.Mutex
	free []*nodeTable[T]
}

// get lends a table for n nodes with nothing set.
func (p *nodeTables[T]) get(n int) *nodeTable[T] {
	p.mu.Lock()
	var t *nodeTable[T]
	if k := len(p.free); k > 0 {
		t, p.free = p.free[k-1], p.free[:k-1]
	}
	p.mu.Unlock()
	if t == nil || len(t.stamp) < n {
		// New stamps are all 0, and epoch 0 is never current.
		return &nodeTable[T]{stamp: make([]uint32, n), val: make([]T, n), epoch: 1}
	}
	if t.epoch++; t.epoch == 0 {
		clear(t.stamp)
		t.epoch = 1
	}
	return t
}

// put takes a table back; at most maxFree are kept.
func (p *nodeTables[T]) put(t *nodeTable[T]) {
	const maxFree = 4
	p.mu.Lock()
	if len(p.free) < maxFree {
		p.free = append(p.free, t)
	}
	p.mu.Unlock()
}
