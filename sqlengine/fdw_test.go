package sqlengine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// versionColumns are the version tables' and the uids table's columns
// (pgstore/schema.sql, migrations) without their keys: a partition on another server has the same rows.
var versionColumns = map[string]string{
	"node_versions": `vid bigint NOT NULL, uid text COLLATE "C" NOT NULL, label text NOT NULL, props jsonb NOT NULL,
  vt_s bigint NOT NULL, vt_e bigint NOT NULL, tt_s bigint NOT NULL, tt_e bigint NOT NULL, opened_by smallint NOT NULL, closed_by smallint NOT NULL`,
	"edge_versions": `vid bigint NOT NULL, src text COLLATE "C" NOT NULL, dst text COLLATE "C" NOT NULL, rel_type text COLLATE "C" NOT NULL,
  disc text COLLATE "C" NOT NULL, props jsonb NOT NULL, vt_s bigint NOT NULL, vt_e bigint NOT NULL, tt_s bigint NOT NULL, tt_e bigint NOT NULL,
  opened_by smallint NOT NULL, closed_by smallint NOT NULL`,
	"uids": `uid text COLLATE "C" NOT NULL, tt bigint NOT NULL`,
}

// distribution are the tables' distribution columns (pgstore/citus.sql).
var distribution = map[string]string{"node_versions": "uid", "edge_versions": "src", "uids": "uid"}

// shardIndexes are the access paths of schema.sql, built on each shard.
var shardIndexes = map[string][]string{
	"node_versions": {"(uid, vt_s)"},
	"edge_versions": {"(src, vt_s)", "(dst, vt_s)", "(vt_s) INCLUDE (vt_e, tt_s, tt_e)", "(src, dst, rel_type, disc)"},
	"uids":          {"(uid)"},
}

func execAll(t *testing.T, ctx context.Context, conn *pgx.Conn, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func connect(t *testing.T, ctx context.Context, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return conn
}

// A sharding rehearsal: the version tables hash-partitioned by their
// distribution columns (uid, src) over two servers, one partition local
// and one a postgres_fdw foreign table on a second loopback cluster. The
// SQL engine's statements over the partitioned tables give the envelopes
// of the in-memory engine, and both servers hold part of every table.
func TestShardedOverPostgresFDW(t *testing.T) {
	a := pgtest.Shared(t)
	b := pgtest.ForTest(t)
	ctx := context.Background()
	ca, cb := connect(t, ctx, a.URL()), connect(t, ctx, b.URL())
	execAll(t, ctx, ca, "CREATE EXTENSION IF NOT EXISTS postgres_fdw",
		fmt.Sprintf("CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '%d', dbname 'postgres')", b.Port),
		"CREATE USER MAPPING FOR CURRENT_USER SERVER shard1 OPTIONS (user 'postgres')")
	answered := 0
	for k := range 3 {
		rng := rand.New(rand.NewPCG(uint64(k)+7, 3))
		hist := oracle.RandomHistory(rng, 6+k)
		src := fmt.Sprintf("fdw_src_%d", k)
		s := writeHistory(t, schemaURL(a, src), hist)
		sharded, remote := fmt.Sprintf("fdw_sharded_%d", k), fmt.Sprintf("fdw_shard1_%d", k)
		execAll(t, ctx, cb, "CREATE SCHEMA "+remote)
		execAll(t, ctx, ca, "CREATE SCHEMA "+sharded,
			// the reference tables stay whole on the coordinator
			fmt.Sprintf("CREATE TABLE %[1]s.tgms_meta AS SELECT * FROM %[2]s.tgms_meta", sharded, src),
			fmt.Sprintf("CREATE TABLE %[1]s.batches AS SELECT * FROM %[2]s.batches", sharded, src))
		for table, cols := range versionColumns {
			col := distribution[table]
			execAll(t, ctx, cb, fmt.Sprintf("CREATE TABLE %s.%s_1 (%s)", remote, table, cols))
			for _, ix := range shardIndexes[table] {
				execAll(t, ctx, cb, fmt.Sprintf("CREATE INDEX ON %s.%s_1 %s", remote, table, ix))
			}
			execAll(t, ctx, ca,
				fmt.Sprintf("CREATE TABLE %s.%s (%s) PARTITION BY HASH (%s)", sharded, table, cols, col),
				fmt.Sprintf("CREATE TABLE %[1]s.%[2]s_0 PARTITION OF %[1]s.%[2]s FOR VALUES WITH (MODULUS 2, REMAINDER 0)", sharded, table),
				fmt.Sprintf("CREATE FOREIGN TABLE %[1]s.%[2]s_1 PARTITION OF %[1]s.%[2]s FOR VALUES WITH (MODULUS 2, REMAINDER 1) SERVER shard1 OPTIONS (schema_name '%[3]s', table_name '%[2]s_1')", sharded, table, remote),
				fmt.Sprintf("INSERT INTO %[1]s.%[2]s SELECT * FROM %[3]s.%[2]s", sharded, table, src))
			for _, ix := range shardIndexes[table] {
				execAll(t, ctx, ca, fmt.Sprintf("CREATE INDEX ON %s.%s_0 %s", sharded, table, ix))
			}
			// Both servers hold rows, and together all of them.
			var local, far, all int64
			ca.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM %s.%s_0", sharded, table)).Scan(&local)
			cb.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM %s.%s_1", remote, table)).Scan(&far)
			ca.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM %s.%s", src, table)).Scan(&all)
			if local == 0 || far == 0 || local+far != all {
				t.Fatalf("history %d, %s: %d rows local and %d on the second server, of %d", k, table, local, far, all)
			}
		}
		e, err := Open(ctx, schemaURL(a, sharded))
		if err != nil {
			t.Fatal(err)
		}
		cs := calls(rng, hist)
		for _, call := range cs {
			if equal(t, ctx, ops.NativeBackend{Src: native{s}}, e, call) {
				answered++
			}
		}
		if k == 0 {
			// The calls read the second server: without its rows, answers change.
			execAll(t, ctx, cb, "DELETE FROM "+remote+".node_versions_1", "DELETE FROM "+remote+".edge_versions_1", "DELETE FROM "+remote+".uids_1")
			n := 0
			for _, call := range cs {
				if differs(ctx, ops.NativeBackend{Src: native{s}}, e, call) {
					n++
				}
			}
			if n == 0 {
				t.Fatal("emptying the foreign partitions changed no answer: the second server is not read")
			}
		}
		e.Close()
		s.Close()
	}
	if answered < 20 {
		t.Fatalf("only %d calls answered with rows", answered)
	}
}

// recorder is a fataler that records a failure instead of stopping.
type recorder struct{ failed bool }

func (r *recorder) Fatal(...any)          { r.failed = true; panic(r) }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic(r) }

// differs reports whether the engines disagree on a call.
func differs(ctx context.Context, nat, sql ops.Backend, call map[string]any) (d bool) {
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil && p != any(r) {
			panic(p)
		}
		d = r.failed
	}()
	equal(r, ctx, nat, sql, call)
	return false
}
