package main

import (
	"context"
	"testing"
	"time"

	"github.com/tgms-go/tgms/campaign"
)

// A short overload run: every level answers, p99 is at least p50, the
// idle latency recovers; with one heavy slot and a 5 ms deadline the
// server sheds heavy calls with E_BUSY and the run counts them.
func overloadCampaign(t *testing.T, bin string) {
	rep, err := campaign.Overload(context.Background(), campaign.OverloadConfig{Binary: bin, Dir: t.TempDir(), Seed: 2, Batches: 400,
		Levels: []int{1, 8}, PerLevel: time.Second, IdleCalls: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Log(f)
	}
	if !rep.OK() || len(rep.Levels) != 2 || rep.PeakRSSMiB <= 0 {
		t.Fatalf("overload: ok %v, %d levels, peak RSS %v, %+v", rep.OK(), len(rep.Levels), rep.PeakRSSMiB, rep.Levels)
	}
	for _, l := range rep.Levels {
		if l.Calls == 0 || l.PerSecond <= 0 || l.P99Ms < l.P50Ms || l.HeavyP50Ms <= 0 || l.Errors != 0 {
			t.Fatalf("level %+v", l)
		}
	}
	if rep.Levels[0].Busy != 0 {
		t.Fatalf("one client was refused with E_BUSY %d times", rep.Levels[0].Busy)
	}

	shed, err := campaign.Overload(context.Background(), campaign.OverloadConfig{Binary: bin, Dir: t.TempDir(), Seed: 2, Batches: 400,
		Levels: []int{16}, PerLevel: time.Second, IdleCalls: 5, Heavy: 1, Deadline: 5 * time.Millisecond, HeavyShare: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if l := shed.Levels[0]; l.Busy == 0 || l.BusyRate <= 0 || l.Errors != 0 {
		t.Fatalf("16 clients against one heavy slot and a 5 ms deadline: %+v", l)
	}
}

// The verdict: errors, a level with no calls, or no recovery fail.
func TestOverloadVerdict(t *testing.T) {
	good := campaign.OverloadLevel{Clients: 4, Calls: 10, Busy: 3}
	for _, c := range []struct {
		name string
		rep  campaign.OverloadReport
		ok   bool
	}{
		{"passes", campaign.OverloadReport{Levels: []campaign.OverloadLevel{good}, Recovered: true}, true},
		{"E_BUSY is no error", campaign.OverloadReport{Levels: []campaign.OverloadLevel{{Clients: 64, Calls: 9, Busy: 9}}, Recovered: true}, true},
		{"an error", campaign.OverloadReport{Levels: []campaign.OverloadLevel{good, {Clients: 16, Calls: 5, Errors: 1}}, Recovered: true}, false},
		{"no calls", campaign.OverloadReport{Levels: []campaign.OverloadLevel{{Clients: 1}}, Recovered: true}, false},
		{"not recovered", campaign.OverloadReport{Levels: []campaign.OverloadLevel{good}}, false},
		{"a failure", campaign.OverloadReport{Levels: []campaign.OverloadLevel{good}, Recovered: true, Failures: []string{"x"}}, false},
	} {
		if got := c.rep.OK(); got != c.ok {
			t.Errorf("%s: OK %v, want %v", c.name, got, c.ok)
		}
	}
}
