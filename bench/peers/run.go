package peers

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/bench"
	"github.com/tgms-go/tgms/ops"
)

// Cell is one (query, system) measurement.
type Cell struct {
	Status string  `json:"status"` // ok, mismatch, error, unsupported
	Error  string  `json:"error,omitempty"`
	P50Ms  float64 `json:"p50_ms"`
	Reps   int     `json:"reps"`
	Lines  int     `json:"answer_lines"`
	// FirstP50Ms is the p50 of the run that immediately follows another
	// system's run (cold caches), when the query was timed hot as well
	// (see Options.HotBelow); 0 otherwise, when P50Ms is the cold figure.
	FirstP50Ms float64 `json:"first_call_p50_ms,omitempty"`
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
	// HotBelow: when any system's checked run of a query took less than
	// this, every system runs the query twice per round: straight after
	// another system's (cold, Cell.FirstP50Ms) and again right after
	// (hot, Cell.P50Ms), finding its own code and data in the caches as a
	// database serving a workload does. A sub-millisecond call pays
	// ~0.1-0.3 ms of cache misses after a peer's scan, whichever system
	// it is, so both are reported; the table leads with cold. Zero times
	// cold only (Cell.P50Ms).
	HotBelow time.Duration
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
		full, err := nativeFull(ctx, db, q, ops.ExecOptions{})
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
		// The native side is timed producing the whole answer the SQL
		// returns (every page), not the first page of it, with its
		// envelope and digest; its rows stay typed (they encode
		// themselves), as a server replying to the call keeps them.
		typed := ops.ExecOptions{Typed: true}
		nativeStart := time.Now()
		if _, err := nativeFull(ctx, db, q, typed); err != nil {
			return nil, fmt.Errorf("%s on native: %w", q.ID, err)
		}
		timed := []timedRun{{name: "native", run: func() error { _, err := nativeFull(ctx, db, q, typed); return err }, took: time.Since(nativeStart)}}
		for _, s := range systems {
			c := Cell{Status: "unsupported"}
			checked := time.Now()
			if ok {
				c = checkPeer(ctx, s, pq, a, want)
			}
			row.Peers[s.Name] = c
			if c.Status == "ok" {
				s := s
				timed = append(timed, timedRun{name: s.Name, run: func() error { _, err := s.answer(ctx, pq, a); return err }, took: time.Since(checked)})
			}
		}
		if err := timeRounds(timed, o); err != nil {
			return nil, fmt.Errorf("%s on %w", q.ID, err)
		}
		for _, t := range timed {
			p50, reps := median(t.times), len(t.times)
			if t.name == "native" {
				row.Native.P50Ms, row.Native.Reps, row.Native.FirstP50Ms = p50, reps, median(t.first)
				continue
			}
			c := row.Peers[t.name]
			c.P50Ms, c.Reps, c.FirstP50Ms = p50, reps, median(t.first)
			row.Peers[t.name] = c
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "%s %-16s native %.3f ms", time.Now().UTC().Format("15:04:05"), q.ID, coldMs(row.Native))
			for _, s := range systems {
				fmt.Fprintf(o.Progress, ", %s %s", s.Name, ms(row.Peers[s.Name], coldMs))
			}
			fmt.Fprintln(o.Progress)
		}
		out = append(out, row)
	}
	return out, nil
}

// timedRun is one system's run of the query being timed, with how long
// its checked run took and the times collected.
type timedRun struct {
	name  string
	run   func() error
	took  time.Duration
	times []float64 // timed runs, ms
	first []float64 // with HotBelow: the run before each timed one, ms
}

// coldMs is the figure the table leads with: the run straight after
// another system's.
func coldMs(c Cell) float64 {
	if c.FirstP50Ms > 0 {
		return c.FirstP50Ms
	}
	return c.P50Ms
}

// timeRounds warms every system up, then times rounds of one run of each
// system, the order rotating (no system runs twice in a row across a
// round's boundary), for at least MinReps rounds and more up to Reps
// while the Budget lasts.
func timeRounds(timed []timedRun, o Options) error {
	for range o.Warmups {
		for _, t := range timed {
			if t.took <= SlowRun {
				t.run()
			}
		}
	}
	// A query is timed hot on every system when any system's checked run
	// took less than HotBelow, so that cold and hot figures exist for all.
	hot := false
	for _, t := range timed {
		hot = hot || t.took < o.HotBelow
	}
	deadline := time.Now().Add(o.Budget)
	prev := len(timed) - 1 // the warm-ups end with the last system
	for r := 0; r < o.Reps && (r < max(1, o.MinReps) || time.Now().Before(deadline)); r++ {
		// The order rotates, but a round never starts with the system that
		// ended the one before: its cold run would follow its own run (with
		// two systems, every other round).
		start := r % len(timed)
		if len(timed) > 1 && start == prev {
			start = (start + 1) % len(timed)
		}
		prev = (start + len(timed) - 1) % len(timed)
		for k := range timed {
			t := &timed[(k+start)%len(timed)]
			if hot {
				ms, err := timeRun(t.run)
				if err != nil {
					return fmt.Errorf("%s: %w", t.name, err)
				}
				t.first = append(t.first, ms)
			}
			ms, err := timeRun(t.run)
			if err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			t.times = append(t.times, ms)
		}
	}
	return nil
}

func timeRun(f func() error) (float64, error) {
	start := time.Now()
	err := f()
	return float64(time.Since(start).Nanoseconds()) / 1e6, err
}

// median is the p50 of ts (the upper middle of an even count), 0 if empty.
func median(ts []float64) float64 {
	if len(ts) == 0 {
		return 0
	}
	ts = slices.Clone(ts)
	sort.Float64s(ts)
	return ts[len(ts)/2]
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

// nativeFull runs q with opt and returns its complete payload: a paged
// operator is read page by page (10,000 rows a page) unless the query
// fixes its own limit, and capped lists get the largest limit.
func nativeFull(ctx context.Context, db *tgms.DB, q bench.Query, opt ops.ExecOptions) (map[string]any, error) {
	spec, _ := ops.Lookup(q.Op)
	a := maps.Clone(q.Args)
	_, fixed := a["limit"]
	if _, has := spec.Args.Properties["limit"]; has && !fixed {
		a["limit"] = int64(10_000)
	}
	env, err := db.CallWith(ctx, q.Op, a, opt)
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
		env, err := db.CallWith(ctx, q.Op, a, opt)
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

// Print writes the table: cold p50 per system (each run straight after
// another system's), the peer/native ratio, answer size; then, for the
// queries also timed hot, the same for the run repeated right after
// (warm caches).
func Print(w io.Writer, rows []Row, systems []string) {
	fmt.Fprintln(w, "cold (each run straight after another system's):")
	printTable(w, rows, systems, coldMs)
	var hot []Row
	for _, r := range rows {
		if r.Native.FirstP50Ms > 0 {
			hot = append(hot, r)
		}
	}
	if len(hot) > 0 {
		fmt.Fprintln(w, "hot (the same query again right after, on the same system):")
		printTable(w, hot, systems, func(c Cell) float64 { return c.P50Ms })
	}
	var notes []string
	for _, r := range rows {
		for _, s := range systems {
			if c := r.Peers[s]; c.Status != "ok" {
				notes = append(notes, fmt.Sprintf("%s on %s: %s %s", r.ID, s, c.Status, c.Error))
			}
		}
	}
	slices.Sort(notes)
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
}

// printTable writes one line per row with the figure p50 picks from each
// cell and each peer's ratio to the native figure.
func printTable(w io.Writer, rows []Row, systems []string, p50 func(Cell) float64) {
	fmt.Fprintf(w, "%-16s %10s %11s", "query", "size", "native ms")
	for _, s := range systems {
		fmt.Fprintf(w, " %11s %8s", s+" ms", "×")
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "%-16s %10d %11s", r.ID, r.Size, ms(r.Native, p50))
		for _, s := range systems {
			c := r.Peers[s]
			ratio := "-"
			if c.Status == "ok" && r.Native.Status == "ok" && p50(r.Native) > 0 && p50(c) > 0 {
				ratio = fmt.Sprintf("%.1f", p50(c)/p50(r.Native))
			}
			fmt.Fprintf(w, " %11s %8s", ms(c, p50), ratio)
		}
		fmt.Fprintln(w)
	}
}

func ms(c Cell, p50 func(Cell) float64) string {
	switch {
	case c.Status != "ok":
		return c.Status
	case p50(c) == 0:
		return "-"
	}
	return fmt.Sprintf("%.3f", p50(c))
}
