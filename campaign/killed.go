package campaign

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tgms-go/tgms"
)

// CrashChildKilledAfterAck runs the rest of the workload on the store at
// dir, printing "ack N" after each durable write, and right after the
// last acknowledgement kills its own process with SIGKILL: the store is
// left exactly as a writer killed after its ack leaves it (no close, no
// final checkpoint, the seal advanced by the last group commit).
func CrashChildKilledAfterAck(dir string, seed uint64, batches int, out *os.File) error {
	w, err := NewWorkload(seed, batches)
	if err != nil {
		return err
	}
	say := func(n int) {
		fmt.Fprintf(out, "ack %d\n", n)
		if n == len(w.Batches) {
			out.Sync()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute) // the signal is on its way
		}
	}
	return w.run(dir, StoreOptions(nil), say, nil)
}

// killedState turns the closed store at dir, which holds a prefix of the
// workload, into a post-seal state by killing a real process after its
// last acknowledgement: for "killed-after-ack" the campaign's writer
// child (binary campaign crash-child --kill-after-ack), for
// "server-session" 'binary serve --allow-writes', which gets the rest of
// the workload through its HTTP API and is killed after its last 200 (it
// takes no checkpoint in a session this small, so every batch of the
// session is past the checkpoint). It returns the digest the state must
// open with, and checks that the kill lost nothing acknowledged.
func killedState(ctx context.Context, binary, state string, w *Workload, seed uint64, dir string) (string, error) {
	done, err := batchesIn(dir)
	if err != nil {
		return "", err
	}
	switch state {
	case "killed-after-ack":
		args := []string{"campaign", "crash-child", "--kill-after-ack", "--store", dir, "--seed", strconv.FormatUint(seed, 10), "--batches", strconv.Itoa(len(w.Batches))}
		cmd := exec.CommandContext(ctx, binary, args...)
		cmd.Env = append(os.Environ(), "TGMS_FAULT_CRASH_AT=", "TGMS_FAULT_COUNT=")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return "", err
		}
		if err := cmd.Start(); err != nil {
			return "", err
		}
		last := 0
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
				last, _ = strconv.Atoi(n)
			}
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL || last != len(w.Batches) {
			return "", fmt.Errorf("the writer was to be killed after acknowledging all %d batches: %v, last ack %d\n%s", len(w.Batches), err, last, stderr.String())
		}
		want := w.Digests[len(w.Batches)]
		if d, err := replayDigest(filepath.Join(dir, tgms.LogFile)); err != nil || d != want {
			return "", fmt.Errorf("the killed writer's log replays to %s (%v), want %s", d, err, want)
		}
		return want, nil
	case "server-session":
		acked, err := serveWrite(ctx, binary, dir, w.Batches[done:], 0)
		if err != nil {
			return "", err
		}
		if acked != len(w.Batches)-done {
			return "", fmt.Errorf("the server acknowledged %d of %d batches", acked, len(w.Batches)-done)
		}
		if n, err := batchesIn(dir); err != nil || n != len(w.Batches) {
			return "", fmt.Errorf("the killed server's store holds %d batches (%v), want %d", n, err, len(w.Batches))
		}
		// The server's clock is the wall clock, so the oracle is a
		// replay of its log by a fresh engine, taken before any damage.
		return replayDigest(filepath.Join(dir, tgms.LogFile))
	}
	return "", fmt.Errorf("unknown state %q", state)
}

// batchesIn is the number of batches the store at dir holds, read-only.
func batchesIn(dir string) (int, error) {
	opt := StoreOptions(nil)
	opt.ReadOnly = true
	db, err := tgms.Open(dir, &opt)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	return int(db.Stats().Batches), nil
}
