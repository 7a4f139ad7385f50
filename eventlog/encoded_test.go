package eventlog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// TestAppendEncodedSameBytes: records encoded ahead on several goroutines
// and appended with AppendEncoded leave the same records on disk as
// Append, and reopen to the same log.
func TestAppendEncodedSameBytes(t *testing.T) {
	dir := t.TempDir()
	groups := [][]*Record{
		{smallRecord(1)},
		{ingestRecord(2, 3000), smallRecord(3), ingestRecord(4, 70)},
		{ingestRecord(5, 20_000)},
	}
	for _, g := range groups {
		for _, r := range g {
			r.TT = int64(r.Seq) * 10
		}
	}
	paths := []string{filepath.Join(dir, "plain.wal"), filepath.Join(dir, "encoded.wal")}
	for k, path := range paths {
		l, err := Open(path, Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range groups {
			if k == 0 {
				_, err = l.Append(g...)
			} else {
				es := make([]*Encoded, len(g))
				var wg sync.WaitGroup
				for i, r := range g {
					wg.Go(func() { es[i] = Encode(r) })
				}
				wg.Wait()
				_, err = l.AppendEncoded(es...)
				for _, e := range es {
					e.Release()
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	plain, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	enc, err := os.ReadFile(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(enc) || !bytes.Equal(plain[HeaderSize:], enc[HeaderSize:]) {
		t.Fatalf("the logs differ after the header: %d and %d bytes", len(plain), len(enc))
	}
	var seqs []uint64
	if err := ReadFile(paths[1], func(r *Record, _ int64) error {
		seqs = append(seqs, r.Seq)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 5 || seqs[4] != 5 {
		t.Fatalf("the encoded log reads back records %v, want 1..5", seqs)
	}
}

// TestAppendEncodedChecks: AppendEncoded refuses what Append refuses,
// writing nothing.
func TestAppendEncodedChecks(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "events.wal"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	tests := []struct {
		name string
		recs []*Record
		want string
	}{
		{"first seq not 1", []*Record{{TT: 1, Seq: 2}}, "sequence number 2, want 1"},
		{"gap in group", []*Record{{TT: 1, Seq: 1}, {TT: 2, Seq: 3}}, "record 1 has sequence number 3, want 2"},
		{"tt not increasing", []*Record{{TT: 5, Seq: 1}, {TT: 5, Seq: 2}}, "transaction time 5, not after 5"},
		{"unknown op", []*Record{{TT: 1, Seq: 1, Ops: []bt.Op{{Kind: 9}}}}, "unknown kind 9"},
	}
	for _, tc := range tests {
		es := make([]*Encoded, len(tc.recs))
		for i, r := range tc.recs {
			es[i] = Encode(r)
		}
		if _, err := l.AppendEncoded(es...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	if l.End() != HeaderSize {
		t.Fatalf("refused appends moved the end to %d", l.End())
	}
}
