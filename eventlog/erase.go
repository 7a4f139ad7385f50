package eventlog

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/tgms-go/tgms/bitemporal"
)

// The erase op (bitemporal.OpErase, kind byte 7) is stored as
//
//	7 erase  uid:string edges:u8 ntombs:uvarint tomb{ntombs}
//	tomb  := kind:u8 [src:string dst:string rel_type:string disc:string]
//	         vt_s:varint vt_e:varint tt_s:varint tt_e:varint hash[32]
//
// kind is the bitemporal.RefKind (1 node: the version is uid's; 2 edge: the
// edge key follows), hash the raw SHA-256 of the erased content.

const minTombSize = 1 + 4 + 32

func appendErase(dst []byte, e *bitemporal.Erasure) []byte {
	dst = appendString(dst, e.UID)
	if e.Edges {
		dst = append(dst, 1)
	} else {
		dst = append(dst, 0)
	}
	dst = binary.AppendUvarint(dst, uint64(len(e.Tombs)))
	for i := range e.Tombs {
		t := &e.Tombs[i]
		dst = append(dst, byte(t.Kind))
		if t.Kind == bitemporal.RefEdge {
			dst = appendEdgeKey(dst, &t.Edge)
		}
		for _, x := range []bitemporal.Time{t.Valid.Start, t.Valid.End, t.TTs, t.TTe} {
			dst = binary.AppendVarint(dst, x)
		}
		var h [32]byte
		hex.Decode(h[:], []byte(t.Hash)) // validated before Append
		dst = append(dst, h[:]...)
	}
	return dst
}

func (d *decoder) erase(op *bitemporal.Op) {
	var e bitemporal.Erasure
	e.UID = d.str("erase uid")
	switch d.byte1("erase edges") {
	case 0:
	case 1:
		e.Edges = true
	default:
		d.fail("erase edges flag is not 0 or 1")
		return
	}
	n := d.count("erase tombstones", minTombSize)
	if d.build {
		e.Tombs = make([]bitemporal.Tombstone, 0, n)
	}
	for j := 0; j < n && d.err == nil; j++ {
		var t bitemporal.Tombstone
		t.Kind = bitemporal.RefKind(d.byte1("tombstone kind"))
		switch t.Kind {
		case bitemporal.RefNode:
		case bitemporal.RefEdge:
			d.edgeKey(&t.Edge)
		default:
			d.fail(fmt.Sprintf("tombstone kind %d", uint8(t.Kind)))
			return
		}
		t.Valid.Start, t.Valid.End = d.varint("tombstone vt_s"), d.varint("tombstone vt_e")
		t.TTs, t.TTe = d.varint("tombstone tt_s"), d.varint("tombstone tt_e")
		if d.left() < 32 {
			d.fail("truncated tombstone hash")
			return
		}
		if d.build {
			t.Hash = hex.EncodeToString(d.b[d.i : d.i+32])
			e.Tombs = append(e.Tombs, t)
		}
		d.i += 32
	}
	if d.build {
		op.Erase = &e
	}
}
