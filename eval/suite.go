package eval

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/tgms-go/tgms/canon"
)

// Families, in the order suites list them.
const (
	FamilyT1    = "t1"
	FamilyT2    = "t2"
	FamilyT3    = "t3"
	FamilyT4    = "t4"
	FamilyProbe = "probe"
)

// Answer kinds (plan answer_spec kinds a task can have).
const (
	KindCount     = "count"
	KindValue     = "value"
	KindEntitySet = "entity_set"
	KindInterval  = "interval"
)

// Gold sources.
const (
	GoldOraclePlan = "oracle_plan"
	GoldManifest   = "manifest"
)

// Task is one question with its oracle plan and gold answer. Values that
// hold JSON (OraclePlan, Gold, GoldAnswerObject) are in the canon value
// model: int64, float64, string, bool, nil, []any, map[string]any.
type Task struct {
	ID               string         `json:"id"`
	Family           string         `json:"family"`
	Template         string         `json:"template"`
	Dataset          string         `json:"dataset"`
	QuestionText     string         `json:"question_text"`
	OraclePlan       map[string]any `json:"oracle_plan"`
	AnswerKind       string         `json:"answer_kind"`
	Gold             any            `json:"gold"`
	GoldAnswerObject map[string]any `json:"gold_answer_object"`
	InputUIDs        []string       `json:"input_uids"`
	Difficulty       string         `json:"difficulty"`
	GoldSource       string         `json:"gold_source"`
	// AsOfTT is the belief time the gold was computed at: re-running the
	// oracle plan pinned there reproduces it (0 for manifest gold).
	AsOfTT int64 `json:"as_of_tt"`
}

// Suite is a generated task suite: tasks split into dev and test.
type Suite struct {
	Dataset      string `json:"dataset"`
	Seed         uint64 `json:"seed"`
	Dev          []Task `json:"dev"`
	Test         []Task `json:"test"`
	TestSplitSHA string `json:"test_split_sha"`
	// Basis is the store the gold was computed on: the digest of the store
	// the suite was generated from and the probes written into a copy of
	// it (nil in suites that predate it).
	Basis *Basis `json:"store,omitempty"`
	// Report is how generation went (not part of the suite's JSON).
	Report *Report `json:"-"`
}

// Tasks returns the tasks of a split: "dev", "test" or "all".
func (s *Suite) Tasks(split string) ([]Task, error) {
	switch split {
	case "dev":
		return s.Dev, nil
	case "test", "":
		return s.Test, nil
	case "all":
		return append(slices.Clip(s.Dev), s.Test...), nil
	}
	return nil, fmt.Errorf("unknown split %q: use dev, test or all", split)
}

func (t *Task) value() map[string]any {
	uids := make([]any, len(t.InputUIDs))
	for i, u := range t.InputUIDs {
		uids[i] = u
	}
	return map[string]any{
		"id": t.ID, "family": t.Family, "template": t.Template, "dataset": t.Dataset,
		"question_text": t.QuestionText, "oracle_plan": t.OraclePlan, "answer_kind": t.AnswerKind,
		"gold": t.Gold, "gold_answer_object": t.GoldAnswerObject, "input_uids": uids,
		"difficulty": t.Difficulty, "gold_source": t.GoldSource, "as_of_tt": t.AsOfTT,
	}
}

func taskList(ts []Task) []any {
	out := make([]any, len(ts))
	for i := range ts {
		out[i] = ts[i].value()
	}
	return out
}

// splitSHA is the SHA-256 of the canonical JSON of the test list.
func splitSHA(test []Task) (string, error) {
	return canon.Digest(taskList(test))
}

// MarshalCanonical renders the suite as canonical JSON:
// {dataset, seed, n_dev, n_test, dev, test, test_split_sha, store}.
func (s *Suite) MarshalCanonical() ([]byte, error) {
	if s.Seed > 1<<63-1 {
		return nil, fmt.Errorf("seed %d does not fit a JSON integer", s.Seed)
	}
	m := map[string]any{
		"dataset": s.Dataset, "seed": int64(s.Seed),
		"n_dev": int64(len(s.Dev)), "n_test": int64(len(s.Test)),
		"dev": taskList(s.Dev), "test": taskList(s.Test),
		"test_split_sha": s.TestSplitSHA,
	}
	if s.Basis != nil {
		m["store"] = s.Basis.value()
	}
	return canon.Marshal(m)
}

// ReadSuite reads a suite written by MarshalCanonical (any JSON layout),
// checks its counts and recomputes test_split_sha: a suite whose test list
// was edited is refused. name labels errors.
func ReadSuite(r io.Reader, name string) (*Suite, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	v, err := canon.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a suite is a JSON object", name)
	}
	s := &Suite{}
	var bad []string
	str := func(m map[string]any, k string) string {
		x, ok := m[k].(string)
		if !ok {
			bad = append(bad, k)
		}
		return x
	}
	s.Dataset = str(m, "dataset")
	s.TestSplitSHA = str(m, "test_split_sha")
	seed, ok := m["seed"].(int64)
	if !ok || seed < 0 {
		bad = append(bad, "seed")
	}
	s.Seed = uint64(seed)
	readList := func(k string) []Task {
		list, ok := m[k].([]any)
		if !ok {
			bad = append(bad, k)
			return nil
		}
		out := make([]Task, 0, len(list))
		for i, e := range list {
			tm, ok := e.(map[string]any)
			if !ok {
				bad = append(bad, fmt.Sprintf("%s[%d]", k, i))
				continue
			}
			t := Task{}
			t.ID = str(tm, "id")
			t.Family = str(tm, "family")
			t.Template, _ = tm["template"].(string)
			t.Dataset = str(tm, "dataset")
			t.QuestionText = str(tm, "question_text")
			t.OraclePlan, _ = tm["oracle_plan"].(map[string]any)
			t.AnswerKind = str(tm, "answer_kind")
			t.Gold = tm["gold"]
			t.GoldAnswerObject, _ = tm["gold_answer_object"].(map[string]any)
			t.Difficulty, _ = tm["difficulty"].(string)
			t.GoldSource = str(tm, "gold_source")
			t.AsOfTT, _ = tm["as_of_tt"].(int64)
			uids, _ := tm["input_uids"].([]any)
			for _, u := range uids {
				if s, ok := u.(string); ok {
					t.InputUIDs = append(t.InputUIDs, s)
				}
			}
			if t.InputUIDs == nil {
				t.InputUIDs = []string{}
			}
			out = append(out, t)
		}
		return out
	}
	s.Dev = readList("dev")
	s.Test = readList("test")
	if b, ok := m["store"]; ok {
		basis, err := readBasis(b)
		if err != nil {
			return nil, fmt.Errorf("%s: store: %w", name, err)
		}
		s.Basis = basis
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%s: missing or mistyped suite fields: %v", name, bad)
	}
	if n, _ := m["n_test"].(int64); n != int64(len(s.Test)) {
		return nil, fmt.Errorf("%s: n_test is %d but the test list has %d tasks", name, n, len(s.Test))
	}
	if n, _ := m["n_dev"].(int64); n != int64(len(s.Dev)) {
		return nil, fmt.Errorf("%s: n_dev is %d but the dev list has %d tasks", name, n, len(s.Dev))
	}
	sha, err := splitSHA(s.Test)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if sha != s.TestSplitSHA {
		return nil, fmt.Errorf("%s: test_split_sha %s does not match the test list (its hash is %s): the suite was edited", name, s.TestSplitSHA, sha)
	}
	return s, nil
}

// split cuts every family 20/80 into dev and test: families in sorted
// name order, each shuffled with one seeded stream, the first
// max(1, n/5) to dev; both lists sorted by id.
func split(tasks []Task, seed uint64) (dev, test []Task) {
	byFamily := map[string][]Task{}
	for _, t := range tasks {
		byFamily[t.Family] = append(byFamily[t.Family], t)
	}
	fams := make([]string, 0, len(byFamily))
	for f := range byFamily {
		fams = append(fams, f)
	}
	slices.Sort(fams)
	rng := rand.New(rand.NewPCG(seed, streamSplit))
	dev, test = []Task{}, []Task{}
	for _, f := range fams {
		ts := slices.Clone(byFamily[f])
		slices.SortFunc(ts, func(a, b Task) int { return cmp.Compare(a.ID, b.ID) })
		rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		cut := max(1, len(ts)/5)
		dev = append(dev, ts[:cut]...)
		test = append(test, ts[cut:]...)
	}
	byID := func(a, b Task) int { return cmp.Compare(a.ID, b.ID) }
	slices.SortFunc(dev, byID)
	slices.SortFunc(test, byID)
	return dev, test
}

// Counts tallies tasks per family and split.
type Counts struct {
	Family string `json:"family"`
	Dev    int    `json:"dev"`
	Test   int    `json:"test"`
}

// FamilyCounts lists dev and test counts per family, families sorted.
func (s *Suite) FamilyCounts() []Counts {
	m := map[string]*Counts{}
	get := func(f string) *Counts {
		if m[f] == nil {
			m[f] = &Counts{Family: f}
		}
		return m[f]
	}
	for _, t := range s.Dev {
		get(t.Family).Dev++
	}
	for _, t := range s.Test {
		get(t.Family).Test++
	}
	out := make([]Counts, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Counts) int { return cmp.Compare(a.Family, b.Family) })
	return out
}
