package campaign

import (
	"fmt"
	"path/filepath"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// Outcome of one crash or disk-full trial.
type Outcome string

// Outcomes of crash and disk-full trials.
const (
	OK         Outcome = "OK"          // a prefix with every acknowledged batch, digest = replay of the log
	Lost       Outcome = "LOST"        // an acknowledged batch is missing
	Torn       Outcome = "TORN"        // the state is no prefix of the workload (a half-applied batch)
	NoReplay   Outcome = "NO_REPLAY"   // the digest differs from a replay of the recovered log
	OpenFailed Outcome = "OPEN_FAILED" // the store does not reopen
	Hang       Outcome = "HANG"        // the writer did not finish in time
)

// Outcomes lists every outcome, in report order.
var Outcomes = []Outcome{OK, Lost, Torn, NoReplay, OpenFailed, Hang}

// recovered reopens the store at dir after a trial and judges it against
// the workload, given how many batches were acknowledged.
func (w *Workload) recovered(dir string, acked int) (Outcome, string) {
	db, err := tgms.Open(dir, ptr(StoreOptions(nil)))
	if err != nil {
		return OpenFailed, err.Error()
	}
	b := int(db.Stats().Batches)
	digest := db.Digest()
	if err := db.Close(); err != nil {
		return OpenFailed, "close after reopen: " + err.Error()
	}
	switch {
	case b < acked:
		return Lost, fmt.Sprintf("%d batches after %d were acknowledged", b, acked)
	case b > len(w.Batches) || digest != w.Digests[b]:
		return Torn, fmt.Sprintf("%d batches, but the digest is not the workload's after %d batches", b, b)
	}
	if d, err := replayDigest(filepath.Join(dir, tgms.LogFile)); err != nil || d != digest {
		return NoReplay, fmt.Sprintf("replay of the log: %v", err)
	}
	return OK, ""
}

// replayDigest replays a whole log into a fresh engine.
func replayDigest(path string) (string, error) {
	s := engine.New()
	err := eventlog.ReadFile(path, func(r *eventlog.Record, _ int64) error {
		eff, err := bt.Plan(s, r.TT, r.Seq, r.Ops)
		if err != nil {
			return err
		}
		prov := r.Provenance()
		eff.Prov = &prov
		return s.Apply(eff)
	})
	return s.Digest(), err
}

func ptr[T any](v T) *T { return &v }

// Tally counts outcomes or verdicts.
type Tally map[string]int

func (t Tally) add(k string) { t[k]++ }
