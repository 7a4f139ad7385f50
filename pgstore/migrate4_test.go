package pgstore

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/internal/pgtest"
)

func hasIdentityIndex(t *testing.T, conn *pgx.Conn) bool {
	t.Helper()
	var ok bool
	if err := conn.QueryRow(context.Background(), "SELECT to_regclass('edge_versions_identity_end') IS NOT NULL").Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

// A store of schema version 3 opens read-only as it is; the next writer
// migrates it to version 4 (the identity index) in one transaction, with
// the same digest and tables, and check finds it clean.
func TestMigrationFromVersion3(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "mig3")
	events, writes := synthSmall(t)
	old := openPG(t, url, Options{Write: true, schemaUpTo: 3})
	if _, err := old.Ingest(context.Background(), events, "Node", nil); err != nil {
		t.Fatal(err)
	}
	for _, ops := range writes[:5] {
		old.Write(context.Background(), ops...)
	}
	want := old.Digest()
	old.Close()
	conn := adminConn(t, url)
	if hasIdentityIndex(t, conn) {
		t.Fatal("a version 3 store has the identity index")
	}
	ro := openPG(t, url, Options{})
	if ro.SchemaVersion() != 3 || ro.Digest() != want {
		t.Fatalf("read-only open of a version 3 store: version %d, digest %s want %s", ro.SchemaVersion(), ro.Digest(), want)
	}
	ro.Close()
	if hasIdentityIndex(t, conn) {
		t.Fatal("a read-only open migrated the store")
	}
	w := openPG(t, url, Options{Write: true})
	if w.SchemaVersion() != 4 || w.Digest() != want || tableDigest(t, url) != want {
		t.Fatalf("after the migration: version %d, digest %s, tables %s, want %s", w.SchemaVersion(), w.Digest(), tableDigest(t, url), want)
	}
	if !hasIdentityIndex(t, conn) {
		t.Fatal("the migration did not add the identity index")
	}
	if _, err := w.Write(context.Background(), writes[5]...); err != nil {
		t.Fatal(err)
	}
	if res, err := Check(context.Background(), url); err != nil || !res.Clean() || res.SchemaVersion != 4 {
		t.Fatalf("check after the migration: %v %+v", err, res)
	}
}
