package ops

import "testing"

// TestNodeTables checks that a lent table starts empty whatever the call
// before it set, across reuse, growth and the epoch wrapping around.
func TestNodeTables(t *testing.T) {
	var p nodeTables[int64]
	a := p.get(4)
	a.set(1, 7)
	if v, ok := a.get(1); !ok || v != 7 {
		t.Fatalf("get(1) = %d, %v after set(1, 7)", v, ok)
	}
	if _, ok := a.get(2); ok {
		t.Fatal("get(2) is set in a fresh table")
	}
	p.put(a)
	b := p.get(3)
	if b != a {
		t.Fatal("a returned table of enough nodes was not reused")
	}
	if _, ok := b.get(1); ok {
		t.Fatal("a reused table still holds the previous call's value")
	}
	b.set(0, 1)
	p.put(b)
	if c := p.get(10); c == b || len(c.stamp) < 10 {
		t.Fatalf("a table for 10 nodes has %d", len(c.stamp))
	}
	// The epoch wraps: stamps written at the last epoch must not read as
	// set once it restarts.
	b.epoch = ^uint32(0) - 1
	b.set(2, 5)
	p.put(b)
	d := p.get(3) // epoch ^0
	if _, ok := d.get(2); ok {
		t.Fatal("value of the previous epoch visible")
	}
	d.set(2, 6)
	p.put(d)
	e := p.get(3) // wraps to 0: stamps cleared, epoch 1
	if e.epoch != 1 {
		t.Fatalf("epoch after wrapping = %d, want 1", e.epoch)
	}
	for i := range uint32(3) {
		if _, ok := e.get(i); ok {
			t.Fatalf("get(%d) set after the epoch wrapped", i)
		}
	}
}
