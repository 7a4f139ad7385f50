package engine

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
	"pgregory.net/rapid"
)

// A checkpoint round trip preserves the digest and every read.
func TestCheckpointRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(rt *rapid.T) {
		b := newBoth()
		usedKeys = nil
		for range rapid.IntRange(0, 10).Draw(rt, "batches") {
			ops := make([]bt.Op, rapid.IntRange(1, 3).Draw(rt, "ops"))
			for i := range ops {
				ops[i] = genOp(rt, b.eng.Batches())
			}
			_ = b.write(rt, ops)
		}
		path := filepath.Join(dir, "ckpt")
		info := infoFor(b.eng, 1234)
		if _, err := b.eng.WriteCheckpoint(path, info); err != nil {
			rt.Fatalf("write: %v", err)
		}
		got, gotInfo, err := ReadCheckpoint(path)
		if err != nil {
			rt.Fatalf("read: %v", err)
		}
		want := info
		want.HasProvenance = true // every checkpoint this build writes holds it
		if gotInfo != want {
			rt.Fatalf("info = %+v, want %+v", gotInfo, want)
		}
		if got.Digest() != b.eng.Digest() {
			rt.Fatalf("digest changed through a checkpoint")
		}
		asOf := rapid.Int64Range(0, b.tt+1).Draw(rt, "asOf")
		iv := genInterval(rt, "iv")
		r1, r2 := b.eng.Reader(asOf), got.Reader(asOf)
		if !slices.Equal(r1.EdgesOverlapping(iv), r2.EdgesOverlapping(iv)) || !slices.Equal(r1.EdgesStartingIn(iv), r2.EdgesStartingIn(iv)) {
			rt.Fatalf("reads differ after a checkpoint round trip")
		}
		// The loaded store keeps working as a write target.
		ops := []bt.Op{genOp(rt, b.eng.Batches())}
		b.tt += 10
		e1, err1 := bt.Plan(b.eng, b.tt, b.eng.Batches()+1, ops)
		e2, err2 := bt.Plan(got, b.tt, got.Batches()+1, ops)
		if (err1 == nil) != (err2 == nil) {
			rt.Fatalf("plan differs after reload: %v vs %v", err1, err2)
		}
		if err1 == nil {
			b.eng.Apply(e1)
			got.Apply(e2)
			if got.Digest() != b.eng.Digest() {
				rt.Fatalf("digest differs after writing to a reloaded store")
			}
		}
	})
}

func TestCheckpointDamage(t *testing.T) {
	dir := t.TempDir()
	b := newBoth()
	b.write(t, []bt.Op{bt.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "M", VtS: 5}, {Src: "b", Dst: "c", RelType: "M", VtS: 7, VtE: 90}}, "")})
	path := filepath.Join(dir, "ckpt")
	if _, err := b.eng.WriteCheckpoint(path, infoFor(b.eng, 100)); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	v1 := bytes.Clone(good)
	v1[8] = 1
	cases := map[string][]byte{
		"truncated":    good[:len(good)-5],
		"flipped byte": append(append([]byte{}, good[:20]...), append([]byte{good[20] ^ 0x40}, good[21:]...)...),
		"wrong magic":  append([]byte("NOTACKPT"), good[8:]...),
		"empty":        {},
		"version 1":    v1,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(path, data, 0o644)
			_, _, err := ReadCheckpoint(path)
			var ce *CheckpointError
			if !errors.As(err, &ce) || ce.Path != path {
				t.Fatalf("err = %v, want *CheckpointError naming the file", err)
			}
		})
	}
	if _, _, err := ReadCheckpoint(filepath.Join(dir, "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing checkpoint: err = %v", err)
	}
}

// FuzzCheckpointDecode: the decoder never panics on a body that passes the
// checksum (the fuzzer writes the checksum for it), and a body it accepts
// is a usable store: its digest and statistics compute, and it re-encodes
// to a body that decodes to the same digest.
func FuzzCheckpointDecode(f *testing.F) {
	b := newBoth()
	b.write(f, []bt.Op{bt.AssertNode("x", "L", `{"a":1}`, bt.Interval{Start: 0, End: 9}), bt.Ingest([]bt.Event{{Src: "x", Dst: "y", RelType: "M", VtS: 5}}, "")})
	b.write(f, []bt.Op{bt.Correct(bt.NodeRef("x"), "", bt.Interval{Start: 2, End: 4})})
	f.Add(encodeBody(b.eng))
	f.Add([]byte{})
	f.Add([]byte{0, 1, 1, 'a'})
	f.Fuzz(func(t *testing.T, body []byte) {
		r := &ckptReader{b: body}
		s, info := decodeStore(r, true)
		if r.err != nil || r.off != len(body) {
			return
		}
		d := s.Digest()
		_ = s.Stats()
		r2 := &ckptReader{b: encodeBodyAt(s, info)}
		s2, info2 := decodeStore(r2, true)
		if r2.err != nil {
			t.Fatalf("an accepted checkpoint re-encodes to one that does not decode: %v", r2.err)
		}
		if s2.Digest() != d || info2 != info {
			t.Fatal("an accepted checkpoint changes on re-encoding")
		}
	})
}

// encodeBody returns the checkpoint body (no header or trailer).
func encodeBody(s *Store) []byte { return encodeBodyAt(s, CheckpointInfo{}) }

func encodeBodyAt(s *Store, info CheckpointInfo) []byte {
	var buf bytes.Buffer
	c := &ckptWriter{w: bufio.NewWriter(&buf)}
	s.encode(c, info)
	c.w.Flush()
	return buf.Bytes()
}

// infoFor is a CheckpointInfo that matches s, as if its log ended at end.
func infoFor(s *Store, end int64) CheckpointInfo {
	return CheckpointInfo{
		StoreID:  eventlog.StoreID{9, 8, 7, 6, 5, 4, 3, 2, 1},
		Last:     eventlog.Frame{Start: end - 20, End: end, Seq: uint64(s.Batches()), TT: s.LastTT(), CRC: 0xfeedf00d},
		Chain:    eventlog.Chain{1, 2, 3},
		HasChain: true,
	}
}

// A checkpoint that claims to cover other batches than it holds is refused,
// both when written and when read.
func TestCheckpointInfoMismatch(t *testing.T) {
	dir := t.TempDir()
	b := newBoth()
	b.write(t, []bt.Op{bt.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "M", VtS: 5}}, "")})
	path := filepath.Join(dir, "ckpt")
	info := infoFor(b.eng, 100)
	info.Last.Seq++
	if _, err := b.eng.WriteCheckpoint(path, info); err == nil {
		t.Fatal("WriteCheckpoint accepted info for another batch count")
	}
	info.Last.Seq--
	info.Last.TT++
	var buf bytes.Buffer
	c := &ckptWriter{w: bufio.NewWriter(&buf)}
	b.eng.encode(c, info)
	c.w.Flush()
	data := append([]byte("TGMSCKP\x00\x04\x00\x00\x00\x00\x00\x00\x00"), buf.Bytes()...)
	data = binary.LittleEndian.AppendUint64(data, uint64(buf.Len()))
	data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(buf.Bytes(), castagnoli))
	os.WriteFile(path, data, 0o644)
	_, _, err := ReadCheckpoint(path)
	var ce *CheckpointError
	if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "says it covers batch 1") {
		t.Fatalf("ReadCheckpoint: %v", err)
	}
}
