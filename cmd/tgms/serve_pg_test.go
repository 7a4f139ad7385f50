package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/pgstore"
)

// startServe runs tgms serve with args in this process until t ends, and
// returns its HTTP address once it answers.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var errb bytes.Buffer
	go func() {
		defer close(done)
		root := newRoot(io.Discard, &errb)
		root.SetArgs(append([]string{"serve", "--http", addr}, args...))
		root.ExecuteContext(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(30 * time.Second); ; {
		if resp, err := http.Get("http://" + addr + "/v1/stats"); err == nil {
			resp.Body.Close()
			return addr
		}
		select {
		case <-done:
			t.Fatalf("serve %v ended: %s", args, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve %v did not answer: %s", args, errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// callTool posts args to tool at addr and decodes the answer.
func callTool(t *testing.T, addr, tool string, args map[string]any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(args)
	resp, err := http.Post("http://"+addr+"/v1/"+tool, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return resp.StatusCode, out
}

func replication(t *testing.T, addr string) map[string]any {
	t.Helper()
	code, st := callTool(t, addr, "stats", map[string]any{})
	rep, ok := st["replication"].(map[string]any)
	if code != 200 || !ok {
		t.Fatalf("stats of %s: %d %v", addr, code, st)
	}
	return rep
}

// Two tgms serve replicas of one PostgreSQL store, one of them the writer:
// the same questions get the same result digests on both and on a file
// store replayed from the batches; a write through one is seen by the
// other within a bounded time; stats shows each one's lag; an as_of_tt
// after what a replica applied is refused with E_BEHIND. check, replay
// and export work on the store, and the moves between the two backends
// keep the digest.
func TestServePostgresReplicas(t *testing.T) {
	p := newPGSynth(t, "served")
	c, dir, url, first := p.Cluster, p.Dir, p.URL, p.First
	a := startServe(t, "--store", url, "--allow-writes")
	b := startServe(t, "--store", url, "--replica-checkpoint", filepath.Join(dir, "b.ckpt"))
	if _, err := os.Stat(filepath.Join(dir, "b.ckpt")); err != nil {
		t.Fatalf("the replica wrote no checkpoint: %v", err)
	}

	// The same question on both replicas and on a file store from the batches.
	if out, errs, code := runCLI(t, "replay", "--log", url, "--store", filepath.Join(dir, "file")); code != 0 || !strings.Contains(out, "replayed") {
		t.Fatalf("replay from PostgreSQL: exit %d %s %s", code, out, errs)
	}
	digest, _, _ := runCLI(t, "digest", "--store", url)
	fileDigest, _, _ := runCLI(t, "digest", "--store", filepath.Join(dir, "file"))
	if digest == "" || digest != fileDigest {
		t.Fatalf("digest of the PostgreSQL store %q, of its replay into files %q", digest, fileDigest)
	}
	db, err := tgms.OpenReadOnly(filepath.Join(dir, "file"), nil)
	if err != nil {
		t.Fatal(err)
	}
	q := map[string]any{"uid": first.Src}
	fileEnv, err := ops.Execute(context.Background(), db, "entity_history", q)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{a, b} {
		code, env := callTool(t, addr, "entity_history", q)
		if code != 200 || env["result_digest"] != fileEnv.ResultDigest || int64(env["as_of_tt"].(float64)) != fileEnv.AsOfTT {
			t.Fatalf("entity_history on %s: %d %v; the file store: %s at %d", addr, code, env, fileEnv.ResultDigest, fileEnv.AsOfTT)
		}
	}

	// A write through one is seen by the other.
	code, wr := callTool(t, a, "write_batch", map[string]any{"ops": fmt.Sprintf(`{"op":"assert_edge","src":%q,"dst":"zz-new","rel_type":"KNOWS","vt_s":"2020-01-01T00:00:00Z","vt_e":"2021-01-01T00:00:00Z"}`, first.Src)})
	if code != 200 {
		t.Fatalf("write_batch: %d %v", code, wr)
	}
	tt := int64(wr["tt"].(float64))
	start := time.Now()
	for int64(replication(t, b)["applied_tt"].(float64)) < tt {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the write at tt %d is not on the other replica after 10 s: %v", tt, replication(t, b))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("a write through one replica reached the other in %v", time.Since(start))
	for _, addr := range []string{a, b} {
		rep := replication(t, addr)
		if rep["connected"] != true || int64(rep["database_tt"].(float64)) != tt || rep["behind_us"].(float64) != 0 {
			t.Fatalf("lag of %s: %v", addr, rep)
		}
		code, env := callTool(t, addr, "entity_history", q)
		if code != 200 || int64(env["as_of_tt"].(float64)) != tt {
			t.Fatalf("entity_history on %s after the write: %d %v", addr, code, env)
		}
	}
	// A trace made on one replica reproduces on the other.
	plan := map[string]any{"plan_id": "p", "answer_spec": map[string]any{"kind": "count", "from": "s1.rows_total"},
		"steps": []any{map[string]any{"id": "s1", "op": "entity_history", "args": map[string]any{"uid": first.Src}, "depends_on": []any{}}}}
	code, run := callTool(t, a, "run_plan", map[string]any{"plan": plan, "uids": []any{first.Src}})
	if code != 200 {
		t.Fatalf("run_plan: %d %v", code, run)
	}
	resp0, err := http.Get("http://" + a + "/v1/traces/" + run["trace_digest"].(string))
	if err != nil {
		t.Fatal(err)
	}
	var trace map[string]any
	if err := json.NewDecoder(resp0.Body).Decode(&trace); err != nil {
		t.Fatal(err)
	}
	resp0.Body.Close()
	if code, v := callTool(t, b, "trace_verify", map[string]any{"trace": trace}); code != 200 || v["reproduced"] != true {
		t.Fatalf("trace_verify on the other replica: %d %v", code, v)
	}
	code, resp := callTool(t, b, "entity_history", map[string]any{"uid": first.Src, "as_of_tt": tt + 1_000_000})
	refused, _ := resp["error"].(map[string]any)
	if code != http.StatusBadRequest || refused["code"] != "E_BEHIND" || refused["path"] != "/as_of_tt" || !strings.Contains(fmt.Sprint(refused["message"]), fmt.Sprint(tt)) {
		t.Fatalf("as_of_tt after the applied tt: %d %v", code, resp)
	}

	// check, replay into a new PostgreSQL schema, export and rebuild from the tables.
	if out, errs, code := runCLI(t, "check", "--store", url); code != 0 || !strings.Contains(out, "clean:") {
		t.Fatalf("check: exit %d %s %s", code, out, errs)
	}
	digest, _, _ = runCLI(t, "digest", "--store", url)
	back := c.SchemaURL("back")
	if _, errs, code := runCLI(t, "replay", "--log", filepath.Join(dir, "file", "events.wal"), "--store", back); code != 0 {
		t.Fatalf("replay into PostgreSQL: exit %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, "replay", "--log", filepath.Join(dir, "file", "events.wal"), "--store", back); code != exitInput || !strings.Contains(errs, "already holds") {
		t.Fatalf("replay into a store that has batches: exit %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, "replay", "--log", url, "--store", filepath.Join(dir, "file2")); code != 0 {
		t.Fatalf("replay from PostgreSQL after the write: exit %d %s", code, errs)
	}
	backDigest, _, _ := runCLI(t, "digest", "--store", back)
	file2Digest, _, _ := runCLI(t, "digest", "--store", filepath.Join(dir, "file2"))
	if backDigest != fileDigest || file2Digest != digest {
		t.Fatalf("file → PostgreSQL digest %q want %q; PostgreSQL → file %q want %q", backDigest, fileDigest, file2Digest, digest)
	}
	if _, errs, code := runCLI(t, "export", "--store", url, "--out", filepath.Join(dir, "tables")); code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, "ingest", "--store", filepath.Join(dir, "rebuilt"), "--changes", filepath.Join(dir, "tables", "changes.csv"), "--no-sync"); code != 0 {
		t.Fatalf("ingest of the exported changes: exit %d %s", code, errs)
	}
	if rebuilt, _, _ := runCLI(t, "digest", "--store", filepath.Join(dir, "rebuilt")); rebuilt != digest {
		t.Fatalf("a store rebuilt from the export has digest %q, the PostgreSQL store %q", rebuilt, digest)
	}

	// A damaged batch: check names its tt and exits 5; --repair is refused.
	cfg, _, err := pgstore.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var bad int64
	if err := conn.QueryRow(context.Background(), "UPDATE served.batches SET checksum = (checksum + 1) % 4294967296 WHERE seq = 1 RETURNING tt").Scan(&bad); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runCLI(t, "check", "--store", url); code != exitDamaged || !strings.Contains(out, fmt.Sprintf("error batches@tt=%d: batch at tt %d is damaged", bad, bad)) {
		t.Fatalf("check of a damaged batch: exit %d %s %s", code, out, errs)
	}
	if _, errs, code := runCLI(t, "check", "--store", url, "--repair", "--use-log"); code != exitInput || !strings.Contains(errs, "restore a damaged batches table") {
		t.Fatalf("check --repair of a PostgreSQL store: exit %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, "replay", "--log", url, "--store", filepath.Join(dir, "file3")); code != exitInput || !strings.Contains(errs, "nothing was written") {
		t.Fatalf("replay of a damaged PostgreSQL store: exit %d %s", code, errs)
	}
}
