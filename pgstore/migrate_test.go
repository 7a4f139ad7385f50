package pgstore

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/internal/pgtest"
)

func hasTrigger(t *testing.T, conn *pgx.Conn) bool {
	t.Helper()
	var ok bool
	if err := conn.QueryRow(context.Background(), "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'batches'::regclass AND tgname = 'batches_notify')").Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

// schema.sql is version 1 as released: a change to the tables goes into a
// new migration, so that stores created by every release keep opening.
func TestSchemaV1Frozen(t *testing.T) {
	b, err := os.ReadFile("testdata/schema_v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != schemaSQL {
		t.Fatal("schema.sql differs from schema version 1 as released (testdata/schema_v1.sql): put the change in migrations/NNNN_name.sql and raise SchemaVersion")
	}
}

// A store created at schema version 1 opens read-only as it is, is
// followed by polling, is migrated by the next writer to the current
// version with the same digest and tables, and is then followed by
// notification.
func TestMigrationFromVersion1(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "mig1")
	events, writes := synthSmall(t)
	old := openPG(t, url, Options{Write: true, schemaUpTo: 1})
	if _, err := old.Ingest(context.Background(), events, "Node", nil); err != nil {
		t.Fatal(err)
	}
	for _, ops := range writes[:5] {
		old.Write(context.Background(), ops...)
	}
	want := old.Digest()
	old.Close()
	conn := adminConn(t, url)
	if trig := hasTrigger(t, conn); trig {
		t.Fatal("a version 1 store has the notify trigger")
	}
	ro := openPG(t, url, Options{})
	if ro.SchemaVersion() != 1 || ro.Digest() != want {
		t.Fatalf("read-only open of a version 1 store: version %d, digest %s want %s", ro.SchemaVersion(), ro.Digest(), want)
	}
	r, err := OpenReplica(context.Background(), url, ReplicaOptions{Poll: 100 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if res, err := Check(context.Background(), url); err != nil || !res.Clean() || res.SchemaVersion != 1 || !strings.Contains(res.Findings[0].Message, "migrates it") {
		t.Fatalf("check of a version 1 store: %v %+v", err, res)
	}

	w := openPG(t, url, Options{Write: true})
	if w.SchemaVersion() != SchemaVersion {
		t.Fatalf("the writer opened schema version %d", w.SchemaVersion())
	}
	if w.Digest() != want || tableDigest(t, url) != want {
		t.Fatalf("after the migration: digest %s, tables %s, want %s", w.Digest(), tableDigest(t, url), want)
	}
	var version int
	if err := conn.QueryRow(context.Background(), "SELECT schema_version FROM tgms_meta").Scan(&version); err != nil || version != SchemaVersion {
		t.Fatalf("schema_version %d after the migration (%v), want %d", version, err, SchemaVersion)
	}
	if !hasTrigger(t, conn) {
		t.Fatal("the migration did not add the notify trigger")
	}
	tt, err := w.Write(context.Background(), writes[5]...)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, r, tt, visibleWithin)
	if r.Digest() != w.Digest() {
		t.Fatal("the replica's digest differs after the migration")
	}
	if res, err := Check(context.Background(), url); err != nil || !res.Clean() || res.SchemaVersion != SchemaVersion {
		t.Fatalf("check after the migration: %v %+v", err, res)
	}
}

// A store of a later schema version is refused by readers and writers,
// and left as it is.
func TestNewerSchemaRefused(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "newer")
	w := openPG(t, url, Options{Write: true})
	if _, err := w.Ingest(context.Background(), synthEvents(t, 50, 3), "Node", nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	conn := adminConn(t, url)
	if _, err := conn.Exec(context.Background(), "UPDATE tgms_meta SET schema_version = 99"); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{{}, {Write: true}} {
		if s, err := Open(context.Background(), url, opt); err == nil || !strings.Contains(err.Error(), "schema version 99") || !strings.Contains(err.Error(), "upgrade tgms") {
			if s != nil {
				s.Close()
			}
			t.Fatalf("open (write %v) of a version 99 store: %v", opt.Write, err)
		}
	}
	if _, err := Check(context.Background(), url); err == nil || !strings.Contains(err.Error(), "upgrade tgms") {
		t.Fatalf("check of a version 99 store: %v", err)
	}
}
