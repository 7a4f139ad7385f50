package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// tgms write --dry-run prints the contract's verdict and writes nothing; a
// batch with a provenance line is checked before it is written, and its
// provenance shows in the history rows.
func TestWriteDryRunAndProvenance(t *testing.T) {
	store := smallStore(t)
	digest, _, _ := runCLI(t, "digest", "--store", store)
	dir := t.TempDir()
	bad := write(t, dir, "bad.jsonl", `{"provenance":{"authority":"model","actor":"agent"}}
{"op":"assert_edge","src":"a","dst":"nobody","rel_type":"KNOWS"}
{"op":"assert_node","uid":"b"}
`)
	out, _, code := runCLI(t, "write", "--store", store, "--ops", bad, "--dry-run")
	if code != exitRejected {
		t.Fatalf("dry run of a refused batch: exit %d, want %d", code, exitRejected)
	}
	var res struct {
		Admitted   bool
		Violations []struct{ Rule, Path string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Admitted || len(res.Violations) != 2 || res.Violations[0].Rule != "entity.unknown" || res.Violations[0].Path != "/ops/0/dst" ||
		res.Violations[1].Rule != "belief.implicit" {
		t.Fatalf("verdict %+v", res)
	}
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", bad); code != exitRejected || !strings.Contains(errs, "write contract refused") {
		t.Fatalf("write of a refused batch: exit %d: %s", code, errs)
	}
	if now, _, _ := runCLI(t, "digest", "--store", store); now != digest {
		t.Fatal("a refused or dry-run batch changed the store")
	}
	good := write(t, dir, "good.jsonl", `{"provenance":{"authority":"user","actor":"dana","ref":"msg-3"}}
{"op":"assert_edge","src":"a","dst":"b","rel_type":"KNOWS","vt_s":5}
`)
	if out, errs, code := runCLI(t, "write", "--store", store, "--ops", good, "--dry-run"); code != 0 || !strings.Contains(out, `"admitted": true`) {
		t.Fatalf("dry run of a good batch: exit %d: %s %s", code, out, errs)
	}
	if now, _, _ := runCLI(t, "digest", "--store", store); now != digest {
		t.Fatal("a dry run changed the store")
	}
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", good); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	out, errs, code := runCLI(t, "call", "--store", store, "entity_history", `{"uid":"a","include_edges":true}`)
	if code != 0 || !strings.Contains(out, `"provenance":{"actor":"dana","authority":"user","ref":"msg-3"}`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	hdr := write(t, dir, "late.jsonl", `{"op":"assert_node","uid":"z"}
{"provenance":{"authority":"user"}}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", hdr); code != exitInput {
		t.Fatalf("a provenance line after the ops: exit %d: %s", code, errs)
	}
}
