package tgms

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// Every single bit flip in the frame header of the last batch, which a
// writer acknowledged after its last checkpoint and then was killed, is
// damage (ErrStoreDamaged, exit 5) for reads, writes and check: never a
// torn write silently dropped.
func TestFrameHeaderFlipsAfterAckAreDamage(t *testing.T) {
	dir := t.TempDir()
	smallStore(t, dir)
	db := open(t, dir, nil)
	for i := range 2 {
		if _, err := db.Write(bt.AssertNode("late"+itoa(i), "P", "", bt.Always)); err != nil {
			t.Fatal(err)
		}
	}
	rec := db.log.Last().Start
	db.sealW.Sync()
	db.log.Sync()
	db.closeFiles() // a kill after the ack: nothing more is written
	logPath := filepath.Join(dir, LogFile)
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, v, _ := eventlog.ReadHeader(logPath, false); v != eventlog.Version {
		t.Fatalf("log format %d, want %d", v, eventlog.Version)
	}
	for bit := 0; bit < 8*eventlog.FrameHeaderSize; bit++ {
		d := append([]byte(nil), data...)
		d[rec+int64(bit/8)] ^= 1 << (bit % 8)
		os.WriteFile(logPath, d, 0o600)
		for _, ro := range []bool{true, false} {
			if !ro && bit%4 != 0 {
				continue // a writable open refuses the same way (sampled)
			}
			if err := openErr(t, dir, ro); !errors.Is(err, ErrStoreDamaged) {
				t.Fatalf("bit %d of the last record's header, read-only %v: %v, want a damaged store", bit, ro, err)
			}
		}
		if got, _ := os.ReadFile(logPath); string(got) != string(d) {
			t.Fatalf("bit %d: the log was changed", bit)
		}
		if bit%8 == 0 {
			if res, err := Check(dir, false, nil); err != nil || res.Clean() {
				t.Fatalf("bit %d: check: %v %+v", bit, err, res)
			}
		}
	}
}
