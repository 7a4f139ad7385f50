package writecheck

import (
	"bufio"
	"bytes"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// FuzzCheck feeds arbitrary op lines (the wire form of 'tgms write')
// through the contract: it never panics, never changes the store, and a
// batch it admits is one the planner takes.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"op":"assert_node","uid":"x","props":{"age":"old"}}`), uint8(2), false)
	f.Add([]byte("{\"op\":\"retract\",\"ref\":{\"kind\":\"node\",\"uid\":\"dana\"},\"t\":150}\n{\"op\":\"assert_node\",\"uid\":\"dana\",\"vt_s\":150}"), uint8(1), false)
	f.Add([]byte(`{"op":"correct","ref":{"kind":"edge","src":"dana","dst":"berlin","rel_type":"WORKS_AT"},"vt_s":200,"to_vt_s":250}`), uint8(2), true)
	f.Add([]byte(`{"op":"ingest","events":[{"src":"a","dst":"dana","rel_type":"M","vt_s":"2021-01-01T00:00:00Z"}]}`), uint8(3), false)
	f.Fuzz(func(t *testing.T, data []byte, auth uint8, override bool) {
		var ops []bt.Op
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if op, err := bt.DecodeOp(sc.Bytes()); err == nil {
				ops = append(ops, op)
			}
		}
		if len(ops) == 0 {
			return
		}
		m := base(t)
		before := m.Digest()
		b := bt.Batch{Ops: ops, Override: override, Prov: &bt.Provenance{Authority: bt.Authority(auth % 6), Actor: "fuzz"}}
		res := Check(m, 100, m.Batches+1, b)
		if m.Digest() != before {
			t.Fatal("Check changed the store")
		}
		if res.Admitted != (len(res.Violations) == 0) {
			t.Fatal("admitted disagrees with the violations")
		}
		if res.Admitted {
			if res.Preview == nil {
				t.Fatal("admitted without a preview")
			}
			if err := m.WriteBatch(100, "", b); err != nil {
				t.Fatalf("admitted, but the write failed: %v", err)
			}
		}
	})
}
