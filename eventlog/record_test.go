package eventlog

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	bt "github.com/tgms-go/tgms/bitemporal"
)

var update = flag.Bool("update", false, "rewrite golden files")

func mustProps(t testing.TB, s string) bt.Props {
	t.Helper()
	p, err := bt.ParseProps([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// equalRecords compares records treating nil and empty slices alike.
func equalRecords(a, b *Record) bool {
	if a.TT != b.TT || a.Seq != b.Seq || len(a.Ops) != len(b.Ops) {
		return false
	}
	for i := range a.Ops {
		x, y := a.Ops[i], b.Ops[i]
		if len(x.Events) == 0 && len(y.Events) == 0 {
			x.Events, y.Events = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// canonicalOp keeps only the fields the op's kind stores.
func canonicalOp(op bt.Op) bt.Op {
	c := bt.Op{Kind: op.Kind}
	switch op.Kind {
	case bt.OpAssertNode:
		c.UID, c.Label, c.Props, c.Valid = op.UID, op.Label, op.Props, op.Valid
	case bt.OpAssertEdge:
		c.Edge, c.Props, c.Valid = op.Edge, op.Props, op.Valid
	case bt.OpRetract:
		c.Ref, c.At = canonicalRef(op.Ref), op.At
	case bt.OpCorrect:
		c.Ref, c.Props, c.Valid = canonicalRef(op.Ref), op.Props, op.Valid
	case bt.OpIngest:
		c.Label, c.Events = op.Label, op.Events
	}
	return c
}

func canonicalRef(r bt.Ref) bt.Ref {
	switch r.Kind {
	case bt.RefNode:
		return bt.Ref{Kind: r.Kind, UID: r.UID}
	case bt.RefEdge:
		return bt.Ref{Kind: r.Kind, Edge: r.Edge}
	}
	return bt.Ref{Kind: r.Kind}
}

func roundTrip(t *testing.T, r *Record) {
	t.Helper()
	enc := AppendRecord(nil, r)
	got, err := DecodeRecord(enc)
	if err != nil {
		t.Fatalf("decode: %v\n% x", err, enc)
	}
	want := Record{TT: r.TT, Seq: r.Seq}
	for _, op := range r.Ops {
		want.Ops = append(want.Ops, canonicalOp(op))
	}
	if !equalRecords(&got, &want) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", got, want)
	}
	// Appending to a non-empty buffer gives the same bytes after the prefix.
	pre := []byte("prefix")
	if enc2 := AppendRecord(pre, r); !bytes.Equal(enc2[len(pre):], enc) {
		t.Fatal("AppendRecord depends on dst")
	}
}

func TestRoundTrip(t *testing.T) {
	p := mustProps(t, `{"name":"Ålice ✓","n":[1,2.5,null]}`)
	ek := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS", Disc: "d1"}
	tests := []struct {
		name string
		r    Record
	}{
		{"empty batch", Record{TT: 1, Seq: 1}},
		{"negative and huge tt", Record{TT: math.MinInt64, Seq: math.MaxUint64}},
		{"assert_node", Record{TT: 1_082_040_961_000_000, Seq: 7, Ops: []bt.Op{bt.AssertNode("a", "Person", p, bt.Interval{Start: 0, End: bt.OpenEnd})}}},
		{"assert_node empty strings", Record{TT: 2, Seq: 2, Ops: []bt.Op{bt.AssertNode("", "", "", bt.Interval{})}}},
		{"assert_node unicode", Record{TT: 3, Seq: 3, Ops: []bt.Op{bt.AssertNode("ключ-日本-🙂", "Ä\x00\n", p, bt.Interval{Start: -5, End: 10})}}},
		{"assert_edge", Record{TT: 4, Seq: 4, Ops: []bt.Op{bt.AssertEdge(ek, p, bt.Interval{Start: 10, End: 100})}}},
		{"assert_edge open", Record{TT: 4, Seq: 4, Ops: []bt.Op{bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, "", bt.Always)}}},
		{"retract node", Record{TT: 5, Seq: 5, Ops: []bt.Op{bt.Retract(bt.NodeRef("n"), 80)}}},
		{"retract edge", Record{TT: 5, Seq: 5, Ops: []bt.Op{bt.Retract(bt.EdgeRef(ek), bt.OpenEnd)}}},
		{"retract bad ref kinds", Record{TT: 5, Seq: 5, Ops: []bt.Op{
			bt.Retract(bt.Ref{}, 1), bt.Retract(bt.Ref{Kind: 9, UID: "lost"}, -1)}}},
		{"correct node", Record{TT: 6, Seq: 6, Ops: []bt.Op{bt.Correct(bt.NodeRef("n"), p, bt.Interval{Start: 40, End: 60})}}},
		{"correct edge", Record{TT: 6, Seq: 6, Ops: []bt.Op{bt.Correct(bt.EdgeRef(ek), "", bt.Interval{Start: 0, End: bt.OpenEnd})}}},
		{"ingest empty", Record{TT: 7, Seq: 7, Ops: []bt.Op{bt.Ingest(nil, "Node"), bt.Ingest([]bt.Event{}, "")}}},
		{"ingest", Record{TT: 8, Seq: 8, Ops: []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30, VtE: 45},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 35, Disc: "#2", Props: p},
		}, "Node")}}},
		{"ingest unsorted and edge times", Record{TT: 9, Seq: 9, Ops: []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "b", RelType: "R", VtS: 1_000_000_000_000, VtE: bt.OpenEnd},
			{Src: "b", Dst: "a", RelType: "R", VtS: 3},                               // big negative delta
			{Src: "a", Dst: "a", RelType: "S", VtS: bt.OpenEnd - 1, VtE: bt.OpenEnd}, // big positive delta
			{Src: "a", Dst: "b", RelType: "R", VtS: 0, VtE: 0},
			{Src: "a", Dst: "b", RelType: "R", VtS: 50, VtE: 50}, // empty interval
			{Src: "a", Dst: "b", RelType: "R", VtS: 50, VtE: 10}, // reversed
			{Src: "a", Dst: "b", RelType: "R", VtS: -7, VtE: -7}, // negative
			{Src: "", Dst: "", RelType: "", VtS: math.MinInt64, VtE: math.MaxInt64},
			{Src: "ü", Dst: "🙂", RelType: "R", VtS: math.MaxInt64, VtE: math.MinInt64},
			{Src: "a", Dst: "b", RelType: "R", VtS: math.MaxInt64, VtE: math.MaxInt64},
		}, "Ünïcode")}}},
		{"mixed batch", Record{TT: 10, Seq: 10, Ops: []bt.Op{
			bt.AssertNode("a", "Person", p, bt.Always),
			bt.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "R", VtS: 1}}, "N"),
			bt.AssertEdge(ek, "", bt.Interval{Start: 1, End: 2}),
			bt.Ingest([]bt.Event{{Src: "b", Dst: "a", RelType: "R", VtS: 2}}, "N"),
			bt.Retract(bt.EdgeRef(ek), 2),
			bt.Correct(bt.NodeRef("a"), "", bt.Always),
		}}},
		{"unused fields dropped", Record{TT: 11, Seq: 11, Ops: []bt.Op{{
			Kind: bt.OpRetract, UID: "x", Label: "y", Ref: bt.NodeRef("n"), At: 3,
			Events: []bt.Event{{Src: "q"}}, Valid: bt.Always, Props: p,
		}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { roundTrip(t, &tc.r) })
	}
}

func TestDurationBijection(t *testing.T) {
	vals := []int64{0, 1, -1, 2, 50, -50, bt.OpenEnd, bt.OpenEnd - 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for _, vs := range vals {
		seen := map[uint64]int64{}
		for _, ve := range vals {
			u := encodeDuration(vs, ve)
			if got := decodeDuration(vs, u); got != ve {
				t.Errorf("vs=%d ve=%d: stored %d, decodes to %d", vs, ve, u, got)
			}
			if prev, dup := seen[u]; dup {
				t.Errorf("vs=%d: ve %d and %d both store %d", vs, prev, ve, u)
			}
			seen[u] = ve
		}
	}
	if u := encodeDuration(1_000_000, 1_000_001); u != 1 {
		t.Errorf("an instantaneous event with an explicit end stores %d, want 1", u)
	}
}

func randString(rng *rand.Rand, pool []string) string {
	if rng.IntN(4) == 0 {
		b := make([]byte, rng.IntN(200))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	return pool[rng.IntN(len(pool))]
}

func randTime(rng *rand.Rand) int64 {
	switch rng.IntN(5) {
	case 0:
		return 0
	case 1:
		return bt.OpenEnd
	case 2:
		return int64(rng.Uint64())
	}
	return rng.Int64N(1 << 50)
}

func randRecord(rng *rand.Rand) *Record {
	pool := []string{"", "a", "b", "Person", "KNOWS", "日本", `{"k":1}`, strings.Repeat("x", 300)}
	r := &Record{TT: randTime(rng), Seq: rng.Uint64()}
	for range rng.IntN(6) {
		ref := func() bt.Ref {
			switch rng.IntN(3) {
			case 0:
				return bt.NodeRef(randString(rng, pool))
			case 1:
				return bt.EdgeRef(bt.EdgeKey{Src: randString(rng, pool), Dst: randString(rng, pool), RelType: randString(rng, pool), Disc: randString(rng, pool)})
			}
			return bt.Ref{Kind: bt.RefKind(rng.IntN(256))}
		}
		iv := bt.Interval{Start: randTime(rng), End: randTime(rng)}
		var op bt.Op
		switch rng.IntN(5) {
		case 0:
			op = bt.AssertNode(randString(rng, pool), randString(rng, pool), bt.Props(randString(rng, pool)), iv)
		case 1:
			op = bt.AssertEdge(bt.EdgeKey{Src: randString(rng, pool), Dst: randString(rng, pool), RelType: randString(rng, pool), Disc: randString(rng, pool)}, bt.Props(randString(rng, pool)), iv)
		case 2:
			op = bt.Retract(ref(), randTime(rng))
		case 3:
			op = bt.Correct(ref(), bt.Props(randString(rng, pool)), iv)
		case 4:
			evs := make([]bt.Event, rng.IntN(300))
			for j := range evs {
				evs[j] = bt.Event{Src: randString(rng, pool), Dst: randString(rng, pool), RelType: randString(rng, pool),
					VtS: randTime(rng), VtE: randTime(rng), Disc: randString(rng, pool), Props: bt.Props(randString(rng, pool))}
			}
			op = bt.Ingest(evs, randString(rng, pool))
		}
		r.Ops = append(r.Ops, op)
	}
	return r
}

func TestRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		r := randRecord(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) { roundTrip(t, r) })
		if t.Failed() {
			return
		}
	}
}

// TestDictionarySharing checks that a decoded ingest op holds one string
// value per distinct uid, not one per event.
func TestDictionarySharing(t *testing.T) {
	evs := make([]bt.Event, 100)
	for i := range evs {
		evs[i] = bt.Event{Src: "source-node", Dst: fmt.Sprint("d", i%3), RelType: "R", VtS: int64(i)}
	}
	r := &Record{TT: 1, Seq: 1, Ops: []bt.Op{bt.Ingest(evs, "")}}
	got, err := DecodeRecord(AppendRecord(nil, r))
	if err != nil {
		t.Fatal(err)
	}
	ev := got.Ops[0].Events
	for i := range ev {
		if unsafeData(ev[i].Src) != unsafeData(ev[0].Src) || unsafeData(ev[i].Dst) != unsafeData(ev[i%3].Dst) {
			t.Fatalf("event %d does not share its strings with earlier events", i)
		}
	}
}

// TestEncodingSize pins the compactness of a typical event.
func TestEncodingSize(t *testing.T) {
	evs := make([]bt.Event, 1000)
	for i := range evs {
		evs[i] = bt.Event{Src: fmt.Sprint("u", i%10), Dst: fmt.Sprint("u", (i+1)%10), RelType: "MSG", VtS: 1_600_000_000_000_000 + int64(i)*10}
	}
	enc := AppendRecord(nil, &Record{TT: 1, Seq: 1, Ops: []bt.Op{bt.Ingest(evs, "Node")}})
	if per := float64(len(enc)) / float64(len(evs)); per > 7.2 {
		t.Errorf("%.2f bytes per event, want about 7", per)
	}
}

func goldenRecord(t testing.TB) *Record {
	p := mustProps(t, `{"name":"Alice","w":1.5}`)
	ek := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS", Disc: ""}
	return &Record{TT: 1_082_040_961_000_000, Seq: 42, Ops: []bt.Op{
		bt.AssertNode("a", "Person", p, bt.Interval{Start: 0, End: bt.OpenEnd}),
		bt.AssertEdge(ek, `{"w":1}`, bt.Interval{Start: 10, End: 100}),
		bt.Retract(bt.EdgeRef(ek), 80),
		bt.Retract(bt.NodeRef("b"), 5),
		bt.Correct(bt.EdgeRef(ek), `{"w":2}`, bt.Interval{Start: 40, End: 60}),
		bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30, VtE: 45},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 25, Disc: "#2", Props: `{"k":"ü"}`},
		}, "Node"),
	}}
}

// TestGolden pins the byte encoding of one framed record. If it fails, the
// format changed: bump Version, or fix the regression. Run with -update
// only for a deliberate format change.
// record-v1.hex is the frame of format versions 1 to 3 (8-byte header),
// record-v4.hex that of version 4 (12 bytes, with the header checksum).
func TestGolden(t *testing.T) {
	for _, g := range []struct {
		file string
		fh   int
	}{{"record-v1.hex", FrameHeaderSizeV3}, {"record-v4.hex", FrameHeaderSize}} {
		t.Run(g.file, func(t *testing.T) { testGolden(t, g.file, g.fh) })
	}
}

func testGolden(t *testing.T, file string, fh int) {
	r := goldenRecord(t)
	frame := make([]byte, fh)
	frame = AppendRecord(frame, r)
	putFrameHeader(frame[:fh], frame[fh:])
	path := filepath.Join("testdata", file)
	got := hexDump(frame)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("encoding changed:\n got:\n%s\nwant:\n%s", got, want)
	}
	raw, err := hex.DecodeString(strings.Join(strings.Fields(string(want)), ""))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := DecodeRecord(raw[fh:])
	if err != nil {
		t.Fatal(err)
	}
	if !equalRecords(&dec, r) {
		t.Fatalf("golden decodes to %+v", dec)
	}
}

func hexDump(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		n := min(16, len(b))
		sb.WriteString(hex.EncodeToString(b[:n]))
		sb.WriteByte('\n')
		b = b[n:]
	}
	return sb.String()
}

// appendFrame appends r framed as in a version 4 log.
func appendFrame(dst []byte, r *Record) []byte { return appendFrameV(dst, r, FrameHeaderSize) }

// appendFrameV appends r with a frame header of fh bytes (8: versions 1
// to 3, 12: version 4).
func appendFrameV(dst []byte, r *Record, fh int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, fh)...)
	dst = AppendRecord(dst, r)
	p := dst[start+fh:]
	putFrameHeader(dst[start:start+fh], p)
	return dst
}

func TestDecodeErrors(t *testing.T) {
	valid := AppendRecord(nil, goldenRecord(t))
	tests := []struct {
		name    string
		payload []byte
		want    string
	}{
		{"empty", nil, "truncated record type"},
		{"bad type", []byte{9, 2, 2, 0}, "unknown record type 9"},
		{"empty image", []byte{8, 2, 2, 0}, "empty store image"},
		{"image with trailing bytes", []byte{8, 2, 2, 1, 7, 9}, "unexpected bytes after the store image"},
		{"provenance truncated", []byte{3, 2, 2, 0}, "truncated provenance flags"},
		{"provenance flags", []byte{3, 2, 2, 0, 2, 1}, "unknown provenance flags"},
		{"provenance authority", []byte{3, 2, 2, 0, 0, 5, 0, 0, 0, 0, 0}, "authority 5 is not"},
		{"provenance none", []byte{3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0}, "authority 0 is not"},
		{"empty source", []byte{2, 2, 2, 0, 0}, "empty source"},
		{"trailing", append(AppendRecord(nil, &Record{TT: 1, Seq: 1}), 0), "1 unexpected bytes"},
		{"op count too big", []byte{1, 2, 1, 0xff, 0xff, 0xff, 0xff, 0x0f}, "does not fit"},
		{"op count vs bytes", []byte{1, 2, 1, 2, 3, 0, 1}, "op count 2 does not fit"},
		{"unknown op", []byte{1, 2, 1, 1, 8, 0, 0}, "unknown op kind 8"},
		{"erase cut short", []byte{1, 2, 1, 1, 7, 0, 0}, "truncated erase tombstones"},
		{"erase edges flag", []byte{1, 2, 1, 1, 7, 0, 2, 0}, "edges flag"},
		{"op none", []byte{1, 2, 1, 1, 0, 0, 0}, "unknown op kind 0"},
		{"overlong varint", []byte{1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, "overlong varint"},
		{"string too long", []byte{1, 2, 1, 1, 1, 9, 'a', 0, 0, 0, 0}, "runs past the end"},
		{"event count", []byte{1, 2, 1, 1, 5, 0, 2, 0, 1, 'a', 0, 0, 0, 0, 0, 0}, "event count 2 does not fit"},
		{"dict forward ref", []byte{1, 2, 1, 1, 5, 0, 1, 1, 0, 0, 0, 0, 0, 0}, "src refers to dictionary entry 1 of 0"},
		{"truncated valid", valid[:len(valid)-1], "props length 10 runs past the end"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeRecord(tc.payload)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			// The structural check agrees with the full decoder.
			d := decoder{b: tc.payload}
			var r Record
			if d.record(&r) == nil {
				t.Fatal("check-only decode accepted it")
			}
		})
	}
	// Every prefix of a valid payload fails; the full payload decodes.
	for i := range valid {
		if _, err := DecodeRecord(valid[:i]); err == nil {
			t.Fatalf("prefix of %d bytes decoded", i)
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add(AppendRecord(nil, goldenRecord(f)))
	f.Add(AppendRecord(nil, &Record{TT: 1, Seq: 1}))
	// Small random records only: large seeds slow the fuzzer down.
	rng := rand.New(rand.NewPCG(3, 4))
	for added := 0; added < 8; {
		if b := AppendRecord(nil, randRecord(rng)); len(b) < 1500 {
			f.Add(b)
			added++
		}
	}
	f.Add([]byte{1, 2, 1, 1, 5, 0, 1, 0, 1, 'a', 0, 1, 'b', 2, 0, 0, 0})
	f.Add(AppendRecord(nil, &Record{TT: 3, Seq: 2, Ops: []bt.Op{{Kind: bt.OpErase, Erase: &bt.Erasure{UID: "u", Edges: true,
		Tombs: []bt.Tombstone{{Kind: bt.RefEdge, Edge: bt.EdgeKey{Src: "u", Dst: "v", RelType: "R"}, Valid: bt.Interval{Start: 1, End: 2}, TTs: 1, TTe: 3, Hash: strings.Repeat("a", 64)}}}}}}))
	f.Fuzz(func(t *testing.T, payload []byte) {
		r, err := DecodeRecord(payload)
		d := decoder{b: payload}
		var c Record
		cerr := d.record(&c)
		if (err == nil) != (cerr == nil) {
			t.Fatalf("full decode: %v, check-only decode: %v", err, cerr)
		}
		if err != nil {
			return
		}
		if c.TT != r.TT || c.Seq != r.Seq {
			t.Fatal("check-only decode read another header")
		}
		enc := AppendRecord(nil, &r)
		r2, err := DecodeRecord(enc)
		if err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		if !equalRecords(&r, &r2) {
			t.Fatalf("re-encode changed the record:\n%+v\n%+v", r, r2)
		}
	})
}

func ingestRecord(seq uint64, n int) *Record {
	evs := make([]bt.Event, n)
	base := int64(1_600_000_000_000_000) + int64(seq)*1_000_000_000
	for i := range evs {
		evs[i] = bt.Event{Src: uids[(i*7)%len(uids)], Dst: uids[(i*13+1)%len(uids)], RelType: rels[i%len(rels)], VtS: base + int64(i)*1000}
	}
	return &Record{TT: int64(seq), Seq: seq, Ops: []bt.Op{bt.Ingest(evs, "Node")}}
}

var (
	uids = func() []string {
		u := make([]string, 5000)
		for i := range u {
			u[i] = fmt.Sprintf("user-%06d", i)
		}
		return u
	}()
	rels = []string{"MSG", "REPLY", "LIKE"}
)

func BenchmarkEncodeIngest(b *testing.B) {
	r := ingestRecord(1, 50_000)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendRecord(buf[:0], r)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportMetric(float64(b.N)*50_000/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkDecodeIngest(b *testing.B) {
	enc := AppendRecord(nil, ingestRecord(1, 50_000))
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeRecord(enc); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*50_000/b.Elapsed().Seconds(), "events/s")
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }

// A batch that states provenance round-trips through a type 3 record; one
// that states its default is written as the records of earlier releases.
func TestRecordProvenance(t *testing.T) {
	ops := []bt.Op{bt.AssertNode("a", "", "", bt.Always)}
	for _, r := range []Record{
		{TT: 5, Seq: 1, Ops: ops, Prov: &bt.Provenance{Authority: bt.AuthUser, Actor: "dana", Ref: "msg-1", Note: "n", Source: "chat"}},
		{TT: 5, Seq: 1, Ops: ops, Prov: &bt.Provenance{Authority: bt.AuthModel}, Override: true},
		{TT: 5, Seq: 1, Ops: ops, Override: true},
		{TT: 5, Seq: 1, Ops: ops, Source: "sha256=x", Prov: &bt.Provenance{Authority: bt.AuthImport, Actor: "loader"}},
	} {
		b := AppendRecord(nil, &r)
		if b[0] != recordProv {
			t.Fatalf("%+v: record type %d, want 3", r, b[0])
		}
		got, err := DecodeRecord(b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Source != r.Source || got.Override != r.Override || (got.Prov == nil) != (r.Prov == nil) || (r.Prov != nil && *got.Prov != *r.Prov) {
			t.Fatalf("round trip: got %+v prov %+v, want %+v prov %+v", got, got.Prov, r, r.Prov)
		}
	}
	for _, r := range []Record{
		{TT: 5, Seq: 1, Ops: ops},
		{TT: 5, Seq: 1, Ops: ops, Prov: &bt.Provenance{Authority: bt.AuthSystem, Derived: true}},
		{TT: 5, Seq: 1, Ops: ops, Prov: &bt.Provenance{Authority: bt.AuthSystem}}, // the default, spelled out
	} {
		if b := AppendRecord(nil, &r); b[0] != recordBatch {
			t.Fatalf("%+v: record type %d, want 1", r, b[0])
		}
	}
}
