package pgstore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/internal/pgtest"
)

// Check finds every kind of damage a table edit outside tgms can do, each
// at its place, and a clean store clean with the replay's digest.
func TestCheckFindsDamage(t *testing.T) {
	c := pgtest.Shared(t)
	events, writes := synthSmall(t)
	cases := []struct {
		name  string
		edit  string // SQL run on the store's schema; %d is the second batch's tt
		where string // a finding's place ("" : clean)
		msg   string
	}{
		{"clean", "", "", ""},
		{"edge valid time", "UPDATE edge_versions SET vt_e = vt_e + 1 WHERE vid = 3", "edge_versions@vid=3", "where the replay has"},
		{"edge closed", "UPDATE edge_versions SET tt_e = tt_s + 1, closed_by = 2 WHERE vid = 4", "edge_versions@vid=4", "where the replay has"},
		{"node props", `UPDATE node_versions SET props = '{"x": 1}' WHERE vid = 0`, "node_versions@vid=0", `props {"x": 1}`},
		{"node deleted", "DELETE FROM node_versions WHERE vid = 1", "node_versions", "where the batches' replay has"},
		{"edge added", "INSERT INTO edge_versions SELECT vid + 1000000, src, dst, rel_type, disc, props, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by FROM edge_versions WHERE vid = 0", "edge_versions@vid=1000000", "no such version"},
		{"checksum", "UPDATE batches SET checksum = (checksum + 1) %% 4294967296 WHERE tt = %d", "batches@tt=%d", "is damaged: checksum"},
		{"payload", "UPDATE batches SET payload = payload || '\\x00'::bytea, checksum = 0 WHERE tt = %d", "batches@tt=%d", "is damaged"},
		{"trigger", "DROP TRIGGER batches_notify ON batches", "batches", "batches_notify is missing"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := schemaURL(c, fmt.Sprintf("check%d", i))
			w := openPG(t, url, Options{Write: true})
			if _, err := w.Ingest(context.Background(), events[:800], "Node", nil); err != nil {
				t.Fatal(err)
			}
			for _, ops := range writes[:10] {
				w.Write(context.Background(), ops...)
			}
			digest := w.Digest()
			w.Close()
			conn := adminConn(t, url)
			var second int64
			if err := conn.QueryRow(context.Background(), "SELECT tt FROM batches WHERE seq = 2").Scan(&second); err != nil {
				t.Fatal(err)
			}
			if tc.edit != "" {
				edit := tc.edit
				if strings.Contains(edit, "%d") {
					edit = fmt.Sprintf(edit, second)
				}
				if _, err := conn.Exec(context.Background(), edit); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Check(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			if tc.where == "" {
				if !res.Clean() || res.Digest != digest || res.Batches < 2 || res.EdgeVersions == 0 {
					t.Fatalf("clean store: %+v, digest want %s", res, digest)
				}
				return
			}
			where := tc.where
			if strings.Contains(where, "%d") {
				where = fmt.Sprintf(where, second)
			}
			if res.Clean() {
				t.Fatalf("no finding after %q", tc.edit)
			}
			for _, f := range res.Findings {
				if f.Where == where && strings.Contains(f.Message, tc.msg) && f.Severity != "info" {
					return
				}
			}
			t.Fatalf("no finding at %s saying %q: %v", where, tc.msg, res.Findings)
		})
	}
}
