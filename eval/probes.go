package eval

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
)

// ProbeNote is the note property that marks a correction-probe version.
const ProbeNote = "correction probe"

// probeProps are the props a correction probe writes.
const probeProps = `{"note":"correction probe","revised":true}`

// FindProbes lists the correction probes a store holds, one per node, in
// transaction-time order: node versions written by a correction whose props
// carry note = "correction probe", believed at the reader's pinned time or
// (when a later write carved them) the earlier versions they continue.
func FindProbes(r engine.Reader) []Probe {
	var out []Probe
	st := r.Store()
	for id := range uint32(r.NumNodes()) {
		if !r.Known(id) {
			continue
		}
		first, ok := firstProbeVersion(r.NodeHistory(id))
		if !ok {
			continue
		}
		// A later correction over the probe's interval closes the probe
		// version and leaves remainders with a later tt: walk back to the
		// batch that first wrote the note.
		for first.TTs > 0 {
			earlier, ok := firstProbeVersion(st.Reader(first.TTs - 1).NodeHistory(id))
			if !ok {
				break
			}
			first = earlier
		}
		seq := st.SeqAt(first.TTs)
		before := bt.Time(0)
		if seq > 0 {
			before = st.BatchTT(uint64(seq) - 1)
		}
		out = append(out, Probe{UID: first.UID, TTBefore: before, TTAfter: first.TTs, VtS: first.Valid.Start, VtE: first.Valid.End})
	}
	slices.SortStableFunc(out, func(a, b Probe) int { return cmp.Or(cmp.Compare(a.TTAfter, b.TTAfter), cmp.Compare(a.UID, b.UID)) })
	return out
}

// firstProbeVersion returns the probe version with the earliest tt_s (then
// valid start) among versions.
func firstProbeVersion(versions []bt.NodeVersion) (bt.NodeVersion, bool) {
	var best bt.NodeVersion
	found := false
	for _, v := range versions {
		if v.CreatedBy != bt.OpCorrect || !isProbeProps(v.Props) {
			continue
		}
		if !found || v.TTs < best.TTs || (v.TTs == best.TTs && v.Valid.Start < best.Valid.Start) {
			best, found = v, true
		}
	}
	return best, found
}

func isProbeProps(p bt.Props) bool {
	if p == "" {
		return false
	}
	v, err := canon.Parse([]byte(p))
	if err != nil {
		return false
	}
	m, _ := v.(map[string]any)
	return m["note"] == ProbeNote
}

// ProbeTTStep is the transaction-time distance between the store's last
// batch and the first correction probe, and between one probe and the
// next: probes are written at times derived from the store, never from the
// clock, so one store and one seed always give the same suite.
const ProbeTTStep bt.Time = 1_000_000 // one second

// injectCorrections reuses the store's correction probes, or writes n new
// ones: nodes drawn from the context, each corrected over an interior
// valid interval in a batch of its own, at the previous batch's
// transaction time plus ProbeTTStep.
func (g *gen) injectCorrections(rng *rand.Rand, n int) ([]Probe, bool, error) {
	var existing []Probe
	g.db.Read(g.asOf, func(r engine.Reader) error {
		existing = FindProbes(r)
		return nil
	})
	if len(existing) > 0 {
		return existing, true, nil
	}
	if n <= 0 {
		return nil, false, nil
	}
	cands := slices.Clone(g.uids)
	var probes []Probe
	props, err := bt.ParseProps([]byte(probeProps))
	if err != nil {
		return nil, false, err
	}
	for i := 0; i < len(cands) && len(probes) < n; i++ {
		j := i + rng.IntN(len(cands)-i)
		cands[i], cands[j] = cands[j], cands[i]
		uid := cands[i]
		var first bt.Time
		var found bool
		g.db.Read(bt.OpenEnd, func(r engine.Reader) error {
			if id, ok := r.Node(uid); ok {
				if h := r.NodeHistory(id); len(h) > 0 {
					first, found = h[0].Valid.Start, true
				}
			}
			return nil
		})
		if !found {
			continue
		}
		lo := max(first, g.t0)
		hi := max(lo+2, g.t1)
		vs := lo + rng.Int64N(max(1, (hi-lo)/2))
		ve := vs + max(2, g.span/10)
		before := g.db.LastTT()
		after := before + ProbeTTStep
		if err := g.db.WriteAt(after, []bt.Op{bt.Correct(bt.NodeRef(uid), props, bt.Interval{Start: vs, End: ve})}); err != nil {
			return nil, false, fmt.Errorf("eval: writing the correction probe of %s: %w", uid, err)
		}
		probes = append(probes, Probe{UID: uid, TTBefore: before, TTAfter: after, VtS: vs, VtE: ve})
	}
	return probes, false, nil
}

// probeTasks asks, per probe, how many versions of the node were believed
// just before the correction and how many are believed now. A pair is kept
// only when both golds exist and differ.
func (g *gen) probeTasks(probes []Probe) ([]Task, error) {
	var out []Task
	for i, pr := range probes {
		var pair []Task
		for _, mode := range []string{"before", "now"} {
			x := pr.UID
			args := map[string]any{"uid": x, "limit": rowLimit}
			var q string
			if mode == "before" {
				args["as_of_tt"] = pr.TTBefore
				q = para(i,
					fmt.Sprintf("As of transaction time %s, how many versions of node %s did the store believe?", ts(pr.TTBefore), x),
					fmt.Sprintf("Believing what we believed at %s, how many versions did node %s have?", ts(pr.TTBefore), x),
					fmt.Sprintf("What was the number of node versions of %s as of belief time %s?", x, ts(pr.TTBefore)))
			} else {
				q = para(i,
					fmt.Sprintf("Under current belief, how many versions of node %s does the store hold?", x),
					fmt.Sprintf("How many versions does node %s have now?", x),
					fmt.Sprintf("What is the number of node versions of %s now?", x))
			}
			name := "probe-" + mode
			d := &draft{
				question: q,
				uids:     []string{x},
				steps: []step{
					mkStep("s1", "entity_history", args),
					mkStep("s2", "compute", map[string]any{"fn": "count", "input": ref("s1.rows")}, "s1"),
				},
				from:   "s2.value",
				planID: fmt.Sprintf("probe-%s-%d", mode, i),
				taskID: fmt.Sprintf("%s-probe-%s-%03d", g.cfg.Dataset, mode, i),
			}
			g.report.Attempts[name]++
			t, reason, err := g.oracle(FamilyProbe, name, KindCount, "hard", d, i)
			if err != nil {
				return nil, err
			}
			if t == nil {
				g.skip(name, reason)
				continue
			}
			pair = append(pair, *t)
		}
		switch {
		case len(pair) != 2:
			g.skip("probe-pair", "half missing")
		case canon.Equal(pair[0].Gold, pair[1].Gold):
			g.skip("probe-pair", "golds equal")
		default:
			out = append(out, pair...)
		}
	}
	return out, nil
}

// Basis names the store a suite's gold was computed on. Generation never
// writes into the store it reads: its correction probes go into a copy
// (see tgms tasks), and the suite records the digest of the original
// (BaseDigest), the probes written into the copy, and the copy's digest
// afterwards (Digest). ApplyProbes rebuilds that state from the original.
type Basis struct {
	BaseDigest string  `json:"base_digest"`
	Digest     string  `json:"digest"`
	Probes     []Probe `json:"probes"` // written by this generation, in order
}

func (b *Basis) value() map[string]any {
	probes := make([]any, len(b.Probes))
	for i, p := range b.Probes {
		probes[i] = map[string]any{"uid": p.UID, "tt_before": p.TTBefore, "tt_after": p.TTAfter, "vt_s": p.VtS, "vt_e": p.VtE}
	}
	return map[string]any{"base_digest": b.BaseDigest, "digest": b.Digest, "probes": probes}
}

func readBasis(v any) (*Basis, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	b := &Basis{}
	b.BaseDigest, _ = m["base_digest"].(string)
	b.Digest, _ = m["digest"].(string)
	if b.BaseDigest == "" || b.Digest == "" {
		return nil, fmt.Errorf("base_digest and digest are required")
	}
	list, ok := m["probes"].([]any)
	if !ok {
		return nil, fmt.Errorf("probes must be a list")
	}
	for i, e := range list {
		pm, ok := e.(map[string]any)
		uid, _ := pm["uid"].(string)
		if !ok || uid == "" {
			return nil, fmt.Errorf("probes[%d]: not a probe", i)
		}
		p := Probe{UID: uid}
		for _, f := range []struct {
			key string
			dst *bt.Time
		}{{"tt_before", &p.TTBefore}, {"tt_after", &p.TTAfter}, {"vt_s", &p.VtS}, {"vt_e", &p.VtE}} {
			x, ok := pm[f.key].(int64)
			if !ok {
				return nil, fmt.Errorf("probes[%d]: %s must be an integer", i, f.key)
			}
			*f.dst = x
		}
		b.Probes = append(b.Probes, p)
	}
	return b, nil
}

// Writer is what ApplyProbes writes through (tgms.DB satisfies it).
type Writer interface {
	WriteAt(tt bt.Time, ops []bt.Op) error
}

// ApplyProbes writes probes into db, each in a batch of its own at the
// transaction time it had when the suite was generated, so that a copy of
// the original store reaches the suite's Basis.Digest.
func ApplyProbes(db Writer, probes []Probe) error {
	props, err := bt.ParseProps([]byte(probeProps))
	if err != nil {
		return err
	}
	for _, p := range probes {
		op := bt.Correct(bt.NodeRef(p.UID), props, bt.Interval{Start: p.VtS, End: p.VtE})
		if err := db.WriteAt(p.TTAfter, []bt.Op{op}); err != nil {
			return fmt.Errorf("eval: re-applying the correction probe of %s at tt %d: %w", p.UID, p.TTAfter, err)
		}
	}
	return nil
}
