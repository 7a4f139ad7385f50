package peers

import (
	"strings"
	"testing"
	"time"
)

// TestTimeRounds checks the round structure: when any system is fast
// enough to be timed hot, every system runs once more right before each
// timed run (cold and hot figures for all), and with two systems each
// round starts with the one that did not end the round before, so that
// every first run follows the other system's.
func TestTimeRounds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		hotBelow time.Duration
		want     string
	}{
		{"cold", 0, "ab|ab|ab"},
		{"hot on every system", time.Second, "aabb|aabb|aabb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls strings.Builder
			mk := func(name string, took time.Duration) timedRun {
				return timedRun{name: name, took: took, run: func() error { calls.WriteString(name); return nil }}
			}
			runs := []timedRun{mk("a", time.Millisecond), mk("b", 2*time.Second)}
			if err := timeRounds(runs, Options{Reps: 3, MinReps: 3, HotBelow: tc.hotBelow}); err != nil {
				t.Fatal(err)
			}
			got := calls.String()
			if want := strings.ReplaceAll(tc.want, "|", ""); got != want {
				t.Errorf("calls %q, want %q", got, want)
			}
			for _, r := range runs {
				if len(r.times) != 3 {
					t.Errorf("%s: %d timed runs, want 3", r.name, len(r.times))
				}
				wantFirst := 0
				if tc.hotBelow > 0 {
					wantFirst = 3
				}
				if len(r.first) != wantFirst {
					t.Errorf("%s: %d first runs, want %d", r.name, len(r.first), wantFirst)
				}
			}
		})
	}
}

// TestTimeRoundsRotates checks that successive rounds start with a
// different system.
func TestTimeRoundsRotates(t *testing.T) {
	var order strings.Builder
	mk := func(name string) timedRun {
		return timedRun{name: name, run: func() error { order.WriteString(name); return nil }}
	}
	runs := []timedRun{mk("a"), mk("b"), mk("c")}
	if err := timeRounds(runs, Options{Reps: 3, MinReps: 3}); err != nil {
		t.Fatal(err)
	}
	if got, want := order.String(), "abcbcacab"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if got := median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("median = %v, want 2", got)
	}
	if got := median(nil); got != 0 {
		t.Errorf("median(nil) = %v, want 0", got)
	}
}
