package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// PCG stream constants: one independent random stream per purpose, all
// seeded with GenConfig.Seed.
const (
	streamCorrections = 0x0C0FFEE   // the context the corrections are drawn from, and their windows
	streamContext     = 0x5EED      // the context tasks are drawn from (after the corrections)
	streamTasks       = 0x7A5C7A5   // template parameters
	streamSplit       = 0xDEADBEEF  // the dev/test split
	streamPlanted     = 0x9E3779B97 // planted-pattern question windows
)

// Context sizes: the top nodes by degree plus a seeded sample of active
// nodes, up to contextUIDs in all.
const (
	contextTop  = 50
	contextUIDs = 100
	maxTries    = 6 // attempts per wanted task
	rowLimit    = 10_000
	day         = 86_400_000_000
	hour        = 3_600_000_000
)

// Sizes are how many tasks a suite wants per family (T2 has one task per
// planted pattern; probes come in before/now pairs, Probes pairs).
type Sizes struct {
	T1, T3, T4, Probes int
}

// DefaultSizes are the reference suite's sizes.
var DefaultSizes = Sizes{T1: 60, T3: 24, T4: 16, Probes: 8}

// GenConfig configures Generate.
type GenConfig struct {
	Dataset string // the dataset name, used in task ids
	Seed    uint64
	Sizes   Sizes
	// Manifest is the synthetic generator's manifest; when set, the suite
	// gets a t2 family of planted-pattern questions with manifest gold.
	Manifest *datasets.Manifest
}

// Probe is one injected (or reused) correction: node UID was corrected over
// [VtS, VtE) in the batch at TTAfter; TTBefore is the last transaction time
// before it.
type Probe struct {
	UID      string  `json:"uid"`
	TTBefore bt.Time `json:"tt_before"`
	TTAfter  bt.Time `json:"tt_after"`
	VtS      bt.Time `json:"vt_s"`
	VtE      bt.Time `json:"vt_e"`
}

// Report says how a generation went: the probes used, and per template how
// many attempts were made and why some were skipped.
type Report struct {
	Probes       []Probe                   `json:"probes"`
	ProbesReused bool                      `json:"probes_reused"`
	AsOfTT       bt.Time                   `json:"as_of_tt"`
	Attempts     map[string]int            `json:"attempts"`
	Skipped      map[string]map[string]int `json:"skipped"` // template → reason → count
	// Seconds is the wall time spent per template (validation and runs).
	Seconds       map[string]float64 `json:"seconds"`
	ContextUIDs   int                `json:"context_uids"`
	ValidTimeFrom bt.Time            `json:"vt_min"`
	ValidTimeTo   bt.Time            `json:"vt_max"`
}

type gen struct {
	ctx    context.Context
	db     *tgms.DB
	cfg    GenConfig
	stats  *ops.Stats
	asOf   bt.Time
	t0, t1 int64
	span   int64
	uids   []string
	rng    *rand.Rand
	events map[string][]evt
	report *Report
}

// evt is one event incident to a node, as the generator sees it.
type evt struct {
	t     int64
	other string
	out   bool
}

// Generate builds a task suite from the store: it injects (or reuses) the
// correction probes, then instantiates the task families and computes gold
// by running every oracle plan. It is deterministic given the store's
// content and cfg. Suite.Report says what was skipped and why.
func Generate(ctx context.Context, db *tgms.DB, cfg GenConfig) (*Suite, error) {
	if cfg.Dataset == "" {
		return nil, errors.New("eval: GenConfig.Dataset is required")
	}
	if cfg.Sizes == (Sizes{}) {
		cfg.Sizes = DefaultSizes
	}
	g := &gen{ctx: ctx, db: db, cfg: cfg, events: map[string][]evt{},
		report: &Report{Attempts: map[string]int{}, Skipped: map[string]map[string]int{}, Seconds: map[string]float64{}}}
	st := db.Stats()
	if st.EdgeVersions == 0 || st.VtMax <= st.VtMin {
		return nil, errors.New("eval: the store holds no edge events to ask about")
	}
	g.t0, g.t1 = st.VtMin, st.VtMax
	g.span = g.t1 - g.t0

	// Corrections first, drawn from a context of their own.
	g.asOf = db.LastTT()
	g.uids = g.context(rand.New(rand.NewPCG(cfg.Seed, streamCorrections)))
	probes, reused, err := g.injectCorrections(rand.New(rand.NewPCG(cfg.Seed, streamCorrections^1)), cfg.Sizes.Probes)
	if err != nil {
		return nil, err
	}
	g.report.Probes, g.report.ProbesReused = probes, reused

	// Everything else is computed on the corrected store, pinned.
	g.asOf = db.LastTT()
	st = db.Stats()
	g.stats = &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	g.t0, g.t1 = st.VtMin, st.VtMax
	g.span = g.t1 - g.t0
	g.uids = g.context(rand.New(rand.NewPCG(cfg.Seed, streamContext)))
	g.report.AsOfTT, g.report.ContextUIDs = g.asOf, len(g.uids)
	g.report.ValidTimeFrom, g.report.ValidTimeTo = g.t0, g.t1
	g.rng = rand.New(rand.NewPCG(cfg.Seed, streamTasks))

	var all []Task
	for _, f := range []struct {
		family string
		tpls   []template
		n      int
	}{
		{FamilyT1, t1Templates, cfg.Sizes.T1},
		{FamilyT3, t3Templates, cfg.Sizes.T3},
		{FamilyT4, t4Templates, cfg.Sizes.T4},
	} {
		ts, err := g.family(f.family, f.tpls, f.n)
		if err != nil {
			return nil, err
		}
		all = append(all, ts...)
	}
	ps, err := g.probeTasks(probes)
	if err != nil {
		return nil, err
	}
	all = append(all, ps...)
	if cfg.Manifest != nil {
		ts, err := g.plantedTasks(cfg.Manifest)
		if err != nil {
			return nil, err
		}
		all = append(all, ts...)
	}
	s := &Suite{Dataset: cfg.Dataset, Seed: cfg.Seed}
	s.Dev, s.Test = split(all, cfg.Seed)
	if s.TestSplitSHA, err = splitSHA(s.Test); err != nil {
		return nil, err
	}
	s.Report = g.report
	return s, nil
}

// context returns the top nodes by degree (out + in believed edge
// versions; ties by first registration) followed by a seeded sample of
// the other active nodes, contextUIDs in all at most.
func (g *gen) context(rng *rand.Rand) []string {
	var out []string
	g.db.Read(g.asOf, func(r engine.Reader) error {
		type nd struct {
			id  uint32
			deg int
		}
		var active []nd
		for id := range uint32(r.NumNodes()) {
			if !r.Known(id) {
				continue
			}
			if d := len(r.Out(id)) + len(r.In(id)); d > 0 {
				active = append(active, nd{id, d})
			}
		}
		byDeg := slices.Clone(active)
		slices.SortStableFunc(byDeg, func(a, b nd) int { return cmp.Compare(b.deg, a.deg) })
		seen := map[uint32]bool{}
		for _, n := range byDeg[:min(contextTop, len(byDeg))] {
			seen[n.id] = true
			out = append(out, r.UID(n.id))
		}
		rest := make([]nd, 0, len(active))
		for _, n := range active {
			if !seen[n.id] {
				rest = append(rest, n)
			}
		}
		for i := 0; i < len(rest) && len(out) < contextUIDs; i++ {
			j := i + rng.IntN(len(rest)-i)
			rest[i], rest[j] = rest[j], rest[i]
			out = append(out, r.UID(rest[i].id))
		}
		return nil
	})
	return out
}

// nodeEvents lists the believed edge versions incident to uid by valid
// start: the events the generator anchors node questions on.
func (g *gen) nodeEvents(uid string) []evt {
	if ev, ok := g.events[uid]; ok {
		return ev
	}
	var ev []evt
	g.db.Read(g.asOf, func(r engine.Reader) error {
		id, ok := r.Node(uid)
		if !ok {
			return nil
		}
		for _, v := range r.Out(id) {
			ev = append(ev, evt{t: r.Valid(v).Start, other: r.UID(r.Dst(v)), out: true})
		}
		for _, v := range r.In(id) {
			ev = append(ev, evt{t: r.Valid(v).Start, other: r.UID(r.Src(v))})
		}
		return nil
	})
	slices.SortStableFunc(ev, func(a, b evt) int { return cmp.Compare(a.t, b.t) })
	g.events[uid] = ev
	return ev
}

// pickNode draws a context node and one of its events (outgoing only when
// out is set) inside the extent; ok is false when five draws found none.
func (g *gen) pickNode(out bool) (string, evt, bool) {
	for range 5 {
		x := g.uids[g.rng.IntN(len(g.uids))]
		var cands []evt
		for _, e := range g.nodeEvents(x) {
			if (!out || e.out) && e.t >= g.t0 && e.t < g.t1 {
				cands = append(cands, e)
			}
		}
		if len(cands) > 0 {
			return x, cands[g.rng.IntN(len(cands))], true
		}
	}
	return "", evt{}, false
}

// window draws a window of span × uniform(minF, maxF) inside the extent.
func (g *gen) window(minF, maxF float64) (int64, int64) {
	l := g.windowLen(minF, maxF)
	ta := g.t0 + g.rng.Int64N(max(1, g.span-l))
	return ta, ta + l
}

func (g *gen) windowLen(minF, maxF float64) int64 {
	frac := minF + g.rng.Float64()*(maxF-minF)
	return min(g.span, max(2, int64(float64(g.span)*frac)))
}

// windowAt draws a window like window that contains t, starting a little
// before it.
func (g *gen) windowAt(t int64, minF, maxF float64) (int64, int64) {
	l := g.windowLen(minF, maxF)
	ta := max(g.t0, t-g.rng.Int64N(max(1, l/8)))
	if ta+l > g.t1 {
		ta = max(g.t0, g.t1-l)
	}
	return ta, ta + l
}

// stride is max(one day, length/buckets) in whole days, widened so that
// there are at most 2000 buckets: a width a question prints exactly.
func stride(ta, tb int64, buckets int64) int64 {
	s := max(day, (tb-ta)/buckets/day*day)
	for (tb-ta+s-1)/s > 2000 {
		s += day
	}
	return s
}

// wholeHours rounds a duration down to whole hours (at least one).
func wholeHours(d int64) int64 { return max(hour, d/hour*hour) }

// family instantiates templates round-robin until n tasks are accepted or
// maxTries·n attempts are spent.
func (g *gen) family(fam string, tpls []template, n int) ([]Task, error) {
	var tasks []Task
	for i := 0; len(tasks) < n && i < maxTries*n; i++ {
		tp := tpls[i%len(tpls)]
		para := (i / len(tpls)) % 3
		name := fam + "-" + tp.name
		g.report.Attempts[name]++
		start := time.Now()
		d := tp.build(g, para)
		if d == nil {
			g.skip(name, "no parameters")
			continue
		}
		t, reason, err := g.oracle(fam, name, tp.kind, tp.difficulty, d, len(tasks))
		g.report.Seconds[name] += time.Since(start).Seconds()
		if err != nil {
			return nil, err
		}
		if t == nil {
			g.skip(name, reason)
			continue
		}
		tasks = append(tasks, *t)
	}
	return tasks, nil
}

func (g *gen) skip(template, reason string) {
	if g.report.Skipped[template] == nil {
		g.report.Skipped[template] = map[string]int{}
	}
	g.report.Skipped[template][reason]++
}

// draft is a template instance before its gold is known.
type draft struct {
	question string
	uids     []string
	steps    []step
	from     string
	nonEmpty bool // a zero or empty answer is not worth asking
	planID   string
	taskID   string
}

type step struct {
	id, op string
	args   map[string]any
	deps   []string
}

func mkStep(id, op string, args map[string]any, deps ...string) step {
	return step{id: id, op: op, args: args, deps: deps}
}

func ref(path string) map[string]any { return map[string]any{"$ref": path} }

func win(ta, tb int64) map[string]any { return map[string]any{"t_a": ta, "t_b": tb} }

// planValue renders a draft as a plan in the canon value model.
func planValue(id, question, kind, from string, steps []step) (map[string]any, error) {
	ss := make([]any, len(steps))
	for i, s := range steps {
		deps := s.deps
		if deps == nil {
			deps = []string{}
		}
		ss[i] = map[string]any{"id": s.id, "op": s.op, "args": s.args, "depends_on": deps}
	}
	raw := map[string]any{"plan_id": id, "question": question, "steps": ss,
		"answer_spec": map[string]any{"kind": kind, "from": from}}
	data, err := canon.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("oracle plan %s: %w", id, err)
	}
	v, err := canon.Parse(data)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// oracle validates and runs a draft's oracle plan and turns it into a
// task. A nil task with a reason means the attempt is skipped; an error
// means the generator built a plan the contract rejects.
func (g *gen) oracle(fam, name, kind, difficulty string, d *draft, idx int) (*Task, string, error) {
	planID := cmp.Or(d.planID, name)
	raw, err := planValue(planID, d.question, kind, d.from, d.steps)
	if err != nil {
		return nil, "", err
	}
	uids := slices.Clone(d.uids)
	if uids == nil {
		uids = []string{}
	}
	v := plan.Validate(raw, plan.Options{UIDs: uids, Stats: g.stats})
	if !v.Valid {
		if onlyCost(v.Violations) {
			return nil, "cost refused", nil
		}
		return nil, "", fmt.Errorf("eval: template %s built an oracle plan the contract rejects: %s", name, violations(v.Violations))
	}
	tr := exec.Run(g.ctx, g.db, v.Plan, exec.Options{AsOf: g.asOf})
	if err := g.ctx.Err(); err != nil {
		return nil, "", err
	}
	if !tr.OK || tr.AnswerError != nil {
		return nil, "execution failed (" + failCode(tr) + ")", nil
	}
	if !answerComplete(tr, v.Plan) {
		return nil, "incomplete evidence", nil
	}
	if (d.nonEmpty || kind == KindEntitySet) && isEmpty(tr.Answer) {
		return nil, "empty answer", nil
	}
	ans := evidence.Mechanical(tr, v.Plan)
	for _, r := range evidence.Verify(tr, ans, evidence.Options{}) {
		if r.Verdict != evidence.Supported {
			return nil, "gold claim not supported", nil
		}
	}
	id := cmp.Or(d.taskID, fmt.Sprintf("%s-%s-%03d", g.cfg.Dataset, name, idx))
	return &Task{
		ID: id, Family: fam, Template: name, Dataset: g.cfg.Dataset,
		QuestionText: d.question, OraclePlan: raw, AnswerKind: kind,
		Gold: tr.Answer, GoldAnswerObject: answerValue(ans), InputUIDs: uids,
		Difficulty: difficulty, GoldSource: GoldOraclePlan, AsOfTT: tr.AsOfTT,
	}, "", nil
}

// failCode names why a trace failed: the first failed step's error code,
// or the answer error's.
func failCode(tr *exec.Trace) string {
	for _, s := range tr.Steps {
		if s.Error != nil {
			return s.StepID + " " + s.Error.Code
		}
	}
	if tr.AnswerError != nil {
		return "answer " + tr.AnswerError.Code
	}
	return "not ok"
}

func onlyCost(vs []plan.Violation) bool {
	for _, v := range vs {
		if v.Rule != plan.RuleCost {
			return false
		}
	}
	return len(vs) > 0
}

func violations(vs []plan.Violation) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s at %s: %s", v.Rule, v.Path, v.Message)
	}
	return b.String()
}

// answerComplete reports whether the answer was read from complete
// evidence: the answer step is complete, or the field the answer reads is
// (an indexed row of a page counts: rows are totally ordered, so the i-th
// row of a page is the i-th row of the result).
func answerComplete(tr *exec.Trace, p *plan.Plan) bool {
	r, err := plan.ParseRef(p.Answer.From, true)
	if err != nil {
		return false
	}
	s, ok := tr.Step(r.Step)
	if !ok || s.Status != "ok" || s.Evidence == nil {
		return false
	}
	c := s.Evidence.Completeness
	if c.Tainted {
		return false
	}
	if c.Complete {
		return true
	}
	if len(r.Path) == 0 {
		return false
	}
	switch c.Fields[r.Path[0].Name] {
	case exec.FieldComplete:
		return true
	case exec.FieldPartial:
		return r.Path[0].Index >= 0 && !r.Path[0].Star
	}
	return false
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		return len(x) == 0
	case int64:
		return x == 0
	case float64:
		return x == 0
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// answerValue renders an answer object in the canon value model (keeping
// floats floats, which a trip through encoding/json would not).
func answerValue(a *evidence.Answer) map[string]any {
	claims := make([]any, len(a.Claims))
	for i, c := range a.Claims {
		m := map[string]any{"id": c.ID, "kind": c.Kind, "step": c.Step}
		if c.Path != "" {
			m["path"] = c.Path
		}
		if c.Value != nil {
			m["value"] = c.Value
		}
		if c.UIDs != nil {
			uids := make([]any, len(c.UIDs))
			for j, u := range c.UIDs {
				uids[j] = u
			}
			m["uids"] = uids
		}
		for k, s := range map[string]string{"key": c.Key, "by": c.By, "first": c.First, "second": c.Second, "pattern": c.Pattern} {
			if s != "" {
				m[k] = s
			}
		}
		if c.TA != nil {
			m["t_a"] = *c.TA
		}
		if c.TB != nil {
			m["t_b"] = *c.TB
		}
		if c.AsOfTT != nil {
			m["as_of_tt"] = *c.AsOfTT
		}
		claims[i] = m
	}
	return map[string]any{"text": a.Text, "claims": claims}
}

// ts prints a time as a UTC date and in microseconds.
func ts(t int64) string {
	return time.UnixMicro(t).UTC().Format("2006-01-02 15:04") + " UTC (" + fmt.Sprint(t) + ")"
}

// span prints a window "from A to B".
func span(ta, tb int64) string { return "from " + ts(ta) + " to " + ts(tb) }

// exact prints a duration exactly: in the largest of days, hours, minutes
// and seconds that divides it, else as a rounded figure with the
// microseconds beside it ("1.5 hours (5400000001 µs)").
func exact(d int64) string {
	for _, u := range []struct {
		us   int64
		name string
	}{{day, "day"}, {hour, "hour"}, {60_000_000, "minute"}, {1_000_000, "second"}} {
		if d%u.us == 0 {
			if d == u.us {
				return "1 " + u.name
			}
			return fmt.Sprintf("%d %ss", d/u.us, u.name)
		}
	}
	return fmt.Sprintf("%.1f hours (%d µs)", float64(d)/hour, d)
}
