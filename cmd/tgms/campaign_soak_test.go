package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tgms-go/tgms/campaign"
)

// The soak and overload campaigns on one build of the binary.
func TestSoakAndOverloadCampaigns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	t.Run("soak", func(t *testing.T) { soakCampaign(t, bin) })
	t.Run("overload", func(t *testing.T) { overloadCampaign(t, bin) })
}

// A short soak passes: the writer is killed and recovers, readers rerun
// plans and check them on the oracle, nothing is lost or mismatched. And
// it goes red on each planted fault: a writer acknowledging before it
// writes (lost batches), a reader perturbing digests (mismatches).
func soakCampaign(t *testing.T, bin string) {
	cfg := func(name string) campaign.SoakConfig {
		return campaign.SoakConfig{Binary: bin, Dir: filepath.Join(t.TempDir(), name), Seed: 3, Duration: 10 * time.Second,
			Readers: 4, KillMean: 2500 * time.Millisecond, CheckpointEvery: 20, Interval: 2500 * time.Millisecond}
	}
	rep, err := campaign.Soak(context.Background(), cfg("good"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Log(f)
	}
	if !rep.OK() || rep.Kills < 2 || rep.Recoveries != rep.Kills || rep.Checkpoints == 0 || rep.Repeats == 0 || rep.OracleRuns == 0 || rep.Batches < 20 || len(rep.Intervals) < 3 {
		t.Fatalf("soak: ok %v, %d kills, %d recoveries, %d checkpoints, %d reruns, %d oracle checks, %d batches, %d rows",
			rep.OK(), rep.Kills, rep.Recoveries, rep.Checkpoints, rep.Repeats, rep.OracleRuns, rep.Batches, len(rep.Intervals))
	}

	early := cfg("ack-early")
	early.AckEarly = true
	early.Duration = 6 * time.Second
	early.KillMean = 2 * time.Second
	rep, err = campaign.Soak(context.Background(), early)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.LostBatches == 0 {
		t.Fatalf("a writer acknowledging before it writes was not caught: ok %v, lost %d, %d kills", rep.OK(), rep.LostBatches, rep.Kills)
	}

	perturbed := cfg("perturb")
	perturbed.PerturbEvery = 25
	perturbed.KillMean = time.Minute
	perturbed.Duration = 4 * time.Second
	rep, err = campaign.Soak(context.Background(), perturbed)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Mismatches.Oracle == 0 || rep.LostBatches != 0 {
		t.Fatalf("a reader perturbing digests was not caught: ok %v, mismatches %+v, lost %d", rep.OK(), rep.Mismatches, rep.LostBatches)
	}
}

// The verdict: a lost batch, any mismatch, a kill not recovered, a long
// run without a recovery, or a failure fail.
func TestSoakVerdict(t *testing.T) {
	base := func() campaign.SoakReport {
		return campaign.SoakReport{DurationS: 60, KillMeanS: 20, Kills: 2, Recoveries: 2}
	}
	for _, c := range []struct {
		name string
		edit func(r *campaign.SoakReport)
		ok   bool
	}{
		{"passes", func(*campaign.SoakReport) {}, true},
		{"short run, no kill", func(r *campaign.SoakReport) { r.DurationS, r.Kills, r.Recoveries = 30, 0, 0 }, true},
		{"lost", func(r *campaign.SoakReport) { r.LostBatches = 1 }, false},
		{"rerun mismatch", func(r *campaign.SoakReport) { r.Mismatches.Repeat = 1 }, false},
		{"oracle mismatch", func(r *campaign.SoakReport) { r.Mismatches.Oracle = 1 }, false},
		{"recovery mismatch", func(r *campaign.SoakReport) { r.Mismatches.Recovery = 1 }, false},
		{"kill not recovered", func(r *campaign.SoakReport) { r.Recoveries = 1 }, false},
		{"no recovery in a long run", func(r *campaign.SoakReport) { r.Kills, r.Recoveries = 0, 0 }, false},
		{"failure", func(r *campaign.SoakReport) { r.Failures = []string{"x"} }, false},
		{"stopped", func(r *campaign.SoakReport) { r.Stopped = "x" }, false},
	} {
		r := base()
		c.edit(&r)
		if got := r.OK(); got != c.ok {
			t.Errorf("%s: OK %v, want %v", c.name, got, c.ok)
		}
	}
}
