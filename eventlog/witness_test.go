package eventlog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A group commit whose later record reached the disk while an earlier one
// did not (zeros where it was) is a torn tail when the ack witness says
// the group was never acknowledged, and corruption without a witness or
// when the damage is at or before the acknowledged end.
func TestUnackedGroupTornOutOfOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	acked, _ := l.Append(smallRecord(1))
	if _, err := l.Append(smallRecord(2), smallRecord(3)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(path)
	// Zero record 2 (from acked to where record 3 starts).
	r3 := acked + int64(len(data)-int(acked))/2
	clear(data[acked:r3])
	for _, tc := range []struct {
		name     string
		opt      Options
		wantTorn bool
		wantEnd  int64
	}{
		{"witnessed", Options{Acked: acked, Witnessed: true}, true, acked},
		{"no witness", Options{Acked: acked}, false, 0},
		{"witness covers it", Options{Acked: int64(len(data)), Witnessed: true}, false, 0},
	} {
		p := filepath.Join(t.TempDir(), "l.wal")
		os.WriteFile(p, data, 0o600)
		tc.opt.Logf = func(string, ...any) {}
		l, err := Open(p, tc.opt)
		var ce *CorruptionError
		switch {
		case tc.wantTorn && (err != nil || l.End() != tc.wantEnd || l.LastSeq() != 1):
			t.Fatalf("%s: %v", tc.name, err)
		case !tc.wantTorn && !errors.As(err, &ce):
			t.Fatalf("%s: %v, want corruption", tc.name, err)
		}
		if l != nil {
			l.Close()
		}
	}
}
