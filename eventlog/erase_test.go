package eventlog

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/bitemporal"
)

func TestEraseRecordRoundTrip(t *testing.T) {
	h := strings.Repeat("ab", 32)
	e := &bitemporal.Erasure{UID: "dana", Edges: true, Tombs: []bitemporal.Tombstone{
		{Kind: bitemporal.RefNode, Valid: bitemporal.Interval{Start: 5, End: bitemporal.OpenEnd}, TTs: 10, TTe: bitemporal.OpenEnd, Hash: h},
		{Kind: bitemporal.RefEdge, Edge: bitemporal.EdgeKey{Src: "dana", Dst: "bob", RelType: "KNOWS", Disc: "#3.0"}, Valid: bitemporal.Interval{Start: -1, End: 7}, TTs: 11, TTe: 12, Hash: strings.Repeat("0f", 32)},
	}}
	for _, in := range []Record{
		{TT: 99, Seq: 4, Ops: []bitemporal.Op{{Kind: bitemporal.OpErase, Erase: e}}},
		{TT: 100, Seq: 5, Ops: []bitemporal.Op{{Kind: bitemporal.OpErase, Erase: &bitemporal.Erasure{UID: "x"}}}},
	} {
		got, err := DecodeRecord(AppendRecord(nil, &in))
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Ops[0].Erase.Tombs) == 0 {
			got.Ops[0].Erase.Tombs = nil
		}
		if !reflect.DeepEqual(got, in) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got.Ops[0].Erase, in.Ops[0].Erase)
		}
		// Every cut of the payload is an error, never a panic.
		p := AppendRecord(nil, &in)
		for n := range len(p) {
			if _, err := DecodeRecord(p[:n]); err == nil {
				t.Errorf("payload cut to %d of %d bytes decodes", n, len(p))
			}
		}
	}
}
