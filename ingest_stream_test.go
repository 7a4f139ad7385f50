package tgms

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// streamEvents is n events over 40 nodes, in time order unless shuffled;
// every fifth one is an interval fact and every third has props.
func streamEvents(n int, shuffled bool) []bt.Event {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	evs := make([]bt.Event, n)
	for i := range evs {
		e := &evs[i]
		e.Src, e.Dst = fmt.Sprintf("n%d", r.IntN(40)), fmt.Sprintf("n%d", r.IntN(40))
		e.RelType = []string{"PAID", "SENT"}[i%2]
		e.VtS = bt.Time(1_000_000 + i*10)
		if i%5 == 0 {
			e.VtE = e.VtS + 500
		}
		if i%3 == 0 {
			e.Props = bt.Props(fmt.Sprintf(`{"k":%d}`, i%7))
		}
	}
	if shuffled {
		r.Shuffle(len(evs), func(i, j int) { evs[i], evs[j] = evs[j], evs[i] })
	}
	return evs
}

// passOf is an EventPass over evs in slices of step events, with the
// SHA-256 of their text; passes counts its calls.
func passOf(evs []bt.Event, step int, passes *int) EventPass {
	return func(fn func([]bt.Event) error) (string, error) {
		*passes++
		h := sha256.New()
		buf := make([]bt.Event, 0, step)
		for i := range evs {
			fmt.Fprintf(h, "%v\n", evs[i])
			buf = append(buf, evs[i])
			if len(buf) == step || i == len(evs)-1 {
				if err := fn(buf); err != nil {
					return "", err
				}
				for j := range buf {
					buf[j] = bt.Event{Src: "reused"} // a pass may reuse its slice
				}
				buf = buf[:0]
			}
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	}
}

func shaOf(t *testing.T, evs []bt.Event) string {
	var passes int
	sha, err := passOf(evs, 1, &passes)(func([]bt.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	return sha
}

// IngestStream gives the batches, source texts and digest of IngestFrom
// of the whole content at once, whether it writes what the first pass
// kept or reads the content again, for content in time order and not
// (sorted through temporary runs, which are removed).
func TestIngestStreamMatchesIngestFrom(t *testing.T) {
	for _, c := range []struct {
		name       string
		n, step    int
		shuffled   bool
		hold       int
		wantPasses int
	}{
		{"kept", 2*ChunkEvents + 123, 999, false, 0, 1},
		{"two passes", 2*ChunkEvents + 123, 999, false, -1, 2},
		{"two passes, slices larger than a batch", 3 * ChunkEvents, ChunkEvents + 1, false, 10, 2},
		{"one batch unsorted", ChunkEvents - 5, 1000, true, -1, 2},
		{"unsorted kept", ChunkEvents + 7000, 4096, true, 0, 1},
		{"unsorted sorted in two runs", ChunkEvents + 7000, 4096, true, -1, 2},
		{"unsorted sorted in four runs", 3*ChunkEvents + 11, 5000, true, -1, 2},
		{"empty", 0, 1, false, -1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp) // where the sorted runs go
			evs := streamEvents(c.n, c.shuffled)
			src := Source{Name: "file e.csv", SHA256: shaOf(t, evs)}
			a := open(t, t.TempDir(), nil)
			defer a.Close()
			want, err := a.IngestFrom(src, false, evs, "Acct", nil)
			if err != nil {
				t.Fatal(err)
			}
			b := open(t, t.TempDir(), nil)
			defer b.Close()
			var passes, acked int
			got, err := b.IngestStream(context.Background(), src.Name, passOf(evs, c.step, &passes), StreamOptions{NodeLabel: "Acct", Hold: c.hold, Ack: func(done int, _ bt.Time) { acked = done }})
			if err != nil {
				t.Fatal(err)
			}
			if got != want || acked != c.n {
				t.Fatalf("result %+v (acked %d), want %+v", got, acked, want)
			}
			if passes != c.wantPasses {
				t.Errorf("%d passes, want %d", passes, c.wantPasses)
			}
			if da, db := a.Digest(), b.Digest(); da != db {
				t.Fatalf("digest %s, IngestFrom gives %s", db, da)
			}
			if sa, sb := fmt.Sprint(a.Sources()), fmt.Sprint(b.Sources()); sa != sb {
				t.Fatalf("sources %s, want %s", sb, sa)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Fatalf("temporary files left: %v", left)
			}
		})
	}
}

// A bad event near the end of the content, or a pass that fails there,
// writes nothing; and content the store holds is refused as a repeat.
func TestIngestStreamChecksBeforeWriting(t *testing.T) {
	db := open(t, t.TempDir(), nil)
	defer db.Close()
	evs := streamEvents(3*ChunkEvents, false)
	bad := append([]bt.Event(nil), evs...)
	bad[len(bad)-3].VtE = bad[len(bad)-3].VtS // an empty interval
	var passes int
	_, err := db.IngestStream(context.Background(), "bad", passOf(bad, 1000, &passes), StreamOptions{Hold: -1})
	var oe *bt.OpError
	if !errors.As(err, &oe) || oe.Event != len(bad)-3 || passes != 1 {
		t.Fatalf("bad event: %v (%d passes), want an OpError at event %d after one pass", err, passes, len(bad)-3)
	}
	failing := func(fn func([]bt.Event) error) (string, error) {
		if err := fn(evs[:ChunkEvents]); err != nil {
			return "", err
		}
		return "", errors.New("line 70001: no such cell")
	}
	if _, err := db.IngestStream(context.Background(), "failing", failing, StreamOptions{Hold: -1}); err == nil || !strings.Contains(err.Error(), "line 70001") {
		t.Fatalf("failing pass: %v", err)
	}
	if st := db.Stats(); st.EdgeVersions != 0 || st.LastTT != 0 {
		t.Fatalf("refused ingests wrote %+v", st)
	}
	if _, err := db.IngestStream(context.Background(), "good", passOf(evs, 1000, &passes), StreamOptions{Hold: -1}); err != nil {
		t.Fatal(err)
	}
	before := db.Digest()
	_, err = db.IngestStream(context.Background(), "good again", passOf(evs, 1000, &passes), StreamOptions{Hold: -1})
	if !errors.Is(err, ErrRepeatIngest) {
		t.Fatalf("repeat: %v", err)
	}
	if _, err := db.IngestFrom(Source{Name: "same", SHA256: shaOf(t, evs)}, false, evs, "", nil); !errors.Is(err, ErrRepeatIngest) {
		t.Fatalf("IngestFrom of streamed content: %v, want a repeat", err)
	}
	if db.Digest() != before {
		t.Fatal("a refused repeat changed the store")
	}
}

// Content that changes between the passes stops the write where the
// change is seen, and the error counts the batches written.
func TestIngestStreamContentChanged(t *testing.T) {
	evs := streamEvents(3*ChunkEvents, false)
	later := append([]bt.Event(nil), evs...)
	later[2*ChunkEvents+5].VtS = 0 // out of time order
	more := append(append([]bt.Event(nil), evs...), evs[len(evs)-1])
	for _, c := range []struct {
		name, want string
		second     []bt.Event
	}{
		{"out of order", "no longer in time order", later},
		{"more events", "more than the 150000 events", more},
		{"other bytes", "SHA-256", evs[:len(evs)-1]},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := Open(t.TempDir(), &Options{Clock: testClock(), NoSync: true, GroupEvents: ChunkEvents})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var passes int
			first, second := passOf(evs, 500, &passes), passOf(c.second, 500, &passes)
			pass := func(fn func([]bt.Event) error) (string, error) {
				if passes == 0 {
					return first(fn)
				}
				return second(fn)
			}
			res, err := db.IngestStream(context.Background(), "e.csv", pass, StreamOptions{Hold: -1})
			if err == nil || !strings.Contains(err.Error(), "changed between the check and the write") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want a change (%s)", err, c.want)
			}
			if got := db.Stats().EdgeVersions; got != res.Events || !strings.Contains(err.Error(), fmt.Sprintf("%d events in %d batches were written", res.Events, res.Batches)) {
				t.Fatalf("store has %d edge versions, result %+v: %v", got, res, err)
			}
		})
	}
}

// A cancelled context stops the check before anything is written.
func TestIngestStreamCancelled(t *testing.T) {
	db := open(t, t.TempDir(), nil)
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var passes int
	_, err := db.IngestStream(ctx, "e", passOf(streamEvents(100, false), 10, &passes), StreamOptions{})
	if !errors.Is(err, context.Canceled) || db.Stats().LastTT != 0 {
		t.Fatalf("cancelled: %v, last tt %d", err, db.Stats().LastTT)
	}
}

// An invalid event is reported before a failure of the pass further on,
// though it is validated while the pass goes on reading: the error is
// the one a check in input order stops at.
func TestIngestStreamInvalidBeforeFailure(t *testing.T) {
	db := open(t, t.TempDir(), nil)
	defer db.Close()
	evs := streamEvents(ChunkEvents, false)
	evs[ChunkEvents-2].Src = ""
	failing := func(fn func([]bt.Event) error) (string, error) {
		if err := fn(evs[:ChunkEvents]); err != nil {
			return "", err
		}
		return "", errors.New("line 50002: no such cell") // while the batch is validated

	}
	_, err := db.IngestStream(context.Background(), "e", failing, StreamOptions{})
	var oe *bt.OpError
	if !errors.As(err, &oe) || oe.Event != ChunkEvents-2 || oe.Field != "src" {
		t.Fatalf("err %v, want the empty src of event %d", err, ChunkEvents-2)
	}
	if db.Stats().LastTT != 0 {
		t.Fatal("a refused ingest wrote")
	}
}

// A second pass that fails midway writes only whole groups read before
// the failure, and the error says so and counts them.
func TestIngestStreamSecondReadFails(t *testing.T) {
	db, err := Open(t.TempDir(), &Options{Clock: testClock(), NoSync: true, GroupEvents: ChunkEvents})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs := streamEvents(3*ChunkEvents, false)
	var passes int
	first := passOf(evs, 700, &passes)
	pass := func(fn func([]bt.Event) error) (string, error) {
		if passes == 0 {
			return first(fn)
		}
		passes++
		if err := fn(evs[:ChunkEvents+10]); err != nil {
			return "", err
		}
		return "", errors.New("disk read error")
	}
	res, err := db.IngestStream(context.Background(), "e.csv", pass, StreamOptions{Hold: -1})
	if err == nil || !strings.Contains(err.Error(), "reading it again: disk read error") {
		t.Fatalf("err %v, want the failed second read", err)
	}
	if res.Events != ChunkEvents || db.Stats().EdgeVersions != ChunkEvents || !strings.Contains(err.Error(), "50000 events in 1 batches were written") {
		t.Fatalf("result %+v, store %d edge versions: %v", res, db.Stats().EdgeVersions, err)
	}
}

// A one-pass ingest into a new store reads the content once and gives the
// batches, source texts and digest of IngestFrom; content that is not as
// its OnePass says, or out of time order across batches, is refused with
// ErrNotOnePass; a bad event is reported as the check would.
func TestIngestOnePass(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		shuffled bool
		count    int // the OnePass count, as a difference from n
		bad      int // index of an invalid event, or -1
		want     error
	}{
		{"sorted", 3*ChunkEvents + 17, false, 0, -1, nil},
		{"one batch unsorted", ChunkEvents - 3, true, 0, -1, nil},
		{"empty", 0, false, 0, -1, nil},
		{"unsorted", 2*ChunkEvents + 1, true, 0, -1, ErrNotOnePass},
		{"fewer than said", 2 * ChunkEvents, false, +1, -1, ErrNotOnePass},
		{"more than said", 2 * ChunkEvents, false, -1, -1, ErrNotOnePass},
		{"bad event", 2 * ChunkEvents, false, 0, ChunkEvents + 9, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := streamEvents(c.n, c.shuffled)
			if c.bad >= 0 {
				evs[c.bad].RelType = ""
			}
			src := Source{Name: "file e.csv", SHA256: shaOf(t, evs)}
			b := open(t, t.TempDir(), nil)
			defer b.Close()
			var passes int
			got, err := b.IngestStream(context.Background(), src.Name, passOf(evs, 777, &passes), StreamOptions{NodeLabel: "Acct", OnePass: &OnePass{SHA256: src.SHA256, Events: c.n + c.count}})
			if passes != 1 {
				t.Errorf("%d passes, want 1", passes)
			}
			if c.bad >= 0 {
				var oe *bt.OpError
				if !errors.As(err, &oe) || oe.Event != c.bad || oe.Field != "rel_type" {
					t.Fatalf("err %v, want the empty rel type of event %d", err, c.bad)
				}
				return
			}
			if c.want != nil {
				if !errors.Is(err, c.want) {
					t.Fatalf("err %v, want %v", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			a := open(t, t.TempDir(), nil)
			defer a.Close()
			want, err := a.IngestFrom(src, false, evs, "Acct", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("result %+v, want %+v", got, want)
			}
			if da, db := a.Digest(), b.Digest(); da != db {
				t.Fatalf("digest %s, IngestFrom gives %s", db, da)
			}
			if sa, sb := fmt.Sprint(a.Sources()), fmt.Sprint(b.Sources()); sa != sb {
				t.Fatalf("sources %s, want %s", sb, sa)
			}
		})
	}
}

// OnePass is ignored by a store that has batches: the content is checked
// before anything is written.
func TestIngestOnePassNotNew(t *testing.T) {
	db := open(t, t.TempDir(), nil)
	defer db.Close()
	first := streamEvents(10, false)
	if _, err := db.IngestFrom(Source{Name: "a", SHA256: shaOf(t, first)}, false, first, "", nil); err != nil {
		t.Fatal(err)
	}
	before := db.Digest()
	evs := streamEvents(2*ChunkEvents, false)
	evs[len(evs)-1].Src = ""
	var passes int
	_, err := db.IngestStream(context.Background(), "b", passOf(evs, 1000, &passes), StreamOptions{OnePass: &OnePass{SHA256: shaOf(t, evs), Events: len(evs)}})
	var oe *bt.OpError
	if !errors.As(err, &oe) || oe.Event != len(evs)-1 || db.Digest() != before {
		t.Fatalf("err %v: want the bad event refused with the store unchanged", err)
	}
}
