package eventlog

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

func TestSealRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	if _, err := ReadSeal(path, false); !errors.Is(err, ErrNoSeal) {
		t.Fatalf("missing seal: %v", err)
	}
	s := Seal{StoreID: testID, Last: Frame{Start: 32, End: 99, Seq: 7, TT: -5, CRC: 0xabcdef01}, Chain: Chain{7}, Dir: DirID{3}, Version: 2}
	if err := WriteSeal(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSeal(path, false)
	if err != nil || got != s {
		t.Fatalf("got %+v %v", got, err)
	}
	// Both slots hold it: a flip in one slot leaves the other, and the
	// seal says so; flips in both slots are corruption.
	b, _ := os.ReadFile(path + SealSuffix)
	for i := range sealSlot {
		bad := append([]byte(nil), b...)
		bad[i] ^= 4
		os.WriteFile(path+SealSuffix, bad, 0o600)
		if got, err := ReadSeal(path, false); err != nil || !got.Damaged || got.Last != s.Last {
			t.Fatalf("flip at %d: %+v %v, want the other slot, marked damaged", i, got, err)
		}
		bad[i+sealSlot] ^= 4
		os.WriteFile(path+SealSuffix, bad, 0o600)
		var ce *CorruptionError
		if _, err := ReadSeal(path, false); !errors.As(err, &ce) {
			t.Fatalf("flips at %d in both slots: %v", i, err)
		}
	}
}

// A SealWriter alternates slots; the newer generation wins, and a torn
// advance (the slot being written damaged) leaves the previous one.
func TestSealAdvance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	s0 := Seal{StoreID: testID, Last: Frame{End: HeaderSize}}
	if err := WriteSeal(path, s0); err != nil {
		t.Fatal(err)
	}
	w, err := OpenSealWriter(path, s0, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := 1; i <= 5; i++ {
		s := Seal{StoreID: testID, Last: Frame{Start: int64(i) * 10, End: int64(i)*10 + 10, Seq: uint64(i), TT: int64(i)}}
		if err := w.Advance(s); err != nil {
			t.Fatal(err)
		}
		got, err := ReadSeal(path, false)
		if err != nil || got.Last != s.Last || got.Gen != uint64(i) || got.Damaged {
			t.Fatalf("after advance %d: %+v %v", i, got, err)
		}
	}
	// Tear generation 5 (slot 1): generation 4 remains, marked damaged.
	b, _ := os.ReadFile(path + SealSuffix)
	b[sealSlot+70] ^= 1
	os.WriteFile(path+SealSuffix, b, 0o600)
	got, err := ReadSeal(path, false)
	if err != nil || got.Gen != 4 || !got.Damaged {
		t.Fatalf("torn advance: %+v %v", got, err)
	}
}

// A version 1 seal (68 bytes, written by earlier builds) still reads.
func TestSealV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	b := make([]byte, sealSizeV1)
	copy(b, sealMagic)
	binary.LittleEndian.PutUint32(b[8:], 1)
	copy(b[12:28], testID[:])
	binary.LittleEndian.PutUint64(b[28:], 32)
	binary.LittleEndian.PutUint64(b[36:], 90)
	binary.LittleEndian.PutUint64(b[44:], 2)
	binary.LittleEndian.PutUint64(b[52:], 77)
	binary.LittleEndian.PutUint32(b[60:], 0x1234)
	binary.LittleEndian.PutUint32(b[64:], crc32.Checksum(b[:64], castagnoli))
	os.WriteFile(path+SealSuffix, b, 0o600)
	got, err := ReadSeal(path, false)
	want := Frame{Start: 32, End: 90, Seq: 2, TT: 77, CRC: 0x1234}
	if err != nil || got.Version != 1 || got.Last != want || got.StoreID != testID {
		t.Fatalf("v1 seal: %+v %v", got, err)
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
