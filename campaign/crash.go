package campaign

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CrashConfig sets up a crash campaign.
type CrashConfig struct {
	Binary  string // the tgms binary (its hidden 'campaign crash-child' runs the workload)
	Trials  int
	Seed    uint64
	Batches int // workload size; 0 means 24
	// AckEarly makes the child acknowledge each write before it is made:
	// a broken writer, which the campaign must catch (LOST > 0).
	AckEarly bool
	Dir      string // scratch directory
	Progress func(done int)
}

// CrashReport is what a crash campaign found.
type CrashReport struct {
	Trials      int      `json:"trials"`
	CrashPoints int64    `json:"crash_points"` // points one uninterrupted run passes
	ByPoint     int      `json:"fault_point_trials"`
	BySignal    int      `json:"sigkill_trials"`
	ByServe     int      `json:"serve_kill_trials"` // 'serve --allow-writes' killed mid-session
	Interrupted int      `json:"interrupted"`       // trials whose writer died before acknowledging every batch
	Outcomes    Tally    `json:"outcomes"`
	Failures    []string `json:"failures,omitempty"` // the first few, with details
}

// Crash runs the crash campaign: the first trials stop the child at each
// crash point in turn (every fsync, rename and checkpoint boundary), then
// points chosen at random; every fourth trial instead sends SIGKILL at a
// random moment of the run: to the workload's child, or (every eighth
// trial) to 'tgms serve --allow-writes' while a client writes the
// workload through its HTTP API.
func Crash(ctx context.Context, c CrashConfig) (*CrashReport, error) {
	if c.Batches == 0 {
		c.Batches = 24
	}
	w, err := NewWorkload(c.Seed, c.Batches)
	if err != nil {
		return nil, err
	}
	rep := &CrashReport{Trials: c.Trials, Outcomes: Tally{}}
	// Calibrate: how many crash points, and how long a run takes.
	calib := filepath.Join(c.Dir, "calibrate")
	start := time.Now()
	_, stderr, err := c.child(ctx, calib, "TGMS_FAULT_COUNT=1", 0)
	if err != nil {
		return nil, fmt.Errorf("crash campaign: uninterrupted run: %v\n%s", err, stderr)
	}
	runTime := time.Since(start)
	for _, line := range strings.Split(stderr, "\n") {
		if n, ok := strings.CutPrefix(line, "fault-points "); ok {
			rep.CrashPoints, _ = strconv.ParseInt(n, 10, 64)
		}
	}
	if rep.CrashPoints == 0 {
		return nil, fmt.Errorf("crash campaign: the child reported no crash points (stderr %q)", stderr)
	}
	os.RemoveAll(calib)
	rng := rand.New(rand.NewPCG(c.Seed, 0xc4a5))
	for i := range c.Trials {
		dir := filepath.Join(c.Dir, fmt.Sprintf("t%d", i))
		var acked int
		var childErr error
		serve := i%8 == 7
		if serve {
			rep.ByServe++
			acked, childErr = c.serveTrial(ctx, w, dir, serveKillAfter(rng, runTime/3))
			if childErr != nil {
				return nil, fmt.Errorf("crash campaign: trial %d (serve): %w", i, childErr)
			}
		} else if i%4 == 3 {
			rep.BySignal++
			acked, _, childErr = c.child(ctx, dir, "", time.Duration(rng.Int64N(int64(runTime)+1)))
		} else {
			rep.ByPoint++
			k := int64(i-i/4)%rep.CrashPoints + 1
			if int64(i) >= rep.CrashPoints*4/3 {
				k = rng.Int64N(rep.CrashPoints) + 1
			}
			acked, _, childErr = c.child(ctx, dir, "TGMS_FAULT_CRASH_AT="+strconv.FormatInt(k, 10), 0)
		}
		if acked < len(w.Batches) {
			rep.Interrupted++
		}
		var out Outcome
		var detail string
		switch {
		case childErr == errHang:
			out, detail = Hang, "child did not finish"
		case serve:
			out, detail = servedRecovered(dir, acked)
		default:
			out, detail = w.recovered(dir, acked)
		}
		rep.Outcomes.add(string(out))
		if out != OK && len(rep.Failures) < 10 {
			rep.Failures = append(rep.Failures, fmt.Sprintf("trial %d: %s: %s", i, out, detail))
		}
		os.RemoveAll(dir)
		if c.Progress != nil {
			c.Progress(i + 1)
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	return rep, nil
}

var errHang = fmt.Errorf("hang")

// child runs the workload in a child process with env set, killing it
// with SIGKILL after killAfter (0: never), and returns the number of
// batches it acknowledged and its standard error.
func (c CrashConfig) child(ctx context.Context, dir, env string, killAfter time.Duration) (int, string, error) {
	args := []string{"campaign", "crash-child", "--store", dir, "--seed", strconv.FormatUint(c.Seed, 10), "--batches", strconv.Itoa(c.Batches)}
	if c.AckEarly {
		args = append(args, "--ack-early")
	}
	cmd := exec.CommandContext(ctx, c.Binary, args...)
	cmd.Env = append(os.Environ(), "TGMS_FAULT_CRASH_AT=", "TGMS_FAULT_COUNT=")
	if env != "" {
		cmd.Env = append(cmd.Env, env)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, "", err
	}
	if err := cmd.Start(); err != nil {
		return 0, "", err
	}
	acks := make(chan int, 1)
	go func() {
		last := 0
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
				last, _ = strconv.Atoi(n)
			}
		}
		acks <- last
	}()
	if killAfter > 0 {
		t := time.AfterFunc(killAfter, func() { cmd.Process.Signal(syscall.SIGKILL) })
		defer t.Stop()
	}
	hang := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	werr := cmd.Wait()
	hung := !hang.Stop()
	acked := <-acks
	if hung {
		return acked, stderr.String(), errHang
	}
	if env == "TGMS_FAULT_COUNT=1" {
		return acked, stderr.String(), werr
	}
	return acked, stderr.String(), nil
}

// CrashChild runs the workload for the crash campaign's child process,
// printing "ack N" after each durable write (before it, with ackEarly: a
// broken writer for the campaign's own test).
func CrashChild(dir string, seed uint64, batches int, ackEarly bool, out *os.File) error {
	w, err := NewWorkload(seed, batches)
	if err != nil {
		return err
	}
	say := func(n int) { fmt.Fprintf(out, "ack %d\n", n) }
	if ackEarly {
		return w.run(dir, StoreOptions(nil), func(int) {}, say)
	}
	return w.run(dir, StoreOptions(nil), say, nil)
}
