package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// smallStore writes a store of three one-op batches and returns its dir.
func smallStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	for _, uid := range []string{"a", "b", "c"} {
		ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"`+uid+`"}`+"\n")
		if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
			t.Fatal(errs)
		}
	}
	return store
}

// Exit codes as the package comment and the README document them.
func TestExitCodes(t *testing.T) {
	store := smallStore(t)
	dir := t.TempDir()
	file := write(t, dir, "plain.txt", "not a store\n")
	garbage := write(t, dir, "garbage.wal", "this is not an event log at all, just some bytes\n")

	damaged := filepath.Join(t.TempDir(), "damaged")
	if err := os.CopyFS(damaged, os.DirFS(store)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(damaged, tgms.CheckpointFile))
	log, _ := os.ReadFile(filepath.Join(damaged, tgms.LogFile))
	// Flip a byte in the middle of the log: a complete record before the
	// tail is damaged, which is never a torn write.
	log[len(log)/2] ^= 0x40
	os.WriteFile(filepath.Join(damaged, tgms.LogFile), log, 0o644)

	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown command", []string{"frobnicate"}, exitInput, `unknown command "frobnicate"`},
		{"unknown subcommand", []string{"plan", "frobnicate"}, exitInput, `unknown command "frobnicate"`},
		{"unknown flag", []string{"stats", "--bogus"}, exitInput, "see 'tgms stats --help'"},
		{"store is a file (read)", []string{"stats", "--store", file}, exitInput, "is a file, not a store directory"},
		{"store is a file (write)", []string{"write", "--store", file, "--ops", file}, exitInput, ""},
		{"bad replay log", []string{"replay", "--log", garbage, "--store", filepath.Join(dir, "copy")}, exitInput, "nothing was left at"},
		{"damaged store", []string{"stats", "--store", damaged}, exitDamaged, "is damaged"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runCLI(t, c.args...)
			if code != c.code || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, c.code, c.want)
			}
			if strings.Count(errs, "--help") > 1 {
				t.Fatalf("the help hint is repeated: %q", errs)
			}
		})
	}
	t.Run("store in use", func(t *testing.T) {
		db, err := tgms.Open(store, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		_, errs, code := runCLI(t, "stats", "--store", store)
		if code != exitInUse || !strings.Contains(errs, "in use") {
			t.Fatalf("exit %d: %s", code, errs)
		}
	})
}

// tgms call runs under a deadline (--timeout, default the plan deadline)
// and reports the estimate when it stops a call.
func TestCallDeadline(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	if _, errs, code := runCLI(t, "synth", "--store", store, "--events", "20000", "--seed", "3", "--no-sync"); code != 0 {
		t.Fatal(errs)
	}
	args := `{"motif":"M_path_3","delta":86400000000,"window":{"t_a":0,"t_b":4611686018427387904}}`
	out, errs, code := runCLI(t, "call", "--store", store, "--timeout", "1ns", "count_temporal_motifs", args)
	if code != exitInput || !strings.Contains(out, `"E_COST"`) || !strings.Contains(out, "call stopped after") || !strings.Contains(out, `"estimate"`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if _, _, code := runCLI(t, "call", "--store", store, "--timeout", "0s", "count_temporal_motifs", args); code != exitInput {
		t.Fatalf("--timeout 0: exit %d", code)
	}
	if f := newCall().Flags().Lookup("timeout"); f == nil || f.DefValue != "1m0s" {
		t.Fatalf("the default deadline of call is not the plan deadline: %v", f)
	}
}

// tgms write bounds the line, the batch and the events of one batch, and
// names the file, the line and the limit.
func TestWriteBounds(t *testing.T) {
	defer func(l int, b, e int64) { maxOpLine, maxBatchBytes, maxOpsEvents = l, b, e }(maxOpLine, maxBatchBytes, maxOpsEvents)
	maxOpLine, maxBatchBytes, maxOpsEvents = 200, 1000, 3
	store := smallStore(t)
	digest, _, _ := runCLI(t, "digest", "--store", store)
	dir := t.TempDir()
	node := `{"op":"assert_node","uid":"n"}` + "\n"
	cases := []struct {
		name, file, want string
	}{
		{"long line", node + `{"op":"assert_node","uid":"` + strings.Repeat("x", 300) + `"}` + "\n", "big.jsonl:2: line longer than 200 bytes"},
		{"big batch", strings.Repeat(node, 40), "the batch is larger than 1000 bytes"},
		{"many events", `{"op":"ingest","events":[{"src":"a","dst":"b","rel_type":"M","vt_s":1},{"src":"a","dst":"b","rel_type":"M","vt_s":2}]}` + "\n" +
			`{"op":"ingest","events":[{"src":"a","dst":"b","rel_type":"M","vt_s":3},{"src":"a","dst":"b","rel_type":"M","vt_s":4}]}` + "\n", "big.jsonl:2: the batch's ingest ops carry more than 3 events"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := write(t, dir, "big.jsonl", c.file)
			_, errs, code := runCLI(t, "write", "--store", store, "--ops", f)
			if code != exitInput || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d: %q; want %q", code, errs, c.want)
			}
			if now, _, _ := runCLI(t, "digest", "--store", store); now != digest {
				t.Fatal("a refused batch changed the store")
			}
		})
	}
	// Just within the bounds is accepted.
	f := write(t, dir, "ok.jsonl", strings.Repeat(node, 1000/len(node)))
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", f); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// replay, synth and import leave nothing at the target when they fail.
func TestBuildLeavesNothingOnFailure(t *testing.T) {
	store := smallStore(t)
	dir := t.TempDir()
	log, _ := os.ReadFile(filepath.Join(store, tgms.LogFile))
	bad := write(t, dir, "bad.wal", string(log[:len(log)/2])+"\x00garbage after a cut record, not a torn tail\n"+string(log[len(log)/2:]))
	target := filepath.Join(dir, "copy")
	if _, errs, code := runCLI(t, "replay", "--log", bad, "--store", target); code != exitInput || !strings.Contains(errs, "nothing was left at "+target) {
		t.Fatalf("replay of a damaged log: exit %d: %s", code, errs)
	}
	badPy := write(t, dir, "bad.jsonl", "{\"not\": \"a tgms-py record\"}\n")
	if _, errs, code := runCLI(t, "import", "--format", "tgms-py", "--log", badPy, "--store", target); code != exitInput {
		t.Fatalf("import of a bad log: exit %d: %s", code, errs)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() == "copy" || strings.Contains(e.Name(), ".building-") {
			t.Fatalf("a failed build left %s behind", e.Name())
		}
	}
	// An existing store is never a target.
	if _, errs, code := runCLI(t, "synth", "--store", store, "--events", "100"); code != exitInput || !strings.Contains(errs, "already exists") {
		t.Fatalf("synth into an existing store: exit %d: %s", code, errs)
	}
	if out, errs, code := runCLI(t, "replay", "--log", filepath.Join(store, tgms.LogFile), "--store", target); code != 0 || !strings.Contains(out, "replayed 3 batches") {
		t.Fatalf("replay: exit %d: %s %s", code, out, errs)
	}
}

// A failed end-of-command close (here: the checkpoint cannot be renamed
// into place) is reported as a warning, and the error is returned.
func TestCloseFailureWarns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	db, err := tgms.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write(bt.AssertNode("a", "Node", "", bt.Interval{Start: 0, End: bt.OpenEnd})); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, tgms.CheckpointFile, "blocker"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if err := closeDB(db, &stderr); err == nil || !strings.Contains(stderr.String(), "warning: closing store "+dir) {
		t.Fatalf("close error %v, stderr %q", err, stderr.String())
	}
}

// SIGINT during synth and ingest stops between batches, closes the store
// and says what was committed, with exit status 130.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()

	t.Run("synth", func(t *testing.T) {
		target := filepath.Join(dir, "synth")
		cmd := exec.Command(bin, "synth", "--store", target, "--events", "20000000", "--no-sync")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		if cmd.ProcessState.ExitCode() != exitInterrupted || !strings.Contains(stderr.String(), "interrupted: synth: committed") ||
			!strings.Contains(stderr.String(), "nothing was left at "+target) {
			t.Fatalf("%v: exit %d: %s", err, cmd.ProcessState.ExitCode(), stderr.String())
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.Name() == "synth" || strings.Contains(e.Name(), ".building-") {
				t.Fatalf("an interrupted synth left %s behind", e.Name())
			}
		}
	})

	t.Run("ingest", func(t *testing.T) {
		var b strings.Builder
		for i := range 400_000 {
			b.WriteString(`{"src":"n` + itoa(i%997) + `","dst":"n` + itoa(i%991+1000) + `","rel_type":"M","vt_s":` + itoa(i+1) + "}\n")
		}
		events := write(t, dir, "events.jsonl", b.String())
		store := filepath.Join(dir, "ingest")
		cmd := exec.Command(bin, "ingest", "--store", store, "--events", events, "--no-sync", "--acks", "--group-events", "50000")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		if !sc.Scan() || !strings.HasPrefix(sc.Text(), "ack ") {
			t.Fatalf("no ack: %q %s", sc.Text(), stderr.String())
		}
		cmd.Process.Signal(syscall.SIGINT)
		for sc.Scan() {
		}
		cmd.Wait()
		msg := stderr.String()
		if cmd.ProcessState.ExitCode() != exitInterrupted || !strings.Contains(msg, "interrupted: ingest (of 400000 events): committed") {
			t.Fatalf("exit %d: %s", cmd.ProcessState.ExitCode(), msg)
		}
		db, err := tgms.Open(store, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		st := db.Stats()
		if want := " " + itoa(st.Batches) + " batches, " + itoa(st.EdgeVersions) + " events"; !strings.Contains(msg, "committed"+want) {
			t.Fatalf("the message %q does not match the store (%d batches, %d edge versions)", msg, st.Batches, st.EdgeVersions)
		}
		if st.EdgeVersions >= 400_000 {
			t.Fatalf("the ingest was not interrupted: %d events", st.EdgeVersions)
		}
	})
}

func itoa[T ~int | ~int64 | ~uint64](n T) string { return strconvItoa(int64(n)) }

func strconvItoa(n int64) string { return strconv.FormatInt(n, 10) }
