package peers

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Tables are the exported version tables as CSV files (no header, columns
// in the order of the package comment).
type Tables struct {
	Dir          string
	NodesCSV     string
	EdgesCSV     string
	NodeVersions int
	EdgeVersions int
}

// Export writes the store's node and edge version tables to dir.
func Export(db *tgms.DB, dir string) (*Tables, error) {
	t := &Tables{Dir: dir, NodesCSV: filepath.Join(dir, "nodes.csv"), EdgesCSV: filepath.Join(dir, "edges.csv")}
	err := db.Read(bt.OpenEnd, func(r engine.Reader) error {
		s := r.Store()
		t.NodeVersions, t.EdgeVersions = s.NumNodeVersions(), s.NumEdgeVersions()
		if err := writeCSV(t.NodesCSV, s.NumNodeVersions(), func(i int, rec []string) []string {
			n := s.NodeVersion(i)
			return append(rec, n.UID, n.Label, props(n.Props), itoa(n.Valid.Start), itoa(n.Valid.End),
				itoa(n.TTs), itoa(n.TTe), engine.VID(n.UID, n.TTs, n.Valid.Start))
		}); err != nil {
			return err
		}
		return writeCSV(t.EdgesCSV, s.NumEdgeVersions(), func(i int, rec []string) []string {
			e := s.EdgeVersion(uint32(i))
			eid := engine.EID(e.Key)
			multi := "false"
			if len(r.IdentityVersions(uint32(i))) > 1 {
				multi = "true"
			}
			return append(rec, engine.VID(eid, e.TTs, e.Valid.Start), eid, e.Key.Src, e.Key.Dst, e.Key.RelType,
				itoa(e.Valid.Start), itoa(e.Valid.End), itoa(e.TTs), itoa(e.TTe), props(e.Props), multi)
		})
	})
	if err != nil {
		return nil, fmt.Errorf("export the version tables to %s: %w", dir, err)
	}
	return t, nil
}

func writeCSV(path string, n int, row func(i int, rec []string) []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := csv.NewWriter(bw)
	rec := make([]string, 0, 16)
	for i := range n {
		if err := w.Write(row(i, rec[:0])); err != nil {
			f.Close()
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func props(p bt.Props) string {
	if p == "" {
		return "{}"
	}
	return string(p)
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }
