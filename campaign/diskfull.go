package campaign

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tgms-go/tgms/internal/fault"
)

// DiskFullConfig sets up a disk-full campaign.
type DiskFullConfig struct {
	Trials  int
	Seed    uint64
	Batches int // workload size; 0 means 24
	Dir     string
	// IgnoreErrors makes the writer acknowledge writes that failed: a
	// broken writer, which the campaign must catch (LOST > 0).
	IgnoreErrors bool
	Progress     func(done int)
}

// DiskFullReport is what a disk-full campaign found.
type DiskFullReport struct {
	Trials     int      `json:"trials"`
	WriteCalls int64    `json:"write_calls"` // write calls of one uninterrupted run
	Short      int      `json:"short_write_trials"`
	Outcomes   Tally    `json:"outcomes"`
	Unclear    int      `json:"unclear_errors"` // failed runs whose error does not say ENOSPC
	Failures   []string `json:"failures,omitempty"`
}

// DiskFull runs the disk-full campaign in this process: it fills the
// disk at write call i mod W + 1 of the workload (W: the calls of an
// uninterrupted run) for trials 2i and 2i+1, the second time after half
// of that call's bytes,
// and the disk stays full for every later write. The store is then
// reopened with space again and judged as after a crash.
func DiskFull(ctx context.Context, c DiskFullConfig) (*DiskFullReport, error) {
	if c.Batches == 0 {
		c.Batches = 24
	}
	w, err := NewWorkload(c.Seed, c.Batches)
	if err != nil {
		return nil, err
	}
	rep := &DiskFullReport{Trials: c.Trials, Outcomes: Tally{}}
	calib := filepath.Join(c.Dir, "calibrate")
	fault.SetWriteFailure(1<<62, false) // count only
	err = w.Run(calib, StoreOptions(nil), func(int) {})
	rep.WriteCalls = fault.WriteCalls()
	fault.SetWriteFailure(0, false)
	if err != nil {
		return nil, fmt.Errorf("disk-full campaign: uninterrupted run: %w", err)
	}
	os.RemoveAll(calib)
	for i := range c.Trials {
		dir := filepath.Join(c.Dir, fmt.Sprintf("t%d", i))
		k := int64(i/2)%rep.WriteCalls + 1
		short := i%2 == 1
		if short {
			rep.Short++
		}
		acked := 0
		done := make(chan error, 1)
		fault.SetWriteFailure(k, short)
		go func() {
			done <- w.Run(dir, StoreOptions(nil), func(n int) { acked = n })
		}()
		var runErr error
		var out Outcome
		var detail string
		select {
		case runErr = <-done:
		case <-time.After(30 * time.Second):
			out, detail = Hang, "the writer did not return"
		}
		fault.SetWriteFailure(0, false)
		if out != Hang {
			if c.IgnoreErrors && runErr != nil {
				acked = len(w.Batches) // pretend everything was written
			}
			if runErr != nil && !errors.Is(runErr, syscall.ENOSPC) && !strings.Contains(runErr.Error(), "no space left") {
				rep.Unclear++
				if len(rep.Failures) < 10 {
					rep.Failures = append(rep.Failures, fmt.Sprintf("trial %d: unclear error: %v", i, runErr))
				}
			}
			out, detail = w.recovered(dir, acked)
		}
		rep.Outcomes.add(string(out))
		if out != OK && len(rep.Failures) < 10 {
			rep.Failures = append(rep.Failures, fmt.Sprintf("trial %d (write %d, short %v): %s: %s", i, k, short, out, detail))
		}
		if out == Hang {
			return rep, fmt.Errorf("disk-full campaign: trial %d hung", i)
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
