package engine

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// An erased store checkpoints as version 5 and reads back with the same
// digest and tombstones; the checkpoint holds none of the erased text; a
// store that never erased still writes version 4.
func TestEraseCheckpoint(t *testing.T) {
	s := New()
	k := bt.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "x"}
	applyBatches(t, s,
		[]bt.Op{bt.AssertNode("a", "SecretLabel", `{"name":"Secret Name"}`, bt.Always), bt.AssertNode("b", "P", `{"name":"Kept Name"}`, bt.Always)},
		[]bt.Op{bt.AssertEdge(k, `{"note":"Secret Note"}`, bt.Interval{Start: 1, End: 9})},
	)
	dir := t.TempDir()
	write := func(name string) []byte {
		p := filepath.Join(dir, name)
		info := CheckpointInfo{Last: eventlog.Frame{Seq: s.Batches(), TT: s.LastTT(), End: 100}}
		if _, err := s.WriteCheckpoint(p, info); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		return b
	}
	if v := binary.LittleEndian.Uint32(write("plain")[8:]); v != 4 {
		t.Fatalf("a store without erasures wrote checkpoint version %d", v)
	}
	op, err := bt.PlanErase(s, "a", true)
	if err != nil {
		t.Fatal(err)
	}
	applyBatches(t, s, []bt.Op{op})
	data := write("erased")
	if v := binary.LittleEndian.Uint32(data[8:]); v != 5 {
		t.Fatalf("an erased store wrote checkpoint version %d", v)
	}
	// The string tables of this store still hold the erased text (an erase
	// empties rows; it does not renumber tables), so the store that
	// checkpoints after an erase is one rebuilt from the scrubbed log, as
	// tgms.DB.Erase does: its checkpoint holds none of it.
	clean := New()
	var scrubbed [][]bt.Op
	for _, b := range [][]bt.Op{
		{bt.AssertNode("a", "SecretLabel", `{"name":"Secret Name"}`, bt.Always), bt.AssertNode("b", "P", `{"name":"Kept Name"}`, bt.Always)},
		{bt.AssertEdge(k, `{"note":"Secret Note"}`, bt.Interval{Start: 1, End: 9})},
	} {
		var out []bt.Op
		for _, o := range b {
			o, _ = bt.Scrub(o, "a", true)
			out = append(out, o)
		}
		scrubbed = append(scrubbed, out)
	}
	applyBatches(t, clean, append(scrubbed, []bt.Op{op})...)
	if clean.Digest() != s.Digest() {
		t.Fatalf("the store rebuilt from the scrubbed log has digest %s, the erased store %s", clean.Digest(), s.Digest())
	}
	p := filepath.Join(dir, "clean")
	if _, err := clean.WriteCheckpoint(p, CheckpointInfo{Last: eventlog.Frame{Seq: clean.Batches(), TT: clean.LastTT(), End: 100}}); err != nil {
		t.Fatal(err)
	}
	cdata, _ := os.ReadFile(p)
	for _, secret := range []string{"SecretLabel", "Secret Name", "Secret Note"} {
		if bytes.Contains(cdata, []byte(secret)) {
			t.Errorf("the rebuilt store's checkpoint holds %q", secret)
		}
	}
	if !bytes.Contains(cdata, []byte("Kept Name")) {
		t.Error("the rebuilt store's checkpoint lost what was not erased")
	}
	back, _, err := ReadCheckpoint(filepath.Join(dir, "erased"))
	if err != nil {
		t.Fatal(err)
	}
	if back.Digest() != s.Digest() {
		t.Fatalf("digest after reading the checkpoint %s, before %s", back.Digest(), s.Digest())
	}
	if n, e := back.NumErased(); n != 1 || e != 1 {
		t.Fatalf("read back %d erased node and %d edge versions", n, e)
	}
	for _, h := range back.AllNodeVersions("a") {
		if h.V.Erased == "" || h.V.Label != "" || h.V.Props != "" {
			t.Fatalf("version read back with content: %+v", h.V)
		}
	}
	// A section entry for a version with content is refused.
	s2 := New()
	applyBatches(t, s2, []bt.Op{bt.AssertNode("a", "L", `{"n":1}`, bt.Always)})
	s2.nodeErased = map[uint32]string{0: op.Erase.Tombs[0].Hash}
	if _, err := s2.WriteCheckpoint(filepath.Join(dir, "forged"), CheckpointInfo{Last: eventlog.Frame{Seq: 1, TT: s2.LastTT(), End: 100}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadCheckpoint(filepath.Join(dir, "forged")); err == nil {
		t.Fatal("a checkpoint marking a version with content as erased was read")
	}
}

// The erased section decodes without panics on any input, and what it
// accepts points only at emptied versions.
func FuzzCheckpointErased(f *testing.F) {
	s := New()
	applyBatches(f, s,
		[]bt.Op{bt.AssertNode("a", "L", `{"n":1}`, bt.Always), bt.AssertEdge(bt.EdgeKey{Src: "a", Dst: "b", RelType: "R"}, `{"w":1}`, bt.Always)},
	)
	op, err := bt.PlanErase(s, "a", true)
	if err != nil {
		f.Fatal(err)
	}
	applyBatches(f, s, []bt.Op{op})
	f.Add(encodeBody(s))
	f.Add(encodeBody(s)[:len(encodeBody(s))-5])
	f.Fuzz(func(t *testing.T, body []byte) {
		r := &ckptReader{b: body}
		st, _ := decodeStore(r, true)
		if r.err != nil {
			return
		}
		st.decodeErased(r)
		if r.err != nil {
			return
		}
		for k := range st.nodeErased {
			if st.nodes[k].props != 0 || st.labels.s[st.nodes[k].label] != "" {
				t.Fatalf("node row %d accepted as erased with content", k)
			}
		}
		for k := range st.edgeErased {
			if st.propsOf(k) != 0 {
				t.Fatalf("edge version %d accepted as erased with content", k)
			}
		}
	})
}
