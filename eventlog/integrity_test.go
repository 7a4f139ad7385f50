package eventlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bit flip anywhere in the last (complete) record is corruption, never a
// torn write: Open refuses, names the offset, and changes nothing.
func TestFlipInLastRecordIsCorruption(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.wal")
	ends := writeLog(t, orig, 3)
	data, _ := os.ReadFile(orig)
	for pos := ends[1]; pos < ends[2]; pos++ {
		for _, mask := range []byte{0x01, 0x80} {
			path := filepath.Join(dir, "flip.wal")
			bad := bytes.Clone(data)
			bad[pos] ^= mask
			os.WriteFile(path, bad, 0o600)
			_, _, rerr := readAll(t, path)
			l, err := Open(path, Options{Logf: t.Logf})
			if err == nil {
				l.Close()
			}
			var ce *CorruptionError
			var torn *TornTailError
			got, _ := os.ReadFile(path)
			switch {
			case errors.As(err, &ce):
				if ce.Offset != ends[1] {
					t.Fatalf("flip at %d: corruption at %d, want %d", pos, ce.Offset, ends[1])
				}
				if !errors.As(rerr, &ce) {
					t.Fatalf("flip at %d: ReadFile says %v", pos, rerr)
				}
			case err == nil && pos < ends[1]+4:
				// A flipped length can make the record run past the end of
				// the file: that is indistinguishable from a torn write. The
				// bytes must then be kept aside.
				if !errors.As(rerr, &torn) {
					t.Fatalf("flip at %d: opened, but ReadFile says %v", pos, rerr)
				}
				if _, serr := os.Stat(fmt.Sprintf("%s.broken-%d", path, ends[1])); serr != nil {
					t.Fatalf("flip at %d: torn tail dropped without a copy: %v", pos, serr)
				}
				removeBroken(t, dir)
				continue
			default:
				t.Fatalf("flip at %d (mask %02x): Open: %v, want a CorruptionError", pos, mask, err)
			}
			if !bytes.Equal(got, bad) {
				t.Fatalf("flip at %d: Open changed a corrupt file", pos)
			}
		}
	}
}

func removeBroken(t *testing.T, dir string) {
	m, _ := filepath.Glob(filepath.Join(dir, "*.broken-*"))
	for _, p := range m {
		os.Remove(p)
	}
}

// A torn tail is copied aside before it is dropped.
func TestTornTailIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "l.wal")
	ends := writeLog(t, path, 2)
	data, _ := os.ReadFile(path)
	cut := data[:ends[1]-3]
	os.WriteFile(path, cut, 0o600)
	var w warnings
	l, err := Open(path, Options{Logf: w.logf})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	kept := fmt.Sprintf("%s.broken-%d", path, ends[0])
	got, err := os.ReadFile(kept)
	if err != nil || !bytes.Equal(got, cut[ends[0]:]) {
		t.Fatalf("kept bytes %x (%v), want %x", got, err, cut[ends[0]:])
	}
	if msgs := w.all(); len(msgs) != 1 || !strings.Contains(msgs[0], kept) {
		t.Fatalf("warnings %q do not name %s", msgs, kept)
	}
	// A second torn tail at the same offset does not overwrite the first copy.
	os.WriteFile(path, cut, 0o600)
	if l, err = Open(path, Options{Logf: w.logf}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := os.Stat(kept + ".1"); err != nil {
		t.Fatalf("second copy: %v", err)
	}
}

// Open never trims below Options.Acked, and a log that ends before it is
// refused: a truncation at a record boundary is caught.
func TestAckedFloor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "l.wal")
	ends := writeLog(t, path, 3)
	data, _ := os.ReadFile(path)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"boundary", data[:ends[1]], "was truncated"},
		{"torn below", data[:ends[2]-2], "acknowledged"},
	}
	for _, tc := range tests {
		os.WriteFile(path, tc.data, 0o600)
		for _, ro := range []bool{false, true} {
			_, err := Open(path, Options{Acked: ends[2], ReadOnly: ro, Logf: t.Logf})
			var ce *CorruptionError
			if !errors.As(err, &ce) || !strings.Contains(ce.Reason, tc.want) {
				t.Errorf("%s (read-only %v): %v, want corruption mentioning %q", tc.name, ro, err, tc.want)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, tc.data) {
				t.Errorf("%s: file changed", tc.name)
			}
		}
	}
	// At the floor itself the log opens.
	os.WriteFile(path, data, 0o600)
	l, err := Open(path, Options{Acked: ends[2]})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
}

// A read-only open never creates, locks or changes the file, and reads up
// to the last complete record before a torn tail.
func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "absent.wal"), Options{ReadOnly: true}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read-only open of a missing log: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "absent.wal")); err == nil {
		t.Fatal("read-only open created the log")
	}
	path := filepath.Join(dir, "l.wal")
	ends := writeLog(t, path, 3)
	w, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	data, _ := os.ReadFile(path)
	torn := append(bytes.Clone(data), 9, 0, 0, 0, 1, 2)
	os.WriteFile(path, torn, 0o600)
	var msgs warnings
	r, err := Open(path, Options{ReadOnly: true, Logf: msgs.logf})
	if err != nil {
		t.Fatalf("read-only open beside a writer: %v", err)
	}
	defer r.Close()
	if r.End() != ends[2] || r.LastSeq() != 3 || len(msgs.all()) != 1 {
		t.Fatalf("end %d seq %d warnings %q", r.End(), r.LastSeq(), msgs.all())
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, torn) {
		t.Fatal("read-only open changed the file")
	}
	if _, err := r.Append(smallRecord(4)); err == nil {
		t.Fatal("append to a read-only log succeeded")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.broken-*")); len(m) != 0 {
		t.Fatalf("read-only open wrote %v", m)
	}
}

// Each log gets its own store id, kept across reopening; FrameAt and Last
// describe the records a checkpoint refers to.
func TestStoreIDAndFrames(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.wal"), filepath.Join(dir, "b.wal")
	ends := writeLog(t, a, 2)
	writeLog(t, b, 2)
	la, err := Open(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer la.Close()
	lb, err := Open(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	if la.ID().IsZero() || la.ID() == lb.ID() {
		t.Fatalf("ids %s and %s", la.ID(), lb.ID())
	}
	last := la.Last()
	if last.Start != ends[0] || last.End != ends[1] || last.Seq != 2 || last.TT != 20 {
		t.Fatalf("last %+v", last)
	}
	f, err := la.FrameAt(ends[0])
	if err != nil || f != last {
		t.Fatalf("FrameAt %+v %v, want %+v", f, err, last)
	}
	if _, err := la.FrameAt(ends[0] + 1); err == nil {
		t.Fatal("FrameAt inside a record succeeded")
	}
	end, err := la.Append(smallRecord(3))
	if err != nil {
		t.Fatal(err)
	}
	if l := la.Last(); l.Start != ends[1] || l.End != end || l.Seq != 3 {
		t.Fatalf("last after append %+v", l)
	}
}

// Sources survive a round trip through the log and are listed on open.
func TestSources(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r1 := smallRecord(1)
	r2 := smallRecord(2)
	r2.Source = "sha256:ab dataset collegemsg"
	if _, err := l.Append(r1, r2); err != nil {
		t.Fatal(err)
	}
	if s := l.Sources(); len(s) != 1 || s[0] != (Source{Seq: 2, TT: 20, Text: r2.Source}) {
		t.Fatalf("sources after append %+v", s)
	}
	l.Close()
	if l, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if s := l.Sources(); len(s) != 1 || s[0].Text != r2.Source {
		t.Fatalf("sources after reopen %+v", s)
	}
	recs, _, err := replayAll(t, l, l.Start())
	if err != nil || len(recs) != 2 || recs[1].Source != r2.Source || !equalRecords(recs[1], r2) {
		t.Fatalf("replayed %v %v", recs, err)
	}
}

// A version 1 log is refused by Open with the conversion command, and read
// by ReadFile.
func TestVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.wal")
	var h [headerSizeV1]byte
	copy(h[:], Magic)
	binary.LittleEndian.PutUint32(h[8:], 1)
	binary.LittleEndian.PutUint32(h[12:], crcOf(h[:12]))
	b := appendFrameV(h[:], smallRecord(1), FrameHeaderSizeV3)
	os.WriteFile(path, b, 0o600)
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "tgms replay --log "+path) {
		t.Fatalf("Open of a v1 log: %v", err)
	}
	seqs, _, err := readAll(t, path)
	if err != nil || fmt.Sprint(seqs) != "[1]" {
		t.Fatalf("ReadFile of a v1 log: %v %v", seqs, err)
	}
}

// A planted symbolic link is neither followed when creating nor opened.
func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious"), 0o600)
	path := filepath.Join(dir, "l.wal")
	os.Symlink(victim, path+".tmp")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if got, _ := os.ReadFile(victim); string(got) != "precious" {
		t.Fatalf("creating the log overwrote a planted link's target: %q", got)
	}
	link := filepath.Join(dir, "link.wal")
	os.Symlink(path, link)
	if _, err := Open(link, Options{}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Open of a link: %v", err)
	}
	l, err = Open(link, Options{AllowSymlink: true})
	if err != nil {
		t.Fatalf("Open of a link, allowed: %v", err)
	}
	l.Close()
}
