package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/pgstore"
)

// ingest, write, stats and digest on a PostgreSQL store: the digest equals
// a file store's built from the same batches; a repeated ingest, a second
// writer and a wrong password are refused as for files.
func TestPostgresStoreCommands(t *testing.T) {
	c := pgtest.ForTest(t)
	dir := t.TempDir()
	url := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&schema=cli", c.Port)
	f, err := os.Create(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: 2_000, Seed: 3}, func(ch []bt.Event) error {
		return datasets.WriteEventsJSONL(f, ch)
	}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if out, errs, code := runCLI(t, "ingest", "--events", f.Name(), "--store", url); code != 0 || !strings.Contains(out, "ingested") {
		t.Fatalf("ingest: exit %d %s %s", code, out, errs)
	}
	if _, errs, code := runCLI(t, "ingest", "--events", f.Name(), "--store", url); code != exitInput || !strings.Contains(errs, "already ingested") {
		t.Fatalf("repeated ingest: exit %d %s", code, errs)
	}
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"a","label":"Person","props":{"name":"Ada"}}
{"op":"assert_edge","src":"a","dst":"n1","rel_type":"KNOWS","vt_s":"2020-01-01T00:00:00Z","vt_e":"2021-01-01T00:00:00Z"}
`)
	if out, errs, code := runCLI(t, "write", "--store", url, "--ops", ops); code != 0 || !strings.Contains(out, "wrote 2 ops") {
		t.Fatalf("write: exit %d %s %s", code, out, errs)
	}
	digest, errs, code := runCLI(t, "digest", "--store", url)
	if code != 0 {
		t.Fatalf("digest: exit %d %s", code, errs)
	}
	out, errs, code := runCLI(t, "stats", "--json", "--store", url)
	var st storeStats
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Batches != 2 || st.Digest != strings.TrimSpace(digest) {
		t.Fatalf("stats: exit %d %s %s", code, out, errs)
	}

	// A file store replaying the batches table has the same digest.
	ctx := context.Background()
	cfg, _, err := pgstore.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	db, err := tgms.Open(filepath.Join(dir, "file"), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, _ := conn.Query(ctx, "SELECT payload FROM cli.batches ORDER BY tt")
	var payload []byte
	if _, err := pgx.ForEachRow(rows, []any{&payload}, func() error {
		rec, err := eventlog.DecodeRecord(payload)
		if err != nil {
			return err
		}
		return db.WriteAt(rec.TT, rec.Ops)
	}); err != nil {
		t.Fatal(err)
	}
	if want := db.Digest(); strings.TrimSpace(digest) != want {
		t.Fatalf("digest of the PostgreSQL store %s, of a file store from its batches %s", digest, want)
	}

	// A second writer is refused with exit 4, naming the holder.
	w, err := pgstore.Open(ctx, url, pgstore.Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, "write", "--store", url, "--ops", ops); code != exitInUse || !strings.Contains(errs, "application_name \"tgms pid") {
		t.Fatalf("write beside a writer: exit %d %s", code, errs)
	}
	w.Close()

	// A batch row whose checksum is wrong is refused with its tt (exit 5).
	var tt int64
	if err := conn.QueryRow(ctx, "UPDATE cli.batches SET checksum = (checksum + 1) % 4294967296 WHERE seq = 2 RETURNING tt").Scan(&tt); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, "digest", "--store", url); code != exitDamaged || !strings.Contains(errs, fmt.Sprintf("batch at tt %d is damaged", tt)) {
		t.Fatalf("digest of a store with a wrong checksum: exit %d %s", code, errs)
	}

	// A password is never printed.
	bad := fmt.Sprintf("postgres://postgres:s3cretpw@127.0.0.1:%d/nosuchdb?sslmode=disable", c.Port)
	if _, errs, code := runCLI(t, "stats", "--store", bad); code == 0 || strings.Contains(errs, "s3cretpw") {
		t.Fatalf("stats of a missing database: exit %d %s", code, errs)
	}
}
