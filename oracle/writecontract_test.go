package oracle_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/oracle"
	"github.com/tgms-go/tgms/writecheck"
	"pgregory.net/rapid"
)

func (g *genHistory) provenance() *bt.Provenance {
	switch rapid.IntRange(0, 7).Draw(g.t, "prov") {
	case 0:
		return nil
	case 1:
		return &bt.Provenance{Authority: bt.AuthSystem} // the default, spelled out
	}
	a := rapid.SampledFrom([]bt.Authority{bt.AuthUser, bt.AuthUser, bt.AuthModel, bt.AuthModel, bt.AuthModel, bt.AuthImport, bt.AuthSystem}).Draw(g.t, "authority")
	return &bt.Provenance{Authority: a, Actor: rapid.SampledFrom([]string{"", "dana", "agent-1"}).Draw(g.t, "actor"),
		Ref: rapid.SampledFrom([]string{"", "msg-1"}).Draw(g.t, "ref")}
}

// Random batches with provenance: the write contract (writecheck, over the
// model store and over the engine) and the naive model's reading of it
// agree on every refusal; then the three stores, written with the same
// batches, hold the same versions with the same provenance and digests.
func TestWriteContractMatchesModel(t *testing.T) {
	seen := map[string]int{}
	admitted := 0
	rapid.Check(t, func(rt *rapid.T) {
		g := &genHistory{t: rt, uids: []string{"a", "b", "c"}}
		naive, model, eng := oracle.NewWrites(), bt.NewMemStore(), engine.New()
		seq := 1
		// In half the histories a person and an agent take turns, so that
		// model batches meet users' facts.
		turns := rapid.Bool().Draw(rt, "turns")
		for bi := range rapid.IntRange(1, 8).Draw(rt, "batches") {
			tt := bt.Time(10 * (bi + 1))
			ops := make([]bt.Op, rapid.IntRange(1, 3).Draw(rt, "ops"))
			for i := range ops {
				ops[i] = g.op(seq)
			}
			b := bt.Batch{Ops: ops, Prov: g.provenance(), Override: rapid.IntRange(0, 5).Draw(rt, "override") == 0}
			if turns {
				b.Prov = &bt.Provenance{Authority: []bt.Authority{bt.AuthUser, bt.AuthModel}[bi%2], Actor: "turn"}
			}
			want, refusedAt := naive.CheckWrite(b)
			resM := writecheck.Check(model, tt, model.Batches+1, b)
			resE := writecheck.Check(eng, tt, eng.Batches()+1, b)
			jm, _ := json.Marshal(resM)
			je, _ := json.Marshal(resE)
			if string(jm) != string(je) {
				rt.Fatalf("the contract over the model store and over the engine differ:\n%s\n%s", jm, je)
			}
			var got []string
			for _, v := range resM.Violations {
				if v.Op > refusedAt {
					continue
				}
				path := v.Path
				if v.Rule == writecheck.RulePlan {
					path = fmt.Sprintf("/ops/%d", v.Op)
				}
				got = append(got, v.Rule+"@"+path)
				seen[v.Rule]++
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				rt.Fatalf("batch %d %+v (prov %+v override %v):\n contract %q\n model    %q", bi, ops, b.Prov, b.Override, got, want)
			}
			if resM.Admitted != (len(want) == 0) {
				rt.Fatalf("admitted %v, the model says %q", resM.Admitted, want)
			}
			if resM.Admitted {
				admitted++
			}
			// The write semantics, with provenance, whatever the contract said.
			errN := naive.WriteBatch(tt, "", b)
			errM := model.WriteBatch(tt, "", b)
			if code(errN) != code(errM) {
				rt.Fatalf("naive %v, model store %v", errN, errM)
			}
			if resM.Admitted && errM != nil {
				rt.Fatalf("admitted by the contract, refused by the store: %v", errM)
			}
			if errM == nil {
				eff, err := bt.Plan(eng, tt, eng.Batches()+1, ops)
				if err != nil {
					rt.Fatal(err)
				}
				p := bt.Resolve(b.Prov, "", ops)
				eff.Prov = &p
				if err := eng.Apply(eff); err != nil {
					rt.Fatal(err)
				}
				seq++
			}
			gotN := oracle.VersionSet(naive.Nodes, naive.Edges)
			gotM := oracle.VersionSet(model.Nodes, model.Edges)
			if string(gotN) != string(gotM) {
				rt.Fatalf("after batch %d:\n naive %s\n model %s", bi, gotN, gotM)
			}
			var en []bt.NodeVersion
			for i := range eng.NumNodeVersions() {
				en = append(en, eng.NodeVersion(i))
			}
			var ee []bt.EdgeVersion
			for v := range uint32(eng.NumEdgeVersions()) {
				ee = append(ee, eng.EdgeVersion(v))
			}
			if gotE := oracle.VersionSet(en, ee); string(gotE) != string(gotM) {
				rt.Fatalf("after batch %d:\n engine %s\n model  %s", bi, gotE, gotM)
			}
			if d := model.Digest(); d != eng.Digest() || d != naiveDigest(naive) {
				rt.Fatalf("digests differ: model %s engine %s naive %s", d, eng.Digest(), naiveDigest(naive))
			}
		}
	})
	for _, r := range []string{writecheck.RuleUnknown, writecheck.RuleImplicit, writecheck.RuleOverride, writecheck.RulePropType, writecheck.RulePlan} {
		if seen[r] < 5 {
			t.Errorf("rule %s seen %d times: the generator must reach every rule", r, seen[r])
		}
	}
	if admitted < 20 {
		t.Errorf("only %d admitted batches", admitted)
	}
	t.Logf("violations by rule %v; admitted batches %d", seen, admitted)
}
