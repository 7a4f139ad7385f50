package canon_test

import (
	"testing"

	"github.com/tgms-go/tgms/canon"
)

// typicalRow is a node version as the store digests it.
func typicalRow() map[string]any {
	return map[string]any{
		"id":     "person:42",
		"labels": []any{"Person", "Employee"},
		"props": map[string]any{
			"name":    "Ada Lovelace",
			"age":     int64(36),
			"score":   0.875,
			"active":  true,
			"email":   "ada@example.org",
			"tags":    []any{"math", "engines", "poetry"},
			"address": map[string]any{"city": "London", "zip": "W1", "geo": []any{51.5072, -0.1276}},
			"note":    "line one\nline \"two\"",
		},
		"valid_from": int64(1700000000000),
		"valid_to":   nil,
		"tx_from":    int64(1700000000001),
		"tx_to":      nil,
	}
}

func BenchmarkMarshalRow(b *testing.B) {
	row := typicalRow()
	out, err := canon.Marshal(row)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 2*len(out))
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = canon.AppendValue(buf[:0], row); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/row")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(len(out)), "bytes/row")
}

func BenchmarkMarshalRowAlloc(b *testing.B) {
	row := typicalRow()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := canon.Marshal(row); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkDigestRow(b *testing.B) {
	row := typicalRow()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := canon.Digest(row); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkParseRow(b *testing.B) {
	data, err := canon.Marshal(typicalRow())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := canon.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkCanonicalizeRow(b *testing.B) {
	data := []byte(`{"valid_to":null,"tx_to":null,"tx_from":1700000000001,"valid_from":1700000000000,` +
		`"props":{"tags":["math","engines","poetry"],"score":0.875,"note":"line one\nline \"two\"",` +
		`"name":"Ada Lovelace","email":"ada@example.org","age":36,"active":true,` +
		`"address":{"zip":"W1","geo":[51.5072,-0.1276],"city":"London"}},"labels":["Person","Employee"],"id":"person:42"}`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := canon.Canonicalize(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	vals := []float64{0.875, 51.5072, -0.1276, 1e-05, 1.5e16, 123456789012345.6, 3.0}
	buf := make([]byte, 0, 64)
	for b.Loop() {
		for _, f := range vals {
			buf = canon.AppendFloat(buf[:0], f)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/float")
}

func BenchmarkAppendString(b *testing.B) {
	s := "a typical property value with some text, and é"
	buf := make([]byte, 0, 128)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = canon.AppendString(buf[:0], s)
	}
}

func BenchmarkRound9(b *testing.B) {
	x := 0.1
	for b.Loop() {
		x = canon.Round9(x + 1.0/3)
		if x > 1e6 {
			x = 0.1
		}
	}
}

// historyPayload is shaped like an entity_history reply: 20 node-version
// rows of nine members, each with a small property bag.
func historyPayload() map[string]any {
	rows := make([]any, 20)
	for i := range rows {
		props := map[string]any{}
		if i > 0 {
			props = map[string]any{"note": "corrected", "revised": true}
		}
		rows[i] = map[string]any{
			"uid": "burst3_14", "vid": "4daac3885864904d553c5d0a", "label": "Node",
			"props": props, "vt_s": int64(1579714475133922 + i), "vt_e": int64(1579722992617652 + i),
			"tt_s": int64(1796135336750423 + i), "tt_e": int64(1 << 62), "created_by": "correct",
		}
	}
	return map[string]any{"rows": rows, "rows_total": int64(20), "truncated": false, "cursor": nil}
}

func BenchmarkRoundedDigestHistory(b *testing.B) {
	p := historyPayload()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := canon.RoundedDigest(p); err != nil {
			b.Fatal(err)
		}
	}
}

// seriesPayload is shaped like a neighborhood_evolution reply: a series of
// two-member points.
func seriesPayload() map[string]any {
	pts := make([]any, 21)
	for i := range pts {
		pts[i] = map[string]any{"degree": int64(i % 4), "t": int64(1582026363382765 + 41895609205*i)}
	}
	return map[string]any{"degree_series": pts, "neighbors_gained": []any{}, "neighbors_gained_total": int64(0),
		"neighbors_lost": []any{"n14681", "n15763", "n616"}, "neighbors_lost_total": int64(3), "stride": int64(41895609205), "truncated": false}
}

func BenchmarkRoundedDigestSeries(b *testing.B) {
	p := seriesPayload()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := canon.RoundedDigest(p); err != nil {
			b.Fatal(err)
		}
	}
}
