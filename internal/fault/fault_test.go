package fault

import (
	"bytes"
	"errors"
	"syscall"
	"testing"
)

// The n-th write fails (after half its bytes when short) and so does every
// later one; disarmed, writes pass through.
func TestWriteFailure(t *testing.T) {
	for _, short := range []bool{false, true} {
		var buf bytes.Buffer
		w := Writer(&buf)
		SetWriteFailure(2, short)
		if n, err := w.Write([]byte("abcd")); n != 4 || err != nil {
			t.Fatalf("first write: %d %v", n, err)
		}
		n, err := w.Write([]byte("efgh"))
		want := 0
		if short {
			want = 2
		}
		if n != want || !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("second write (short %v): %d %v", short, n, err)
		}
		if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("third write: %v", err)
		}
		if WriteCalls() != 3 {
			t.Fatalf("calls %d", WriteCalls())
		}
		SetWriteFailure(0, false)
		if _, err := w.Write([]byte("ok")); err != nil {
			t.Fatalf("disarmed: %v", err)
		}
		if got := buf.String(); got != "abcd"+"ef"[:want]+"ok" {
			t.Fatalf("written %q", got)
		}
	}
}
