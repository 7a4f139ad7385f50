// Command compatgen runs the plans of the compatibility corpus on the
// compat store and prints, per plan, whether it was admitted and its
// answer's digest. It lives under testdata so the go tool does not build
// it; it builds against any release with the same store API:
//
//	git worktree add /tmp/rel <commit>
//	mkdir /tmp/rel/cmd/compatgen && cp plan/testdata/compat/gen/main.go /tmp/rel/cmd/compatgen/
//	(cd /tmp/rel && go run ./cmd/compatgen $OLDPWD/plan/testdata/compat)
//
// The store it builds must stay the one compat_test.go builds (the test
// checks the digest pinned in answers.json).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func props(s string) bt.Props {
	p, err := bt.ParseProps([]byte(s))
	must(err)
	return p
}

func main() {
	dir, _ := os.MkdirTemp("", "compat")
	defer os.RemoveAll(dir)
	var tick bt.Time
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	must(err)
	defer db.Close()
	_, err = db.Write(bt.AssertNode("acme", "Org", props(`{"name":"ACME Corp"}`), bt.Always))
	must(err)
	_, err = db.Ingest([]bt.Event{
		{Src: "acme", Dst: "a1", RelType: "PAY", VtS: 10},
		{Src: "a1", Dst: "a2", RelType: "PAY", VtS: 20},
		{Src: "a2", Dst: "a3", RelType: "PAY", VtS: 30},
		{Src: "beta", Dst: "a3", RelType: "PAY", VtS: 5},
		{Src: "n1", Dst: "n2", RelType: "MSG", VtS: 1082000000000000},
		{Src: "n2", Dst: "n3", RelType: "MSG", VtS: 1083000000000000},
	}, "Account", nil)
	must(err)
	k := bt.EdgeKey{Src: "x1", Dst: "x2", RelType: "KNOWS", Disc: "k"}
	_, err = db.Write(bt.AssertNode("x1", "Person", props(`{"name":"x one"}`), bt.Always), bt.AssertNode("x2", "Person", props(`{"name":"x two"}`), bt.Always),
		bt.AssertEdge(k, props(`{"w":1}`), bt.Interval{Start: 10, End: 100}))
	must(err)
	_, err = db.Write(bt.Correct(bt.EdgeRef(k), props(`{"w":2}`), bt.Interval{Start: 40, End: 60}))
	must(err)
	_, err = db.Write(bt.Retract(bt.EdgeRef(k), 70))
	must(err)
	st := db.Stats()
	stats := &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	out := map[string]any{}
	files, _ := filepath.Glob(filepath.Join(os.Args[1], "*", "*.json"))
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(err)
		v := plan.ValidateJSON(data, plan.Options{UIDs: []string{"acme", "n1"}, Stats: stats})
		rel, _ := filepath.Rel(os.Args[1], f)
		if !v.Valid {
			b, _ := json.Marshal(v.Violations)
			out[filepath.ToSlash(rel)] = map[string]any{"admitted": false, "violations": string(b)}
			continue
		}
		tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
		d, err := canon.Digest(tr.Answer)
		must(err)
		ans, _ := canon.Marshal(tr.Answer)
		out[filepath.ToSlash(rel)] = map[string]any{"admitted": true, "ok": tr.OK, "answer": string(ans), "answer_digest": d}
	}
	out["_store_digest"] = db.Digest()
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(b))
}
