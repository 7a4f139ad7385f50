package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tgms-go/tgms/campaign"
)

// A short soak passes: the writer is killed and recovers, readers rerun
// plans and check them on the oracle, nothing is lost or mismatched. And
// it goes red on each planted fault: a writer acknowledging before it
// writes (lost batches), a reader perturbing digests (mismatches).
func TestSoakCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	cfg := func(name string) campaign.SoakConfig {
		return campaign.SoakConfig{Binary: bin, Dir: filepath.Join(t.TempDir(), name), Seed: 3, Duration: 12 * time.Second,
			Readers: 4, KillMean: 3 * time.Second, CheckpointEvery: 20, Interval: 3 * time.Second}
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
	perturbed.Duration = 6 * time.Second
	rep, err = campaign.Soak(context.Background(), perturbed)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Mismatches.Oracle == 0 || rep.LostBatches != 0 {
		t.Fatalf("a reader perturbing digests was not caught: ok %v, mismatches %+v, lost %d", rep.OK(), rep.Mismatches, rep.LostBatches)
	}
}
