package eventlog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestSealRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	if _, err := ReadSeal(path, false); !errors.Is(err, ErrNoSeal) {
		t.Fatalf("missing seal: %v", err)
	}
	s := Seal{StoreID: testID, Last: Frame{Start: 32, End: 99, Seq: 7, TT: -5, CRC: 0xabcdef01}}
	if err := WriteSeal(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSeal(path, false)
	if err != nil || got != s {
		t.Fatalf("got %+v %v", got, err)
	}
	b, _ := os.ReadFile(path + SealSuffix)
	for i := range b {
		bad := append([]byte(nil), b...)
		bad[i] ^= 4
		os.WriteFile(path+SealSuffix, bad, 0o600)
		var ce *CorruptionError
		if _, err := ReadSeal(path, false); !errors.As(err, &ce) {
			t.Fatalf("flip at %d: %v", i, err)
		}
	}
}

// FuzzReadSeal: any content is either a seal or a *CorruptionError.
func FuzzReadSeal(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "l.wal")
	WriteSeal(path, Seal{StoreID: testID, Last: Frame{Start: 32, End: 99, Seq: 7}})
	good, _ := os.ReadFile(path + SealSuffix)
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte("TGMSSEAL"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "l.wal")
		os.WriteFile(p+SealSuffix, b, 0o600)
		_, err := ReadSeal(p, false)
		var ce *CorruptionError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("ReadSeal: %v", err)
		}
	})
}
