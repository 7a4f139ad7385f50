package campaign

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

func TestCorruption(t *testing.T) {
	rep, err := Corrupt(context.Background(), CorruptConfig{Trials: 300, Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("writer %v, reader %v", rep.Verdicts, rep.Reader)
	for _, f := range rep.Failures {
		t.Log(f)
	}
	if n := rep.Verdicts[Silent] + rep.Verdicts[LostData] + rep.Reader[Silent] + rep.Reader[LostData]; n != 0 {
		t.Fatalf("%d trials lost or silently changed data", n)
	}
	if rep.Untyped != 0 {
		t.Fatalf("%d refusals do not match ErrStoreDamaged", rep.Untyped)
	}
	if rep.Verdicts[Detected] == 0 || rep.Verdicts[Repaired] == 0 {
		t.Fatalf("the mutations exercised too little: %v", rep.Verdicts)
	}
	// The sample: post-seal stores at least a third, two-file trials,
	// never the LOCK file.
	post := 0
	for st, tl := range rep.ByState {
		if st != "sealed" {
			for _, n := range tl {
				post += n
			}
		}
	}
	if post*3 < rep.Trials || rep.TwoFiles == 0 || rep.ByFile["LOCK"] != nil || rep.ByFile["two files"] == nil {
		t.Fatalf("post-seal trials %d of %d, two-file trials %d, by file %v", post, rep.Trials, rep.TwoFiles, rep.ByFile)
	}
}

// naiveOpen replays whatever prefix of the log reads, ignoring the
// checkpoint, the seal and every error, without a warning: the campaign
// must find it SILENT.
func naiveOpen(dir string) (string, []string, error) {
	s := engine.New()
	eventlog.ReadFile(filepath.Join(dir, tgms.LogFile), func(r *eventlog.Record, _ int64) error {
		eff, err := bt.Plan(s, r.TT, r.Seq, r.Ops)
		if err != nil {
			return err
		}
		return s.Apply(eff)
	})
	return s.Digest(), nil, nil
}

func TestCorruptionCatchesSilentDamage(t *testing.T) {
	rep, err := Corrupt(context.Background(), CorruptConfig{Trials: 200, Seed: 2, Dir: t.TempDir(), Open: naiveOpen})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdicts[Silent] == 0 {
		t.Fatalf("a store that ignores damage was not caught: %v", rep.Verdicts)
	}
}

func TestDiskFull(t *testing.T) {
	rep, err := DiskFull(context.Background(), DiskFullConfig{Trials: 120, Seed: 3, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d write calls; %v", rep.WriteCalls, rep.Outcomes)
	for _, f := range rep.Failures {
		t.Log(f)
	}
	if rep.Outcomes[string(OK)] != rep.Trials || rep.Unclear != 0 {
		t.Fatalf("outcomes %v, unclear errors %d", rep.Outcomes, rep.Unclear)
	}
}

func TestDiskFullCatchesIgnoredErrors(t *testing.T) {
	rep, err := DiskFull(context.Background(), DiskFullConfig{Trials: 40, Seed: 3, Dir: t.TempDir(), IgnoreErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcomes[string(Lost)] == 0 {
		t.Fatalf("a writer that acknowledges failed writes was not caught: %v", rep.Outcomes)
	}
}
