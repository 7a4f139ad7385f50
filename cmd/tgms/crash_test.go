package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/eventlog"
)

// buildBinary compiles tgms once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tgms")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCrashDuringIngest starts the binary ingesting, kills it with SIGKILL
// at a random moment, reopens the store and checks that it holds a prefix
// of the batches that includes every acknowledged one, and that recovery
// gives exactly what replaying that prefix of the log gives.
func TestCrashDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	const nEvents = 8 * tgms.ChunkEvents
	evs := make([]bt.Event, nEvents)
	for i := range evs {
		evs[i] = bt.Event{Src: fmt.Sprintf("n%d", i%997), Dst: fmt.Sprintf("n%d", (i*31)%1009), RelType: "MSG", VtS: bt.Time(1_000_000 * i)}
	}
	input := filepath.Join(dir, "events.jsonl")
	f, _ := os.Create(input)
	if err := datasets.WriteEventsJSONL(f, evs); err != nil {
		t.Fatal(err)
	}
	f.Close()

	// How long the write phase takes here (from the log's creation to exit),
	// so that kills land across it.
	run := func(store string) (*exec.Cmd, chan int) {
		cmd := exec.Command(bin, "ingest", "--store", store, "--events", input, "--acks", "--group-events", fmt.Sprint(tgms.ChunkEvents))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked := make(chan int, 64)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var done int
				var tt int64
				if n, _ := fmt.Sscanf(sc.Text(), "ack %d %d", &done, &tt); n == 2 {
					acked <- done
				}
			}
			close(acked)
		}()
		for {
			if _, err := os.Stat(filepath.Join(store, tgms.LogFile)); err == nil {
				return cmd, acked
			}
			time.Sleep(time.Millisecond)
		}
	}
	cmd, acked := run(filepath.Join(dir, "timing"))
	start := time.Now()
	for range acked {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("uninterrupted ingest failed: %v", err)
	}
	writePhase := time.Since(start)

	rng := rand.New(rand.NewPCG(7, 11))
	partial := 0
	for it := 0; it < 40 && partial < 4; it++ {
		store := filepath.Join(dir, fmt.Sprintf("store%d", it))
		cmd, acked := run(store)
		time.Sleep(time.Duration(rng.Int64N(int64(writePhase))))
		cmd.Process.Signal(syscall.SIGKILL)
		ackedEvents := 0
		for d := range acked {
			ackedEvents = d
		}
		cmd.Wait()

		db, err := tgms.Open(store, &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
		if err != nil {
			t.Fatalf("iteration %d: reopen after kill: %v", it, err)
		}
		st := db.Stats()
		gotEvents := st.EdgeVersions
		if gotEvents < ackedEvents || gotEvents > nEvents || gotEvents%tgms.ChunkEvents != 0 && gotEvents != nEvents {
			t.Fatalf("iteration %d: store has %d events after %d were acknowledged", it, gotEvents, ackedEvents)
		}
		if gotEvents > 0 && gotEvents < nEvents {
			partial++
		}
		digest := db.Digest()
		db.Close()

		// Replaying the recovered log into a fresh store gives the same digest,
		// and the recovered batches are the input's chunks, in order.
		fresh, err := tgms.Open(filepath.Join(dir, fmt.Sprintf("replay%d", it)), &tgms.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		err = eventlog.ReadFile(filepath.Join(store, tgms.LogFile), func(r *eventlog.Record, _ int64) error {
			chunk := evs[k*tgms.ChunkEvents : (k+1)*tgms.ChunkEvents]
			got := r.Ops[0].Events
			if len(got) != len(chunk) || got[0] != chunk[0] || got[len(got)-1] != chunk[len(chunk)-1] {
				return fmt.Errorf("batch %d is not input chunk %d", r.Seq, k)
			}
			k++
			return fresh.WriteAt(r.TT, r.Ops)
		})
		if err != nil {
			t.Fatalf("iteration %d: replay: %v", it, err)
		}
		if fresh.Digest() != digest {
			t.Fatalf("iteration %d: recovered store differs from a replay of its log", it)
		}
		fresh.Close()
		t.Logf("iteration %d: acknowledged %d events, recovered %d", it, ackedEvents, gotEvents)
	}
	if partial == 0 {
		t.Fatalf("no kill landed mid-ingest in 40 tries (write phase %s): the test did not exercise recovery", writePhase)
	}
}

func TestMain(m *testing.M) {
	// Keep child processes from inheriting a terminal-sized progress bar.
	os.Setenv("TERM", "dumb")
	os.Exit(m.Run())
}
