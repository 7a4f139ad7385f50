package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tgms-go/tgms"
)

// OverloadConfig sets up an overload run.
type OverloadConfig struct {
	Binary   string // the tgms binary ('tgms serve' is the server)
	Dir      string // scratch directory (the store is built there)
	Seed     uint64
	Batches  int           // soak batches in the store; 0 means 3000
	Levels   []int         // concurrent clients per level; nil means 1, 4, 16, 64
	PerLevel time.Duration // how long each level runs; 0 means 10s
	// HeavyShare is the fraction of calls that are heavy (plans); the
	// rest are cheap (stats, validate_plan). 0 means 0.5.
	HeavyShare float64
	Deadline   time.Duration // serve --deadline; 0 leaves the server's default
	Heavy      int           // serve --heavy; 0 leaves the server's default (one per CPU)
	IdleCalls  int           // calls of each kind for idle latency; 0 means 30
	Progress   func(l OverloadLevel)
}

// OverloadReport is what an overload run measured; doc.go describes its
// JSON.
type OverloadReport struct {
	Batches    int             `json:"store_batches"`
	DeadlineS  float64         `json:"deadline_s,omitempty"`
	Heavy      int             `json:"heavy,omitempty"`
	HeavyShare float64         `json:"heavy_share"`
	PerLevelS  float64         `json:"per_level_s"`
	IdleBefore Idle            `json:"idle_before"`
	Levels     []OverloadLevel `json:"levels"`
	IdleAfter  Idle            `json:"idle_after"`
	// Recovered: after the last level, each kind's idle p50 is within
	// twice its idle p50 before, plus 2 ms.
	Recovered  bool     `json:"recovered"`
	PeakRSSMiB float64  `json:"peak_rss_mib"` // the server's high-water mark (VmHWM)
	Failures   []string `json:"failures,omitempty"`
}

// Idle is the latency of calls made one at a time.
type Idle struct {
	CheapP50Ms float64 `json:"cheap_p50_ms"`
	HeavyP50Ms float64 `json:"heavy_p50_ms"`
}

// OverloadLevel is one level of concurrency.
type OverloadLevel struct {
	Clients    int     `json:"clients"`
	Calls      int     `json:"calls"` // answered, E_BUSY included
	PerSecond  float64 `json:"calls_per_s"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	CheapP99Ms float64 `json:"cheap_p99_ms"`
	HeavyP50Ms float64 `json:"heavy_p50_ms"`
	HeavyP99Ms float64 `json:"heavy_p99_ms"`
	Busy       int     `json:"e_busy"`
	BusyRate   float64 `json:"e_busy_rate"`   // of heavy calls
	Late       int     `json:"past_deadline"` // stopped at the server's deadline (503 E_COST, rule server.deadline)
	Errors     int     `json:"errors"`        // other answers than 200, E_BUSY and past_deadline; transport errors
	PeakRSSMiB float64 `json:"peak_rss_mib"`
}

// OK says whether the run passed: no errors, and latency recovered.
func (r *OverloadReport) OK() bool {
	for _, l := range r.Levels {
		if l.Errors > 0 || l.Calls == 0 {
			return false
		}
	}
	return r.Recovered && len(r.Failures) == 0
}

// Overload builds a store of soak batches, serves it with 'tgms serve'
// on loopback and runs each level's clients against it for PerLevel, each
// client calling without pause a mix of cheap calls (stats,
// validate_plan) and heavy ones (plans: a two-hop snapshot, temporal
// reachability, an entity's history), measuring idle latency before the
// first level and after the last.
func Overload(ctx context.Context, c OverloadConfig) (*OverloadReport, error) {
	if c.Batches <= 0 {
		c.Batches = 3000
	}
	if c.Levels == nil {
		c.Levels = []int{1, 4, 16, 64}
	}
	if c.PerLevel <= 0 {
		c.PerLevel = 10 * time.Second
	}
	if c.HeavyShare <= 0 {
		c.HeavyShare = 0.5
	}
	if c.IdleCalls <= 0 {
		c.IdleCalls = 30
	}
	dir := c.Dir + "/store"
	if err := buildSoakStore(dir, c.Seed, c.Batches); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	args := []string{"serve", "--store", dir, "--http", addr, "--max-conns", strconv.Itoa(2 * maxInt(c.Levels))}
	if c.Deadline > 0 {
		args = append(args, "--deadline", c.Deadline.String())
	}
	if c.Heavy > 0 {
		args = append(args, "--heavy", strconv.Itoa(c.Heavy))
	}
	cmd := exec.CommandContext(ctx, c.Binary, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	base := "http://" + addr + "/v1/"
	tr := &http.Transport{MaxIdleConnsPerHost: 2 * maxInt(c.Levels), MaxConnsPerHost: 0}
	client := &http.Client{Transport: tr, Timeout: 2 * time.Minute}
	defer tr.CloseIdleConnections()
	for up := time.Now().Add(30 * time.Second); ; {
		resp, err := client.Get(base + "tools")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(up) {
			return nil, fmt.Errorf("overload: serve did not come up: %v\n%s", err, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	rep := &OverloadReport{Batches: c.Batches, DeadlineS: c.Deadline.Seconds(), Heavy: c.Heavy, HeavyShare: c.HeavyShare, PerLevelS: c.PerLevel.Seconds()}
	o := &overload{base: base, client: client, seed: c.Seed}
	if rep.IdleBefore, err = o.idle(ctx, c.IdleCalls); err != nil {
		return nil, err
	}
	for _, n := range c.Levels {
		lv := o.level(ctx, n, c.PerLevel, c.HeavyShare, cmd.Process.Pid)
		rep.Levels = append(rep.Levels, lv)
		if c.Progress != nil {
			c.Progress(lv)
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	tr.CloseIdleConnections()
	time.Sleep(time.Second)
	if rep.IdleAfter, err = o.idle(ctx, c.IdleCalls); err != nil {
		return nil, err
	}
	b, a := rep.IdleBefore, rep.IdleAfter
	rep.Recovered = a.CheapP50Ms <= 2*b.CheapP50Ms+2 && a.HeavyP50Ms <= 2*b.HeavyP50Ms+2
	_, peak := procMem(cmd.Process.Pid)
	rep.PeakRSSMiB = mib(peak)
	rep.Failures = o.failures
	return rep, nil
}

func maxInt(xs []int) int {
	m := 1
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// buildSoakStore writes soak batches 1..n into a new store at dir.
func buildSoakStore(dir string, seed uint64, n int) error {
	opt := soakOptions()
	opt.NoSync = true
	db, err := tgms.Open(dir, &opt)
	if err != nil {
		return err
	}
	for k := 1; k <= n; k++ {
		if _, err := db.Write(SoakBatch(seed, k)...); err != nil {
			db.Close()
			return fmt.Errorf("overload: building the store, batch %d: %w", k, err)
		}
	}
	if err := db.Checkpoint(); err != nil {
		db.Close()
		return err
	}
	return db.Close()
}

type overload struct {
	base     string
	client   *http.Client
	seed     uint64
	mu       sync.Mutex
	failures []string
}

// callResult is one call's outcome.
type callResult struct {
	heavy bool
	took  time.Duration
	busy  bool // refused with E_BUSY
	late  bool // stopped at the server's deadline (503, rule server.deadline)
	err   error
}

// call makes one call of the mix: heavy or cheap, drawn by rng.
func (o *overload) call(ctx context.Context, rng *rand.Rand, heavy bool) callResult {
	uid := fmt.Sprintf("n%d", rng.IntN(soakUIDs))
	var req *http.Request
	var err error
	if heavy {
		var p string
		switch rng.IntN(3) {
		case 0:
			p = fmt.Sprintf(`{"plan_id":"two-hop","steps":[{"id":"s1","op":"snapshot_subgraph","args":{"seeds":[%q],"t_valid":120,"hops":2},"depends_on":[]}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`, uid)
		case 1:
			p = soakPlan(2, uid)
		default:
			p = soakPlan(0, uid)
		}
		body, _ := json.Marshal(map[string]any{"plan": json.RawMessage(p), "uids": []string{uid}})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, o.base+"run_plan", bytes.NewReader(body))
	} else if rng.IntN(2) == 0 {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, o.base+"stats", nil)
	} else {
		body, _ := json.Marshal(map[string]any{"plan": json.RawMessage(soakPlan(rng.IntN(soakPlans), uid)), "uids": []string{uid}})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, o.base+"validate_plan", bytes.NewReader(body))
	}
	if err != nil {
		return callResult{heavy: heavy, err: err}
	}
	if req.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	t0 := time.Now()
	resp, err := o.client.Do(req)
	if err != nil {
		return callResult{heavy: heavy, err: err}
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	r := callResult{heavy: heavy, took: time.Since(t0), err: err}
	switch {
	case err != nil:
	case resp.StatusCode == http.StatusServiceUnavailable && bytes.Contains(b, []byte(`"E_BUSY"`)):
		r.busy = true
	case resp.StatusCode == http.StatusServiceUnavailable && bytes.Contains(b, []byte(`"server.deadline"`)):
		r.late = true
	case resp.StatusCode != http.StatusOK:
		r.err = fmt.Errorf("%s %s: HTTP %d: %.200s", req.Method, req.URL.Path, resp.StatusCode, b)
	}
	return r
}

// idle measures each kind's latency, one call at a time (a call stopped
// at a short deadline counts with its latency).
func (o *overload) idle(ctx context.Context, n int) (Idle, error) {
	rng := rand.New(rand.NewPCG(o.seed, 0x1d1e))
	var cheap, heavy []time.Duration
	for range n {
		for _, h := range []bool{false, true} {
			r := o.call(ctx, rng, h)
			if r.err != nil {
				return Idle{}, fmt.Errorf("overload: idle call: %v", r.err)
			}
			if h {
				heavy = append(heavy, r.took)
			} else {
				cheap = append(cheap, r.took)
			}
		}
	}
	return Idle{CheapP50Ms: ms(percentile(cheap, 0.5)), HeavyP50Ms: ms(percentile(heavy, 0.5))}, nil
}

// level runs n clients for d.
func (o *overload) level(ctx context.Context, n int, d time.Duration, heavyShare float64, pid int) OverloadLevel {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	var all, cheap, heavy []time.Duration
	lv := OverloadLevel{Clients: n}
	heavyCalls := 0
	var peak int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			if rss, _ := procMem(pid); rss > peak {
				peak = rss
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(o.seed, uint64(1000*n+i)))
			for ctx.Err() == nil {
				r := o.call(ctx, rng, rng.Float64() < heavyShare)
				if ctx.Err() != nil {
					return // cut off by the level's end: not counted
				}
				mu.Lock()
				switch {
				case r.err != nil:
					lv.Errors++
					o.fail(r.err)
				default:
					lv.Calls++
					all = append(all, r.took)
					if r.heavy {
						heavyCalls++
						heavy = append(heavy, r.took)
					} else {
						cheap = append(cheap, r.took)
					}
					if r.busy {
						lv.Busy++
					}
					if r.late {
						lv.Late++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	close(stop)
	<-sampled
	lv.PerSecond = float64(lv.Calls) / el.Seconds()
	lv.P50Ms, lv.P99Ms = ms(percentile(all, 0.5)), ms(percentile(all, 0.99))
	lv.CheapP99Ms = ms(percentile(cheap, 0.99))
	lv.HeavyP50Ms, lv.HeavyP99Ms = ms(percentile(heavy, 0.5)), ms(percentile(heavy, 0.99))
	if heavyCalls > 0 {
		lv.BusyRate = float64(lv.Busy) / float64(heavyCalls)
	}
	lv.PeakRSSMiB = mib(peak)
	return lv
}

func (o *overload) fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.failures) < 10 {
		o.failures = append(o.failures, err.Error())
	}
}
