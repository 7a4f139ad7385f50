package tgms_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"testing"

	tgms "github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/oracle"
	"pgregory.net/rapid"
)

// The digest after an erase is the model store's digest with the erased
// versions' contents replaced by their hashes (an independent model of
// tombstones), on random histories; reopening (checkpoint) and a full
// replay give it too.
func TestErasePropertyMatchesModel(t *testing.T) {
	// Each check erases through fsynced files: 25 by default keep the test
	// to seconds; -rapid.checks or RAPID_CHECKS asks for more.
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	if _, env := os.LookupEnv("RAPID_CHECKS"); !explicit && !env {
		flag.Set("rapid.checks", "25")
		defer flag.Set("rapid.checks", "100")
	}
	erased := 0
	defer func() {
		if erased < 10 {
			t.Errorf("only %d random histories reached an erase", erased)
		}
	}()
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		hist := oracle.RandomHistory(rand.New(rand.NewPCG(seed, 7)), rapid.IntRange(2, 12).Draw(rt, "batches"))
		dir := t.TempDir()
		db, err := tgms.Open(dir, &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
		if err != nil {
			rt.Fatal(err)
		}
		defer db.Close()
		m := bt.NewMemStore()
		for _, b := range hist {
			if err := m.Write(b.TT, b.Ops); err != nil {
				continue
			}
			if err := db.WriteAt(b.TT, b.Ops); err != nil {
				rt.Fatalf("the model took batch at tt %d, the store refused it: %v", b.TT, err)
			}
		}
		if db.Digest() != m.Digest() {
			rt.Skip("the store and the model differ before any erase (another test's subject)")
		}
		var uids []string
		for _, n := range m.Nodes {
			uids = append(uids, n.UID)
		}
		if len(uids) == 0 {
			rt.Skip("no node versions")
		}
		uid := rapid.SampledFrom(uids).Draw(rt, "uid")
		edges := rapid.Bool().Draw(rt, "edges")
		for i := range m.Nodes {
			if v := &m.Nodes[i]; v.UID == uid {
				v.Erased, v.Label, v.Props = bt.ContentHash(v.Label, v.Props), "", ""
			}
		}
		if edges {
			for i := range m.Edges {
				if v := &m.Edges[i]; v.Key.Src == uid || v.Key.Dst == uid {
					v.Erased, v.Props = bt.EdgeContentHash(v.Props), ""
				}
			}
		}
		want := m.Digest()
		res, err := db.Erase(uid, edges)
		if err != nil {
			rt.Fatal(err)
		}
		erased++
		if res.Digest != want || db.Digest() != want {
			rt.Fatalf("erase of %s (edges %v): digest %s, the model's %s", uid, edges, res.Digest, want)
		}
		if err := db.Close(); err != nil {
			rt.Fatal(err)
		}
		chk, err := tgms.Check(dir, true, nil)
		if err != nil || !chk.Clean() || chk.Digest != want || chk.ReplayDigest != want {
			rt.Fatalf("check --full: %v; digest %s replay %s want %s; %v", err, chk.Digest, chk.ReplayDigest, want, chk.Findings)
		}
	})
}
