package ops

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
)

// TestNodeRows checks the rows of a node's versions against a plain
// rendering of each version, and that no two rows share a property map or
// a container inside one, whatever the bags repeat.
func TestNodeRows(t *testing.T) {
	props := func(m map[string]any) bt.Props {
		p, err := bt.NewProps(m)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	flat := props(map[string]any{"note": "corrected", "revised": true, "w": 0.5})
	nested := props(map[string]any{"tags": []any{"a", "b"}, "geo": map[string]any{"x": int64(1)}})
	bags := []bt.Props{"", "", flat, flat, flat, nested, nested, flat, "", nested}
	var hist []bt.NodeVersion
	for i, p := range bags {
		label := "Node"
		if i == 4 {
			label = "Other"
		}
		hist = append(hist, bt.NodeVersion{UID: "n7", Label: label, Props: p, Valid: bt.Interval{Start: int64(i), End: int64(i + 1)},
			TTs: int64(100 + i), TTe: bt.OpenEnd, CreatedBy: bt.OpKind(1 + i%5)})
	}
	var nr nodeRows
	rows := make([]map[string]any, len(hist))
	for i, v := range hist {
		rows[i] = nr.row(v, engine.VID(v.UID, v.TTs, v.Valid.Start))
		want := map[string]any{
			"uid": v.UID, "vid": engine.VID(v.UID, v.TTs, v.Valid.Start), "label": v.Label,
			"props": v.Props.Map(), "vt_s": v.Valid.Start, "vt_e": v.Valid.End,
			"tt_s": v.TTs, "tt_e": bt.OpenEnd, "created_by": v.CreatedBy.String(),
		}
		if !canon.Equal(rows[i], want) {
			t.Fatalf("row %d = %v, want %v", i, rows[i], want)
		}
	}
	// Writing into one row's bag (and into its containers) changes no other row.
	before := make([][]byte, len(rows))
	for i, r := range rows {
		before[i], _ = canon.Marshal(r)
	}
	for i, r := range rows {
		p := r["props"].(map[string]any)
		p["added"] = int64(i)
		if tags, ok := p["tags"].([]any); ok {
			tags[0] = "changed"
		}
		if geo, ok := p["geo"].(map[string]any); ok {
			geo["x"] = int64(-1)
		}
		for j, o := range rows {
			if j == i {
				continue
			}
			now, _ := canon.Marshal(o)
			if j > i && string(now) != string(before[j]) {
				t.Fatalf("writing row %d's props changed row %d: %s -> %s", i, j, before[j], now)
			}
		}
	}
}
