package peers

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/bench"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// Cell is one (query, system) measurement.
type Cell struct {
	Status string  `json:"status"` // ok, mismatch, error, unsupported
	Error  string  `json:"error,omitempty"`
	P50Ms  float64 `json:"p50_ms"`
	Reps   int     `json:"reps"`
	Lines  int     `json:"answer_lines"`
}

// Row is one registry query across the systems.
type Row struct {
	ID     string          `json:"id"`
	Op     string          `json:"op"`
	Size   int64           `json:"answer_size"`
	Native Cell            `json:"native"`
	Peers  map[string]Cell `json:"peers"`
}

// Options bound the timing of each query.
type Options struct {
	// Warmups are untimed runs per system before the timed rounds; a
	// system whose checked run took longer than SlowRun gets none (that
	// run already warmed it).
	Warmups int
	// Reps is the most timed rounds (one run of every system each).
	Reps int
	// MinReps rounds are always timed (at least 1); more run while the
	// query's Budget lasts.
	MinReps int
	// Budget is the most time spent timing one query across all systems.
	Budget time.Duration
	// Progress, when set, gets a line per query as it finishes.
	Progress io.Writer
}

// SlowRun is the checked-run time beyond which a system is not warmed up.
const SlowRun = time.Second

// Compare checks every registry query's answer on every system against
// the native one, then times the systems interleaved (one repetition of
// each system per round, the order rotating) on the queries where every
// answer matched. Mismatched cells are reported and not timed.
func Compare(ctx context.Context, db *tgms.DB, qs []bench.Query, systems []*System, o Options) ([]Row, error) {
	tt := db.LastTT()
	var out []Row
	for _, q := range qs {
		row := Row{ID: q.ID, Op: q.Op, Peers: map[string]Cell{}}
		pq, ok := queries[q.ID]
		full, err := nativeFull(ctx, db, q)
		if err != nil {
			row.Native = Cell{Status: "error", Error: err.Error()}
			out = append(out, row)
			continue
		}
		row.Size = answerSize(full)
		row.Native = Cell{Status: "ok"}
		var want []string
		if ok {
			want = pq.ours(full)
			row.Native.Lines = len(want)
		}
		a := args{m: q.Args, tt: tt}
		timed := []func() error{func() error { _, err := db.Call(ctx, q.Op, q.Args); return err }}
		names := []string{"native"}
		warm := []bool{true}
		for _, s := range systems {
			c := Cell{Status: "unsupported"}
			checked := time.Now()
			if ok {
				c = checkPeer(ctx, s, pq, a, want)
			}
			row.Peers[s.Name] = c
			if c.Status == "ok" {
				s := s
				timed = append(timed, func() error { _, err := s.answer(ctx, pq, a); return err })
				names = append(names, s.Name)
				warm = append(warm, time.Since(checked) <= SlowRun)
			}
		}
		times := make([][]float64, len(timed))
		for range o.Warmups {
			for i, f := range timed {
				if warm[i] {
					f()
				}
			}
		}
		deadline := time.Now().Add(o.Budget)
		for r := 0; r < o.Reps && (r < max(1, o.MinReps) || time.Now().Before(deadline)); r++ {
			for k := range timed {
				i := (k + r) % len(timed)
				start := time.Now()
				if err := timed[i](); err != nil {
					return nil, fmt.Errorf("%s on %s: %w", q.ID, names[i], err)
				}
				times[i] = append(times[i], float64(time.Since(start).Nanoseconds())/1e6)
			}
		}
		for i, ts := range times {
			sort.Float64s(ts)
			p50, reps := ts[len(ts)/2], len(ts)
			if i == 0 {
				row.Native.P50Ms, row.Native.Reps = p50, reps
				continue
			}
			c := row.Peers[names[i]]
			c.P50Ms, c.Reps = p50, reps
			row.Peers[names[i]] = c
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "%s %-16s native %.3f ms", time.Now().UTC().Format("15:04:05"), q.ID, row.Native.P50Ms)
			for _, s := range systems {
				fmt.Fprintf(o.Progress, ", %s %s", s.Name, ms(row.Peers[s.Name]))
			}
			fmt.Fprintln(o.Progress)
		}
		out = append(out, row)
	}
	return out, nil
}

func checkPeer(ctx context.Context, s *System, pq peerQuery, a args, want []string) Cell {
	got, err := s.answer(ctx, pq, a)
	if err != nil {
		return Cell{Status: "error", Error: err.Error()}
	}
	if same, diff := sameLines(want, got, pq.ordered); !same {
		return Cell{Status: "mismatch", Error: diff, Lines: len(got)}
	}
	return Cell{Status: "ok", Lines: len(got)}
}

// nativeFull runs q and returns its complete payload: a paged operator
// is read page by page (10,000 rows a page) unless the query fixes its
// own limit, and capped lists get the largest limit.
func nativeFull(ctx context.Context, db *tgms.DB, q bench.Query) (map[string]any, error) {
	spec, _ := ops.Lookup(q.Op)
	a := maps.Clone(q.Args)
	_, fixed := a["limit"]
	if _, has := spec.Args.Properties["limit"]; has && !fixed {
		a["limit"] = int64(10_000)
	}
	env, err := db.Call(ctx, q.Op, a)
	if err != nil {
		return nil, err
	}
	p := env.Result
	if !spec.Paged || fixed {
		return p, nil
	}
	rows, _ := p["rows"].([]any)
	for cur, _ := p["cursor"].(string); cur != ""; cur, _ = p["cursor"].(string) {
		a["cursor"] = cur
		env, err := db.Call(ctx, q.Op, a)
		if err != nil {
			return nil, err
		}
		p = env.Result
		next, _ := p["rows"].([]any)
		rows = append(rows, next...)
	}
	p["rows"] = rows
	return p, nil
}

// answerSize is rows_total, else the sum of *_total counts, else count.
func answerSize(p map[string]any) int64 {
	if n, ok := p["rows_total"].(int64); ok {
		return n
	}
	var sum int64
	found := false
	for k, v := range p {
		if n, ok := v.(int64); ok && len(k) > 6 && k[len(k)-6:] == "_total" {
			sum, found = sum+n, true
		}
	}
	if found {
		return sum
	}
	n, _ := p["count"].(int64)
	return n
}

// NativeIngest measures the native write path on the exported tables: the
// edge versions believed now are ingested as events, durably (fsync), into
// a new store in dir; the store's files on disk give the bytes per version.
func NativeIngest(t *Tables, dir string) (LoadStats, error) {
	f, err := os.Open(t.EdgesCSV)
	if err != nil {
		return LoadStats{}, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	var evs []bt.Event
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return LoadStats{}, fmt.Errorf("read %s: %w", t.EdgesCSV, err)
		}
		if rec[8] != strconv.FormatInt(bt.OpenEnd, 10) {
			continue // no longer believed
		}
		vs, _ := strconv.ParseInt(rec[5], 10, 64)
		ve, _ := strconv.ParseInt(rec[6], 10, 64)
		ev := bt.Event{Src: rec[2], Dst: rec[3], RelType: rec[4], VtS: vs, VtE: ve}
		if rec[9] != "{}" {
			ev.Props = bt.Props(rec[9])
		}
		evs = append(evs, ev)
	}
	db, err := tgms.Open(dir, &tgms.Options{})
	if err != nil {
		return LoadStats{}, err
	}
	start := time.Now()
	if _, err := db.Ingest(evs, "Node", nil); err != nil {
		db.Close()
		return LoadStats{}, fmt.Errorf("native ingest: %w", err)
	}
	secs := time.Since(start).Seconds()
	if err := db.Close(); err != nil {
		return LoadStats{}, err
	}
	size, err := dirSize(dir)
	if err != nil {
		return LoadStats{}, err
	}
	return LoadStats{Seconds: secs, RowsPerSec: float64(len(evs)) / secs, DiskBytes: size,
		BytesPerEdge: float64(size) / float64(max(1, len(evs)))}, nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			n += fi.Size()
		}
		return err
	})
	return n, err
}

// Print writes the table: p50 per system, the peer/native ratio, answer size.
func Print(w io.Writer, rows []Row, systems []string) {
	fmt.Fprintf(w, "%-16s %10s %11s", "query", "size", "native ms")
	for _, s := range systems {
		fmt.Fprintf(w, " %11s %8s", s+" ms", "×")
	}
	fmt.Fprintln(w)
	var notes []string
	for _, r := range rows {
		fmt.Fprintf(w, "%-16s %10d %11s", r.ID, r.Size, ms(r.Native))
		for _, s := range systems {
			c := r.Peers[s]
			ratio := "-"
			if c.Status == "ok" && r.Native.Status == "ok" && r.Native.P50Ms > 0 {
				ratio = fmt.Sprintf("%.1f", c.P50Ms/r.Native.P50Ms)
			}
			fmt.Fprintf(w, " %11s %8s", ms(c), ratio)
			if c.Status != "ok" {
				notes = append(notes, fmt.Sprintf("%s on %s: %s %s", r.ID, s, c.Status, c.Error))
			}
		}
		fmt.Fprintln(w)
	}
	slices.Sort(notes)
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
}

func ms(c Cell) string {
	if c.Status != "ok" {
		return c.Status
	}
	return fmt.Sprintf("%.3f", c.P50Ms)
}
