package campaign

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	texec "github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// SoakConfig sets up a soak campaign.
type SoakConfig struct {
	Binary   string // the tgms binary (its hidden 'campaign soak-writer' is the writer)
	Dir      string // the store
	Seed     uint64
	Duration time.Duration
	Readers  int           // 0 means 8
	KillMean time.Duration // mean time between writer kills (uniform in [mean/2, 3mean/2]); 0 means 3 minutes
	// BatchEvery is the writer's pause between batches; 0 means 50ms.
	BatchEvery      time.Duration
	CheckpointEvery int           // batches between checkpoints; 0 means 200
	Interval        time.Duration // length of one report row; 0 means Duration/12, at least 5s
	// OracleEvery: every n-th reader call is also run on the oracle; 0 means 4.
	OracleEvery int
	// ReaderPause is each reader's pause between calls (0: none).
	ReaderPause time.Duration
	// Faults planted to show the campaign can fail: a writer that
	// acknowledges each batch before writing it, a reader that perturbs
	// one digest in PerturbEvery (0: none).
	AckEarly     bool
	PerturbEvery int
	Progress     func(row SoakInterval)
}

// SoakReport is what a soak campaign measured; doc.go describes its JSON.
type SoakReport struct {
	DurationS       float64 `json:"duration_s"`
	Seed            uint64  `json:"seed"`
	Readers         int     `json:"readers"`
	KillMeanS       float64 `json:"kill_mean_s"`
	CheckpointEvery int     `json:"checkpoint_every"`
	Batches         int     `json:"batches"` // acknowledged at the end
	Checkpoints     int     `json:"checkpoints"`
	Kills           int     `json:"kills"`
	Recoveries      int     `json:"recoveries"` // restarts that reopened the store with every acknowledged batch
	RecoveryMaxMs   float64 `json:"recovery_max_ms"`
	LostBatches     int     `json:"lost_batches"`
	Mismatches      struct {
		Repeat   int `json:"repeat"`   // a plan rerun at one belief time gave another digest
		Oracle   int `json:"oracle"`   // the digest differs from the same plan on the oracle
		Recovery int `json:"recovery"` // the reopened store's digest differs from the oracle's
	} `json:"digest_mismatches"`
	ReaderCalls int            `json:"reader_calls"`
	Repeats     int            `json:"repeats"`       // calls that reran an earlier (plan, belief time)
	OracleRuns  int            `json:"oracle_checks"` // calls compared with the oracle
	Unavailable int            `json:"unavailable"`   // calls that found the writer down (retried)
	CallErrors  int            `json:"call_errors"`   // calls answered with an error
	Intervals   []SoakInterval `json:"intervals"`
	// Slopes of linear fits of the RSS samples over time, MiB per minute.
	WriterRSSSlope   float64  `json:"writer_rss_slope_mib_per_min"`
	CampaignRSSSlope float64  `json:"campaign_rss_slope_mib_per_min"`
	Stopped          string   `json:"stopped,omitempty"` // why the run ended early
	Failures         []string `json:"failures,omitempty"`
}

// SoakInterval is one row of the soak's report.
type SoakInterval struct {
	EndS           float64 `json:"end_s"`
	Batches        int     `json:"batches"`
	Calls          int     `json:"calls"`
	CallP50Ms      float64 `json:"call_p50_ms"`
	CallP99Ms      float64 `json:"call_p99_ms"`
	WriteP99Ms     float64 `json:"write_p99_ms"`
	Kills          int     `json:"kills"`
	WriterRSSMiB   float64 `json:"writer_rss_mib"`
	CampaignRSSMiB float64 `json:"campaign_rss_mib"`
}

// OK says whether the soak passed: nothing lost, no mismatch, every kill
// recovered, at least one recovery when the run lasted two mean kill
// intervals (a kill comes within one and a half), no failure.
func (r *SoakReport) OK() bool {
	m := r.Mismatches
	if r.KillMeanS > 0 && r.DurationS >= 2*r.KillMeanS && r.Recoveries == 0 {
		return false
	}
	return r.LostBatches == 0 && m.Repeat+m.Oracle+m.Recovery == 0 && r.Recoveries == r.Kills && len(r.Failures) == 0 && r.Stopped == ""
}

// soak is one running campaign.
type soak struct {
	c    SoakConfig
	rep  *SoakReport
	base string // the writer's API, http://ADDR/v1/
	addr string

	acked atomic.Int64 // acknowledged batches

	// The oracle: an engine given the acknowledged batches in process,
	// never the store's files.
	omu    sync.RWMutex
	oracle *engine.Store
	oat    int // batches applied

	mu      sync.Mutex // guards what follows, and rep's counters
	calls   []time.Duration
	writes  []time.Duration
	kills   int
	pid     int
	fail    func(string)
	stopped atomic.Bool
}

// Soak runs the soak campaign: a writer process appending SoakBatch 1, 2,
// ... to the store and serving it read-only over HTTP, Readers goroutines
// running plans on it at belief times already acknowledged and checking
// that each (plan, belief time) always gives one digest and, every
// OracleEvery-th call, the digest the same plan gives on an oracle engine
// built in process from the acknowledged batches; the writer is SIGKILLed
// at random and restarted, and its reopened store must hold every
// acknowledged batch and the oracle's digest.
func Soak(ctx context.Context, c SoakConfig) (*SoakReport, error) {
	if c.Readers <= 0 {
		c.Readers = 8
	}
	if c.KillMean <= 0 {
		c.KillMean = 3 * time.Minute
	}
	if c.BatchEvery <= 0 {
		c.BatchEvery = 50 * time.Millisecond
	}
	if c.CheckpointEvery <= 0 {
		c.CheckpointEvery = 200
	}
	if c.Interval <= 0 {
		c.Interval = max(5*time.Second, c.Duration/12)
	}
	if c.OracleEvery <= 0 {
		c.OracleEvery = 4
	}
	if c.Duration <= 0 {
		return nil, fmt.Errorf("soak: --duration must be positive")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &soak{c: c, addr: l.Addr().String(), oracle: engine.New()}
	l.Close()
	s.base = "http://" + s.addr + "/v1/"
	s.rep = &SoakReport{Seed: c.Seed, Readers: c.Readers, KillMeanS: c.KillMean.Seconds(), CheckpointEvery: c.CheckpointEvery}
	s.fail = func(msg string) {
		s.mu.Lock()
		if len(s.rep.Failures) < 20 {
			s.rep.Failures = append(s.rep.Failures, msg)
		}
		s.mu.Unlock()
	}
	start := time.Now()
	ctx, cancel := context.WithDeadline(ctx, start.Add(c.Duration))
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.writerLoop(ctx, cancel) }()
	for i := range c.Readers {
		wg.Add(1)
		go func() { defer wg.Done(); s.reader(ctx, i) }()
	}
	var xs, wrss, crss []float64
	tick := time.NewTicker(c.Interval)
	defer tick.Stop()
	last := start
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-tick.C:
		}
		if done && time.Since(last) < time.Second {
			break // the last tick already made the final row
		}
		last = time.Now()
		s.mu.Lock()
		row := SoakInterval{EndS: time.Since(start).Seconds(), Batches: int(s.acked.Load()), Calls: len(s.calls),
			CallP50Ms: ms(percentile(s.calls, 0.5)), CallP99Ms: ms(percentile(s.calls, 0.99)), WriteP99Ms: ms(percentile(s.writes, 0.99)), Kills: s.kills}
		s.calls, s.writes, s.kills = s.calls[:0], s.writes[:0], 0
		pid := s.pid
		s.mu.Unlock()
		w, _ := procMem(pid)
		own, _ := procMem(os.Getpid())
		row.WriterRSSMiB, row.CampaignRSSMiB = mib(w), mib(own)
		s.rep.Intervals = append(s.rep.Intervals, row)
		if w > 0 {
			xs = append(xs, row.EndS/60)
			wrss = append(wrss, row.WriterRSSMiB)
			crss = append(crss, row.CampaignRSSMiB)
		}
		if c.Progress != nil {
			c.Progress(row)
		}
	}
	wg.Wait()
	s.rep.DurationS = time.Since(start).Seconds()
	s.rep.Batches = int(s.acked.Load())
	s.rep.WriterRSSSlope, _ = linearFit(xs, wrss)
	s.rep.CampaignRSSSlope, _ = linearFit(xs, crss)
	if s.stopped.Load() && s.rep.Stopped == "" {
		s.rep.Stopped = "the writer failed"
	}
	return s.rep, nil
}

// writerLoop starts the writer, kills it at random and restarts it until
// ctx ends.
func (s *soak) writerLoop(ctx context.Context, stop func()) {
	rng := rand.New(rand.NewPCG(s.c.Seed, 0x50a4))
	first := true
	for ctx.Err() == nil {
		killAfter := s.c.KillMean/2 + time.Duration(rng.Int64N(int64(s.c.KillMean)+1))
		killed, err := s.runWriter(ctx, killAfter, first)
		first = false
		if err != nil {
			s.fail(err.Error())
			s.stopped.Store(true)
			stop()
			return
		}
		if killed {
			s.mu.Lock()
			s.kills++
			s.rep.Kills++
			s.mu.Unlock()
		}
	}
}

// runWriter runs one writer process until killAfter (SIGKILL) or ctx's
// end, and judges its recovery. It reports whether it killed the writer.
func (s *soak) runWriter(ctx context.Context, killAfter time.Duration, first bool) (bool, error) {
	args := []string{"campaign", "soak-writer", "--store", s.c.Dir, "--seed", strconv.FormatUint(s.c.Seed, 10),
		"--http", s.addr, "--every", s.c.BatchEvery.String(), "--checkpoint-every", strconv.Itoa(s.c.CheckpointEvery)}
	if s.c.AckEarly {
		args = append(args, "--ack-early")
	}
	cmd := exec.Command(s.c.Binary, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false, err
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return false, err
	}
	s.mu.Lock()
	s.pid = cmd.Process.Pid
	s.mu.Unlock()
	ready := make(chan error, 1)
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sawReady := false
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 3 && f[0] == "ready":
				b, _ := strconv.Atoi(f[1])
				ready <- s.recovered(b, f[2], first)
				sawReady = true
			case len(f) == 3 && f[0] == "ack":
				k, _ := strconv.Atoi(f[1])
				us, _ := strconv.ParseInt(f[2], 10, 64)
				s.ack(k, time.Duration(us)*time.Microsecond)
			case len(f) == 2 && f[0] == "checkpoint":
				s.mu.Lock()
				s.rep.Checkpoints++
				s.mu.Unlock()
			}
		}
		if !sawReady {
			ready <- fmt.Errorf("soak: the writer exited before opening the store: %s", strings.TrimSpace(stderr.String()))
		}
	}()
	exited := make(chan error, 1)
	go func() { <-lines; exited <- cmd.Wait() }()
	select {
	case err := <-ready:
		if err != nil {
			cmd.Process.Kill()
			<-exited
			return false, err
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-exited
		return false, fmt.Errorf("soak: the writer did not reopen the store within 2 minutes")
	}
	if !first {
		d := ms(time.Since(began))
		s.mu.Lock()
		s.rep.Recoveries++
		s.rep.RecoveryMaxMs = max(s.rep.RecoveryMaxMs, d)
		s.mu.Unlock()
	}
	timer := time.NewTimer(killAfter)
	defer timer.Stop()
	select {
	case err := <-exited:
		return false, fmt.Errorf("soak: the writer exited by itself (%v): %s", err, strings.TrimSpace(stderr.String()))
	case <-timer.C:
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		return true, nil
	case <-ctx.Done():
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		return false, nil
	}
}

// recovered judges the store a (re)started writer opened: b batches with
// the given digest.
func (s *soak) recovered(b int, digest string, first bool) error {
	acked := int(s.acked.Load())
	if b < acked {
		s.mu.Lock()
		s.rep.LostBatches += acked - b
		s.rep.Stopped = fmt.Sprintf("lost batches %d to %d", b+1, acked)
		s.mu.Unlock()
		return fmt.Errorf("soak: the reopened store holds %d batches after %d were acknowledged", b, acked)
	}
	if first && b > 0 {
		return fmt.Errorf("soak: the store %s is not empty (%d batches): give a new directory", s.c.Dir, b)
	}
	s.omu.Lock()
	err := s.advance(b)
	want := s.oracle.Digest()
	s.omu.Unlock()
	if err != nil {
		return err
	}
	if want != digest {
		s.mu.Lock()
		s.rep.Mismatches.Recovery++
		s.mu.Unlock()
		s.fail(fmt.Sprintf("reopened with %d batches: digest %s, the oracle's %s", b, digest, want))
	}
	s.acked.Store(int64(b))
	return nil
}

// advance applies batches to the oracle until it holds b (omu held).
func (s *soak) advance(b int) error {
	for ; s.oat < b; s.oat++ {
		k := s.oat + 1
		eff, err := bt.Plan(s.oracle, bt.Time(k), uint64(k), SoakBatch(s.c.Seed, k))
		if err != nil {
			return fmt.Errorf("soak: the oracle refuses batch %d: %v", k, err)
		}
		if err := s.oracle.Apply(eff); err != nil {
			return err
		}
	}
	return nil
}

func (s *soak) ack(k int, took time.Duration) {
	s.omu.Lock()
	err := s.advance(k)
	s.omu.Unlock()
	if err != nil {
		s.fail(err.Error())
	}
	s.acked.Store(int64(k))
	s.mu.Lock()
	if !s.c.AckEarly {
		s.writes = append(s.writes, took)
	}
	s.mu.Unlock()
}

// soakPlan is plan i of the readers' mix for one uid.
func soakPlan(i int, uid string) string {
	var step string
	switch i {
	case 0:
		step = fmt.Sprintf(`{"id":"s1","op":"entity_history","args":{"uid":%q,"include_edges":true},"depends_on":[]}`, uid)
	case 1:
		step = fmt.Sprintf(`{"id":"s1","op":"snapshot_subgraph","args":{"seeds":[%q],"t_valid":120,"hops":1},"depends_on":[]}`, uid)
	case 2:
		step = fmt.Sprintf(`{"id":"s1","op":"temporal_reachability","args":{"src":%q,"window":{"t_a":0,"t_b":100000000}},"depends_on":[]}`, uid)
	default:
		step = `{"id":"s1","op":"version_history","args":{"kind":"edge","window":{"t_a":0,"t_b":1000},"belief":"all","change":"correction"},"depends_on":[]}`
	}
	return fmt.Sprintf(`{"plan_id":"soak-%d","steps":[%s],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`, i, step)
}

const soakPlans = 4

type soakKey struct {
	plan int
	uid  string
	tt   int
}

// reader runs plans until ctx ends.
func (s *soak) reader(ctx context.Context, id int) {
	rng := rand.New(rand.NewPCG(s.c.Seed, uint64(100+id)))
	seen := map[soakKey]string{}
	var keys []soakKey
	client := &http.Client{Timeout: 2 * time.Minute}
	for n := 1; ctx.Err() == nil; n++ {
		a := int(s.acked.Load())
		if a == 0 {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		var k soakKey
		if len(keys) > 0 && rng.IntN(2) == 0 {
			k = keys[rng.IntN(len(keys))]
		} else {
			k = soakKey{plan: rng.IntN(soakPlans), uid: fmt.Sprintf("n%d", rng.IntN(soakUIDs)), tt: 1 + rng.IntN(a)}
		}
		t0 := time.Now()
		digest, err := s.runPlan(ctx, client, k)
		took := time.Since(t0)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.mu.Lock()
			if _, down := err.(unavailable); down {
				s.rep.Unavailable++
			} else {
				s.rep.CallErrors++
			}
			s.mu.Unlock()
			if _, down := err.(unavailable); !down {
				s.fail(fmt.Sprintf("reader %d: %v", id, err))
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if s.c.ReaderPause > 0 {
			time.Sleep(s.c.ReaderPause)
		}
		perturbed := s.c.PerturbEvery > 0 && id == 0 && n%s.c.PerturbEvery == 0
		if perturbed {
			digest = perturb(digest)
		}
		s.mu.Lock()
		s.rep.ReaderCalls++
		s.calls = append(s.calls, took)
		s.mu.Unlock()
		if prev, ok := seen[k]; ok {
			s.mu.Lock()
			s.rep.Repeats++
			if prev != digest {
				s.rep.Mismatches.Repeat++
			}
			s.mu.Unlock()
			if prev != digest {
				s.fail(fmt.Sprintf("reader %d: plan %d on %s at tt %d gave %s, earlier %s", id, k.plan, k.uid, k.tt, digest, prev))
			}
		} else if len(seen) < 20000 {
			seen[k] = digest
			keys = append(keys, k)
		}
		if n%s.c.OracleEvery == 0 || perturbed {
			// Not cut off at the run's end: a step stopped by the
			// deadline would give another digest.
			want, err := s.oracleDigest(context.WithoutCancel(ctx), k)
			if err != nil {
				s.fail(fmt.Sprintf("reader %d: oracle: %v", id, err))
				continue
			}
			s.mu.Lock()
			s.rep.OracleRuns++
			if want != digest {
				s.rep.Mismatches.Oracle++
			}
			s.mu.Unlock()
			if want != digest {
				s.fail(fmt.Sprintf("reader %d: plan %d on %s at tt %d gave %s, the oracle %s", id, k.plan, k.uid, k.tt, digest, want))
			}
		}
	}
}

// perturb changes a digest's last character.
func perturb(d string) string {
	if d == "" {
		return "x"
	}
	last := d[len(d)-1]
	if last == '0' {
		last = '1'
	} else {
		last = '0'
	}
	return d[:len(d)-1] + string(last)
}

type unavailable struct{ error }

// runPlan runs a plan through the writer's run_plan and returns its trace
// digest.
func (s *soak) runPlan(ctx context.Context, client *http.Client, k soakKey) (string, error) {
	body, _ := json.Marshal(map[string]any{"plan": json.RawMessage(soakPlan(k.plan, k.uid)), "uids": []string{k.uid}, "as_of_tt": k.tt})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"run_plan", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", unavailable{err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", unavailable{err}
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("run_plan plan %d uid %s tt %d: HTTP %d: %.300s", k.plan, k.uid, k.tt, resp.StatusCode, b)
	}
	var r struct {
		TraceDigest string `json:"trace_digest"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.TraceDigest == "" {
		return "", fmt.Errorf("run_plan: no trace digest in %.300s", b)
	}
	return r.TraceDigest, nil
}

// oracleSource reads the oracle engine.
type oracleSource struct{ s *engine.Store }

func (o oracleSource) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	return fn(o.s.Reader(asOf))
}
func (o oracleSource) LastTT() bt.Time { return o.s.LastTT() }

// oracleDigest runs the plan on the oracle at the key's belief time.
func (s *soak) oracleDigest(ctx context.Context, k soakKey) (string, error) {
	v := plan.ValidateJSON([]byte(soakPlan(k.plan, k.uid)), plan.Options{UIDs: []string{k.uid}})
	if !v.Valid {
		return "", fmt.Errorf("plan %d refused: %v", k.plan, v.Violations)
	}
	s.omu.RLock()
	defer s.omu.RUnlock()
	if s.oat < k.tt {
		return "", fmt.Errorf("the oracle holds %d batches, not %d", s.oat, k.tt)
	}
	tr := texec.Run(ctx, oracleSource{s.oracle}, v.Plan, texec.Options{AsOf: bt.Time(k.tt)})
	return tr.TraceDigest, nil
}
