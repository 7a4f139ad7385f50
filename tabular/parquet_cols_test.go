package tabular

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

type colsRow struct {
	Name  string    `parquet:"name,dict"`
	Plain string    `parquet:"plain"`
	Opt   *string   `parquet:"opt,optional"`
	N     int64     `parquet:"n"`
	M     *int32    `parquet:"m,optional"`
	F     float32   `parquet:"f"`
	D     *float64  `parquet:"d,optional"`
	B     bool      `parquet:"b"`
	At    time.Time `parquet:"at,timestamp(millisecond)"`
	Bytes []byte    `parquet:"bytes"`
}

// TestParquetColumnsMatchRows reads a file of many row groups and pages
// (dictionary-encoded, optional and plain columns of every kind) through
// the columnar reader and compares every cell with what parquet-go's own
// row reader gives for it.
func TestParquetColumnsMatchRows(t *testing.T) {
	const n = 10_007
	rows := make([]colsRow, n)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		r := &rows[i]
		r.Name, r.Plain, r.N, r.F, r.B = fmt.Sprint("n", i%37), fmt.Sprint("p", i), int64(i)*1e9-5e12, float32(i)/8, i%3 == 0
		r.At, r.Bytes = base.Add(time.Duration(i)*time.Second), []byte(fmt.Sprint("b", i%5))
		if i%4 != 0 {
			s, m, d := fmt.Sprint("o", i), int32(-i), float64(i)/3
			r.Opt, r.M, r.D = &s, &m, &d
		}
	}
	p := filepath.Join(t.TempDir(), "cols.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[colsRow](f, parquet.MaxRowsPerRowGroup(3001), parquet.PageBufferSize(1000))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	want := rowValues(t, p)
	rd, err := Open(p, "")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	pr := rd.(*parquetReader)
	var row Row
	got := 0
	for ; ; got++ {
		err := rd.Next(&row)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("row %d: %v", got, err)
		}
		if got >= len(want) {
			t.Fatalf("more rows than the %d written", len(want))
		}
		for c := range pr.cols {
			if g := pr.value(c, row.pi); !reflect.DeepEqual(g, want[got][c]) {
				t.Fatalf("row %d (%s) column %s: columnar %#v, rows %#v", got, row.Pos, pr.cols[c], g, want[got][c])
			}
		}
	}
	if got != n {
		t.Fatalf("read %d rows, wrote %d", got, n)
	}
	if len(pr.groups) < 4 {
		t.Fatalf("the file has %d row groups; the test wants several", len(pr.groups))
	}
}

// rowValues reads every cell through parquet-go's row reader, as the
// binder's values: nil, bool, int64, float64, string or Stamp.
func rowValues(t *testing.T, path string) [][]any {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	var units []int64
	for _, fld := range pf.Schema().Fields() {
		units = append(units, stampUnit(fld.Type()))
	}
	var out [][]any
	buf := make([]parquet.Row, 100)
	for _, g := range pf.RowGroups() {
		rs := g.Rows()
		for {
			n, err := rs.ReadRows(buf)
			for _, row := range buf[:n] {
				vals := make([]any, len(units))
				for _, v := range row {
					c := v.Column()
					switch {
					case v.IsNull():
					case units[c] != 0:
						vals[c] = Stamp{N: v.Int64(), Unit: units[c]}
					case v.Kind() == parquet.Boolean:
						vals[c] = v.Boolean()
					case v.Kind() == parquet.Int32:
						vals[c] = int64(v.Int32())
					case v.Kind() == parquet.Int64:
						vals[c] = v.Int64()
					case v.Kind() == parquet.Float:
						vals[c] = float64(v.Float())
					case v.Kind() == parquet.Double:
						vals[c] = v.Double()
					default:
						vals[c] = string(v.ByteArray())
					}
				}
				out = append(out, vals)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rs.Close()
	}
	return out
}
