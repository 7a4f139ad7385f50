package pgstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
)

// visibleWithin bounds how long a committed batch may take to reach a
// replica that is connected (notifications make it milliseconds; the
// bound leaves room for a loaded machine).
const visibleWithin = 10 * time.Second

func openReplica(t *testing.T, url string) *Replica {
	t.Helper()
	r, err := OpenReplica(context.Background(), url, ReplicaOptions{Poll: time.Minute, Retry: 200 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func waitFor(t *testing.T, r *Replica, tt bt.Time, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if err := r.WaitFor(ctx, tt); err != nil {
		t.Fatalf("replica of %q: %v (lag %+v)", r.Schema(), err, r.Lag())
	}
	return time.Since(start)
}

func synthEvents(t testing.TB, n int64, seed uint64) []bt.Event {
	t.Helper()
	var events []bt.Event
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: n, Seed: seed}, func(c []bt.Event) error {
		events = append(events, c...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return events
}

// A writer and two replicas: every batch written is on both within a
// bounded time (the poll is a minute, so only notifications can make it),
// with the writer's digest; a read after the applied tt is refused; a
// read of the latest belief is pinned at the applied tt; a replica closed
// and opened again catches up.
func TestReplicasFollowWriter(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "follow")
	events, writes := synthSmall(t)
	w := openPG(t, url, Options{Write: true})
	if _, err := w.Ingest(context.Background(), events[:1000], "Node", nil); err != nil {
		t.Fatal(err)
	}
	r1, r2 := openReplica(t, url), openReplica(t, url)
	if r1.Digest() != w.Digest() {
		t.Fatalf("replica opened with digest %s, writer has %s", r1.Digest(), w.Digest())
	}
	if _, err := w.Ingest(context.Background(), events[1000:], "Node", nil); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ops := range writes[:min(len(writes), 20)] {
		tt, err := w.Write(context.Background(), ops...)
		if err != nil {
			continue // a correction the planner refuses writes nothing
		}
		n++
		for _, r := range []*Replica{r1, r2} {
			waitFor(t, r, tt, visibleWithin)
		}
	}
	if n == 0 {
		t.Fatal("every write was refused")
	}
	for i, r := range []*Replica{r1, r2} {
		if got, want := r.Digest(), w.Digest(); got != want {
			t.Fatalf("replica %d digest %s, writer %s", i+1, got, want)
		}
		l := r.Lag()
		if !l.Connected || l.AppliedTT != w.LastTT() || l.BehindUS != 0 || l.Error != "" {
			t.Fatalf("replica %d lag %+v, writer at %d", i+1, l, w.LastTT())
		}
		st := r.Stats()
		if st.Replication == nil || st.Replication.AppliedTT != w.LastTT() || st.Batches != w.Stats().Batches {
			t.Fatalf("replica %d stats %+v", i+1, st)
		}
	}

	// Reads: the latest belief pins at the applied tt; a later one is refused.
	var pinned bt.Time
	if err := r1.Read(bt.OpenEnd, func(rd engine.Reader) error { pinned = rd.AsOf(); return nil }); err != nil || pinned != w.LastTT() {
		t.Fatalf("read of the latest belief pinned at %d (%v), want %d", pinned, err, w.LastTT())
	}
	err := r1.Read(w.LastTT()+1, func(engine.Reader) error { t.Fatal("read ran"); return nil })
	var oe *ops.Error
	if !errors.As(err, &oe) || oe.Code != EBehind || !strings.Contains(oe.Message, strconv.FormatInt(w.LastTT(), 10)) || oe.Details["path"] != "/as_of_tt" {
		t.Fatalf("read after the applied tt: %v", err)
	}
	env, err := ops.Execute(context.Background(), r2, "entity_history", map[string]any{"uid": events[0].Src, "as_of_tt": w.LastTT() + 5})
	if !errors.As(err, &oe) || oe.Code != EBehind {
		t.Fatalf("operator call after the applied tt: %v %v", env, err)
	}
	env, err = ops.Execute(context.Background(), r2, "entity_history", map[string]any{"uid": events[0].Src})
	if err != nil || env.AsOfTT != w.LastTT() {
		t.Fatalf("operator call of the latest belief: %v, as_of_tt %v, want %d", err, env, w.LastTT())
	}

	// A replica closed, missing batches, and opened again catches up.
	r2.Close()
	more := synthEvents(t, 500, 99)
	res, err := w.Ingest(context.Background(), more, "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, r1, res.LastTT, visibleWithin)
	r3 := openReplica(t, url)
	if r3.LastTT() != res.LastTT || r3.Digest() != w.Digest() || r1.Digest() != w.Digest() {
		t.Fatalf("after more batches: writer %s, replica %s, reopened replica %s at %d", w.Digest(), r1.Digest(), r3.Digest(), r3.LastTT())
	}
}

// A replica of a store whose next batch row is damaged keeps what it has,
// refuses nothing it has applied, and says which batch stopped it.
func TestReplicaStopsAtDamagedBatch(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "follow_bad")
	w := openPG(t, url, Options{Write: true})
	if _, err := w.Ingest(context.Background(), synthEvents(t, 300, 5), "Node", nil); err != nil {
		t.Fatal(err)
	}
	r := openReplica(t, url)
	before := r.Digest()
	conn := adminConn(t, url)
	// A row inserted behind the writer's back, its checksum wrong.
	tt := w.LastTT() + 10
	if _, err := conn.Exec(context.Background(), "INSERT INTO batches (tt, seq, payload, checksum) VALUES ($1, $2, '\\x00', 1)", tt, int64(w.Stats().Batches+1)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), visibleWithin)
	defer cancel()
	err := r.WaitFor(ctx, tt)
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.TT != tt {
		t.Fatalf("replica meeting a damaged batch: %v", err)
	}
	l := r.Lag()
	if !l.Stopped || !strings.Contains(l.Error, fmt.Sprintf("batch at tt %d is damaged", tt)) || r.Digest() != before {
		t.Fatalf("lag %+v, digest changed %v", l, r.Digest() != before)
	}
}

// A store replaced under a replica by another history (as a restore from
// an older backup replaces it) stops the replica with the reason, rather
// than mixing the two histories.
func TestReplicaStopsWhenHistoryDiverges(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "diverge")
	w, err := Open(context.Background(), url, Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), synthEvents(t, 300, 21), "Node", nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r := openReplica(t, url)
	applied := r.LastTT()
	conn := adminConn(t, url)
	if _, err := conn.Exec(context.Background(), "DROP SCHEMA diverge CASCADE"); err != nil {
		t.Fatal(err)
	}
	w = openPG(t, url, Options{Write: true})
	res, err := w.Ingest(context.Background(), synthEvents(t, 300, 22), "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), visibleWithin)
	defer cancel()
	err = r.WaitFor(ctx, res.LastTT)
	var de *DivergedError
	if !errors.As(err, &de) || de.AppliedTT != applied || !strings.Contains(err.Error(), "restart this replica") {
		t.Fatalf("replica of a replaced store: %v", err)
	}
	if r.LastTT() != applied {
		t.Fatalf("the replica applied up to %d after diverging, had %d", r.LastTT(), applied)
	}
}

// The database restarted (every session cut) under a running replica: it
// reconnects, says so, and catches up on batches written after.
func TestReplicaSurvivesDatabaseRestart(t *testing.T) {
	c := pgtest.ForTest(t)
	url := schemaURL(c, "restart")
	w, err := Open(context.Background(), url, Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), synthEvents(t, 300, 11), "Node", nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r := openReplica(t, url)
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	w, err = Open(context.Background(), url, Options{Write: true, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	res, err := w.Ingest(context.Background(), synthEvents(t, 300, 12), "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Reconnecting takes at most a few retries of 200 ms after the server is back.
	waitFor(t, r, res.LastTT, visibleWithin)
	if r.Digest() != w.Digest() {
		t.Fatalf("replica digest %s after the restart, writer %s", r.Digest(), w.Digest())
	}
	deadline := time.Now().Add(visibleWithin)
	for !r.Lag().Connected && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if l := r.Lag(); !l.Connected || l.Error != "" {
		t.Fatalf("lag after the restart %+v", l)
	}
}

// writerEnv names the store a writer subprocess writes to (see TestMain).
const writerEnv = "TGMS_PGSTORE_TEST_WRITER"

// runWriter is the writer subprocess: it writes batches until killed,
// printing "ack TT" after each commit. Each batch is a few thousand events,
// so that a kill lands inside a batch's transaction most of the time.
func runWriter(url string) {
	ctx := context.Background()
	s, err := Open(ctx, url, Options{Write: true, Wait: 10 * time.Second})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for i := uint64(0); ; i++ {
		var events []bt.Event
		datasets.Synthesize(datasets.SynthConfig{Events: 3000, Seed: 100 + i}, func(c []bt.Event) error {
			events = append(events, c...)
			return nil
		})
		res, err := s.Ingest(ctx, events, "Node", nil)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ack", res.LastTT)
	}
}

// A writer killed (SIGKILL) in the middle of its batches loses nothing it
// acknowledged: every acknowledged tt is in the batches table and on the
// replicas, the batch it was writing is either whole or absent, and a new
// writer takes over at once.
func TestWriterKilledMidBatch(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "killed")
	w := openPG(t, url, Options{Write: true})
	if _, err := w.Ingest(context.Background(), synthEvents(t, 100, 1), "Node", nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r1, r2 := openReplica(t, url), openReplica(t, url)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), writerEnv+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []bt.Time
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(acked) < 6 {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || f[0] != "ack" {
			t.Fatalf("writer: %s", sc.Text())
		}
		tt, _ := strconv.ParseInt(f[1], 10, 64)
		acked = append(acked, tt)
	}
	// Kill it inside its next batch's transaction: its session is then
	// running a statement or between two (COPY of the versions).
	conn := adminConn(t, url)
	app := fmt.Sprintf("tgms pid %d on %%", cmd.Process.Pid)
	inTx := false
	for deadline := time.Now().Add(5 * time.Second); !inTx && time.Now().Before(deadline); {
		if err := conn.QueryRow(context.Background(), "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name LIKE $1 AND xact_start IS NOT NULL)", app).Scan(&inTx); err != nil {
			t.Fatal(err)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if len(acked) < 6 || !inTx {
		t.Fatalf("the writer acknowledged %d batches before it ended; killed inside a transaction: %v", len(acked), inTx)
	}
	w2, err := Open(context.Background(), url, Options{Write: true, Wait: 10 * time.Second})
	if err != nil {
		t.Fatalf("a new writer after the kill: %v", err)
	}
	defer w2.Close()
	last := acked[len(acked)-1]
	if w2.LastTT() < last {
		t.Fatalf("the store ends at tt %d, the writer acknowledged %d", w2.LastTT(), last)
	}
	for _, tt := range acked {
		var n int
		if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM batches WHERE tt = $1", tt).Scan(&n); err != nil || n != 1 {
			t.Fatalf("acknowledged batch at tt %d: %d rows (%v)", tt, n, err)
		}
	}
	res, err := w2.Ingest(context.Background(), synthEvents(t, 200, 77), "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Replica{r1, r2} {
		waitFor(t, r, res.LastTT, visibleWithin)
		if r.Digest() != w2.Digest() {
			t.Fatalf("replica digest %s, writer %s", r.Digest(), w2.Digest())
		}
	}
	if res, err := Check(context.Background(), url); err != nil || !res.Clean() {
		t.Fatalf("check after the kill: %v %+v", err, res)
	}
}

// adminConn is a session in url's schema, closed when t ends.
func adminConn(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, _, err := connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// A replica with a checkpoint file starts from it and replays only the
// batches after it, with the digest of a full replay; a checkpoint of
// another history or a damaged one is set aside and the read model built
// from the batches.
func TestReplicaCheckpoint(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "ckpt")
	ckpt := t.TempDir() + "/replica.ckpt"
	open := func() *Replica {
		r, err := OpenReplica(context.Background(), url, ReplicaOptions{Checkpoint: ckpt, Poll: time.Minute, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	w, err := Open(context.Background(), url, Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), synthEvents(t, 600, 31), "Node", nil); err != nil {
		t.Fatal(err)
	}
	r := open()
	if r.FromCheckpoint() != 0 {
		t.Fatalf("a first open took %d batches from a checkpoint", r.FromCheckpoint())
	}
	if _, err := os.Stat(ckpt); err != nil {
		t.Fatalf("no checkpoint after the first open: %v", err)
	}
	saved := w.Stats().Batches
	r.Close()
	res, err := w.Ingest(context.Background(), synthEvents(t, 300, 32), "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	r = open()
	if r.FromCheckpoint() != saved || r.LastTT() != res.LastTT || r.Digest() != w.Digest() {
		t.Fatalf("reopened from the checkpoint: %d batches from it (want %d), at tt %d (want %d), digest equal %v", r.FromCheckpoint(), saved, r.LastTT(), res.LastTT, r.Digest() == w.Digest())
	}
	r.Close()
	w.Close()

	// Another history in the schema: the checkpoint is not a prefix of it.
	conn := adminConn(t, url)
	if _, err := conn.Exec(context.Background(), "DROP SCHEMA ckpt CASCADE"); err != nil {
		t.Fatal(err)
	}
	w = openPG(t, url, Options{Write: true})
	if _, err := w.Ingest(context.Background(), synthEvents(t, 300, 33), "Node", nil); err != nil {
		t.Fatal(err)
	}
	r = open()
	if r.FromCheckpoint() != 0 || r.Digest() != w.Digest() {
		t.Fatalf("a checkpoint of another history was used: %d batches from it, digest equal %v", r.FromCheckpoint(), r.Digest() == w.Digest())
	}
	r.Close()

	// A damaged checkpoint file.
	b, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(ckpt, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r = open()
	defer r.Close()
	if r.FromCheckpoint() != 0 || r.Digest() != w.Digest() {
		t.Fatalf("a damaged checkpoint was used: %d batches from it", r.FromCheckpoint())
	}
}
