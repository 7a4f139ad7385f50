package eval

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
)

// FloatTolerance is the relative tolerance for comparing float answers.
const FloatTolerance = 1e-9

// IoUThreshold is the intersection over union an interval answer needs.
const IoUThreshold = 0.5

// Match reports whether pred answers a task of the given kind whose gold
// is gold:
//
//   - count, value: numbers compare exactly when both are integers, else
//     within FloatTolerance relative to the larger magnitude; a numeric
//     string counts as its number; other values compare as canonical JSON
//     (uid strings exactly);
//   - entity_set: set equality of the uids in each side (see UIDSet);
//   - interval: IoU(gold, pred) ≥ 0.5 (see Interval);
//   - anything else: canonical JSON equality.
//
// A nil prediction never matches.
func Match(kind string, gold, pred any) bool {
	if pred == nil {
		return false
	}
	switch kind {
	case KindCount, KindValue:
		if g, gi, ok := number(gold); ok {
			p, pi, ok := number(pred)
			if !ok {
				return false
			}
			if gi && pi {
				return exactInt(gold) == exactInt(pred)
			}
			return closeFloat(g, p)
		}
		return canon.Equal(gold, pred)
	case KindEntitySet:
		return slices.Equal(UIDSet(gold), UIDSet(pred))
	case KindInterval:
		return IoU(gold, pred) >= IoUThreshold
	}
	return canon.Equal(gold, pred)
}

// number reads a JSON number (or a numeric string) as a float, and says
// whether it is an integer. Booleans are not numbers.
func number(v any) (f float64, isInt, ok bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true, true
	case int:
		return float64(x), true, true
	case float64:
		return x, false, !math.IsNaN(x) && !math.IsInf(x, 0)
	case string:
		if i, err := strconv.ParseInt(x, 10, 64); err == nil {
			return float64(i), true, true
		}
		if f, err := strconv.ParseFloat(x, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, false, true
		}
	}
	return 0, false, false
}

// exactInt returns an integer answer's exact value (beyond 2^53).
func exactInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case string:
		i, _ := strconv.ParseInt(x, 10, 64)
		return i
	}
	return 0
}

func closeFloat(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= FloatTolerance*max(math.Abs(a), math.Abs(b))
}

// UIDSet extracts the sorted, de-duplicated uids of an entity-set answer:
// a string is a uid; in objects, the strings under the keys uid, src and
// dst (at any depth) are; lists contribute their elements.
func UIDSet(v any) []string {
	var out []string
	var walk func(v any, top bool)
	walk = func(v any, take bool) {
		switch x := v.(type) {
		case string:
			if take {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e, take)
			}
		case []string:
			if take {
				out = append(out, x...)
			}
		case map[string]any:
			for k, e := range x {
				walk(e, k == "uid" || k == "src" || k == "dst")
			}
		}
	}
	walk(v, true)
	slices.Sort(out)
	return slices.Compact(out)
}

// Interval reads an interval answer: an object with t_a and t_b (or start
// and end), or a two-element list [start, end].
func Interval(v any) (start, end float64, ok bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, keys := range [][2]string{{"t_a", "t_b"}, {"start", "end"}} {
			a, _, okA := number(x[keys[0]])
			b, _, okB := number(x[keys[1]])
			if okA && okB {
				return a, b, true
			}
		}
	case []any:
		if len(x) == 2 {
			a, _, okA := number(x[0])
			b, _, okB := number(x[1])
			if okA && okB {
				return a, b, true
			}
		}
	}
	return 0, 0, false
}

// IoU is the intersection over union of two interval answers; 0 when
// either is missing or empty.
func IoU(gold, pred any) float64 {
	gs, ge, ok1 := Interval(gold)
	ps, pe, ok2 := Interval(pred)
	if !ok1 || !ok2 || ge <= gs || pe <= ps {
		return 0
	}
	inter := min(ge, pe) - max(gs, ps)
	union := max(ge, pe) - min(gs, ps)
	if inter <= 0 || union <= 0 {
		return 0
	}
	return inter / union
}

// Answers maps task ids to answers (nil for an explicit null).
type Answers map[string]any

// ReadAnswers reads a JSONL answers file: one object per line with "id"
// (a string) and "answer" (any JSON value, null for no answer); other
// fields are ignored, blank lines skipped. A repeated id is an error.
func ReadAnswers(r io.Reader, name string) (Answers, error) {
	out := Answers{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		v, err := canon.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s:%d: each line must be a JSON object {\"id\": ..., \"answer\": ...}", name, line)
		}
		id, ok := m["id"].(string)
		if !ok || id == "" {
			return nil, fmt.Errorf("%s:%d: \"id\" must be a non-empty string (a task id)", name, line)
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s:%d: task %s is answered twice", name, line, id)
		}
		out[id] = m["answer"]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return out, nil
}

// WriteAnswers writes answers as JSONL in task order, one canonical JSON
// object {"answer", "id"} per line.
func WriteAnswers(w io.Writer, tasks []Task, answers Answers) error {
	bw := bufio.NewWriter(w)
	for _, t := range tasks {
		a, ok := answers[t.ID]
		if !ok {
			continue
		}
		b, err := canon.Marshal(map[string]any{"id": t.ID, "answer": a})
		if err != nil {
			return fmt.Errorf("answer of %s: %w", t.ID, err)
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// GoldAnswers are the tasks' gold answers, as an answers set: scoring them
// gives accuracy 1.
func GoldAnswers(tasks []Task) Answers {
	out := Answers{}
	for _, t := range tasks {
		out[t.ID] = t.Gold
	}
	return out
}

// TraceAnswer is the answer a TGMS-family system is scored on: the raw
// executor answer (the value at the plan's answer_spec.from), nil when the
// run produced none.
func TraceAnswer(tr *exec.Trace) any {
	if tr == nil || tr.AnswerError != nil {
		return nil
	}
	return tr.Answer
}

// TaskScore is one task's outcome.
type TaskScore struct {
	ID       string `json:"id"`
	Family   string `json:"family"`
	Kind     string `json:"answer_kind"`
	Answered bool   `json:"answered"`
	Correct  bool   `json:"correct"`
}

// Tally is accuracy and coverage over a set of tasks.
type Tally struct {
	N        int     `json:"n"`
	Answered int     `json:"answered"`
	Correct  int     `json:"correct"`
	Accuracy float64 `json:"accuracy"` // correct / n (unanswered tasks are wrong)
	Coverage float64 `json:"coverage"` // answered / n
	// ConditionalAccuracy is correct / answered (0 when nothing was answered).
	ConditionalAccuracy float64 `json:"conditional_accuracy"`
}

func (t *Tally) add(s TaskScore) {
	t.N++
	if s.Answered {
		t.Answered++
	}
	if s.Correct {
		t.Correct++
	}
}

func (t *Tally) finish() {
	if t.N > 0 {
		t.Accuracy = float64(t.Correct) / float64(t.N)
		t.Coverage = float64(t.Answered) / float64(t.N)
	}
	if t.Answered > 0 {
		t.ConditionalAccuracy = float64(t.Correct) / float64(t.Answered)
	}
}

// FamilyTally is a Tally for one family.
type FamilyTally struct {
	Family string `json:"family"`
	Tally
}

// Scores is a system's result on a list of tasks.
type Scores struct {
	Overall  Tally         `json:"overall"`
	Families []FamilyTally `json:"families"` // sorted by family
	Tasks    []TaskScore   `json:"tasks"`    // in task order
	// Unknown counts answers whose id names no task of the scored list.
	Unknown int `json:"unknown_ids"`
}

// Score scores answers against tasks: typed-answer accuracy, coverage
// (tasks with a non-null answer), and both per family.
func Score(tasks []Task, answers Answers) *Scores {
	s := &Scores{Tasks: make([]TaskScore, 0, len(tasks))}
	fam := map[string]*FamilyTally{}
	known := map[string]bool{}
	for _, t := range tasks {
		known[t.ID] = true
		pred, ok := answers[t.ID]
		ts := TaskScore{ID: t.ID, Family: t.Family, Kind: t.AnswerKind, Answered: ok && pred != nil}
		ts.Correct = ts.Answered && Match(t.AnswerKind, t.Gold, pred)
		s.Tasks = append(s.Tasks, ts)
		s.Overall.add(ts)
		if fam[t.Family] == nil {
			fam[t.Family] = &FamilyTally{Family: t.Family}
		}
		fam[t.Family].add(ts)
	}
	for id := range answers {
		if !known[id] {
			s.Unknown++
		}
	}
	s.Overall.finish()
	for _, f := range fam {
		f.finish()
		s.Families = append(s.Families, *f)
	}
	slices.SortFunc(s.Families, func(a, b FamilyTally) int { return cmp.Compare(a.Family, b.Family) })
	return s
}

// Correctness returns 1 for each correct task and 0 otherwise, in task
// order: the per-task outcomes PairedBootstrap compares.
func (s *Scores) Correctness() []float64 {
	out := make([]float64, len(s.Tasks))
	for i, t := range s.Tasks {
		if t.Correct {
			out[i] = 1
		}
	}
	return out
}

// Bootstrap defaults.
const (
	DefaultResamples = 10_000
	DefaultCI        = 0.95
)

// CI is a paired-bootstrap confidence interval of mean(a − b).
type CI struct {
	Diff        float64 `json:"diff"`
	Low         float64 `json:"ci_low"`
	High        float64 `json:"ci_high"`
	Level       float64 `json:"ci"`
	NTasks      int     `json:"n_tasks"`
	NResamples  int     `json:"n_resamples"`
	Seed        uint64  `json:"seed"`
	Significant bool    `json:"significant"` // the interval excludes 0
}

// PairedBootstrap estimates a 95% confidence interval of the mean
// difference a[i] − b[i] over paired tasks: resamples draws of n task
// indices with replacement from a PCG stream seeded with seed, the
// percentiles at 2.5% and 97.5% of the sorted resample means. It is
// deterministic given its arguments. a and b must have the same length.
func PairedBootstrap(a, b []float64, resamples int, seed uint64) (CI, error) {
	if len(a) != len(b) {
		return CI{}, fmt.Errorf("paired bootstrap: %d outcomes against %d; the systems must be scored on the same tasks", len(a), len(b))
	}
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	n := len(a)
	ci := CI{Level: DefaultCI, NTasks: n, NResamples: resamples, Seed: seed}
	if n == 0 {
		return ci, nil
	}
	d := make([]float64, n)
	var sum float64
	for i := range a {
		d[i] = a[i] - b[i]
		sum += d[i]
	}
	ci.Diff = sum / float64(n)
	rng := rand.New(rand.NewPCG(seed, 0xB0075))
	stats := make([]float64, resamples)
	for r := range stats {
		var s float64
		for range n {
			s += d[rng.IntN(n)]
		}
		stats[r] = s / float64(n)
	}
	sort.Float64s(stats)
	ci.Low = stats[int(0.025*float64(resamples))]
	ci.High = stats[min(resamples-1, int(0.975*float64(resamples)))]
	ci.Significant = ci.Low > 0 || ci.High < 0
	return ci, nil
}
