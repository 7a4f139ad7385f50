package readerdev

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/eventlog"
)

// Question is one entry of questions.json.
type Question struct {
	ID         string          `json:"id"`
	Capability string          `json:"capability"`
	Text       string          `json:"question"`
	UIDs       []string        `json:"uids"`
	Expected   map[string]any  `json:"expected"`
	AnswerKind string          `json:"answer_kind"`
	Gold       json.RawMessage `json:"gold"`
	GoldAsOfTT *int64          `json:"gold_as_of_tt"`
	RefusalOK  bool            `json:"refusal_ok"`
}

// Outcomes.
const (
	Correct    = "correct"
	Acceptable = "acceptable"
	Refused    = "refused"
	Wrong      = "wrong"
)

// Result is one question's outcome.
type Result struct {
	ID, Capability, Outcome string
	Why                     string // for a wrong answer: what differed
	Answer                  any
	Reading                 string // the reader's reading line, or its refusal
}

// Report is a corpus's outcomes, per question and tallied per capability.
type Report struct {
	Corpus  string
	Results []Result
}

// Load reads a corpus folder's questions.json.
func Load(dir string) ([]Question, error) {
	b, err := os.ReadFile(filepath.Join(dir, "questions.json"))
	if err != nil {
		return nil, fmt.Errorf("readerdev: %w", err)
	}
	var qs []Question
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("readerdev: %s/questions.json: %w", dir, err)
	}
	for i, q := range qs {
		if q.ID == "" || q.Text == "" || q.Expected == nil {
			return nil, fmt.Errorf("readerdev: %s/questions.json entry %d: id, question and expected are required", dir, i)
		}
	}
	return qs, nil
}

// Replay builds the corpus's store in storeDir (a new, empty directory)
// from its store.wal, keeping the log's transaction times.
func Replay(dir, storeDir string) (*tgms.DB, error) {
	db, err := tgms.Open(storeDir, &tgms.Options{NoSync: true})
	if err != nil {
		return nil, err
	}
	err = eventlog.ReadFile(filepath.Join(dir, "store.wal"), func(r *eventlog.Record, _ int64) error {
		return db.WriteAt(r.TT, r.Ops)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("readerdev: replay %s/store.wal: %w", dir, err)
	}
	return db, nil
}

// Score asks every question of a corpus of db and scores the answers.
func Score(ctx context.Context, name string, db *tgms.DB, qs []Question) (*Report, error) {
	rep := &Report{Corpus: name}
	card := agent.CardFor(db)
	for _, q := range qs {
		uids := q.UIDs
		if uids == nil {
			uids = []string{}
		}
		res, err := agent.Ask(ctx, db, agent.Question{Text: q.Text, UIDs: uids, Card: card}, agent.Options{})
		if err != nil {
			return nil, fmt.Errorf("readerdev: %s: %w", q.ID, err)
		}
		r := judge(q, res, card)
		switch {
		case res.Reading != nil:
			r.Reading = res.Reading.Line()
		case res.Refusal != "":
			r.Reading = "refused: " + res.Refusal
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

func judge(q Question, res *agent.Result, card agent.DatasetCard) Result {
	out := Result{ID: q.ID, Capability: q.Capability}
	got := normalize(res.Value)
	out.Answer = got
	_, refuse := q.Expected["refuse"]
	answered := res.Refusal == "" && got != nil
	switch {
	case refuse && !answered:
		out.Outcome = Correct
	case refuse:
		out.Outcome, out.Why = Wrong, "answered a question that must be refused"
	case !answered && q.RefusalOK:
		out.Outcome = Acceptable
	case !answered:
		out.Outcome = Refused
	default:
		var gold any
		dec := json.NewDecoder(bytes.NewReader(q.Gold))
		dec.UseNumber()
		if err := dec.Decode(&gold); err != nil && err != io.EOF {
			out.Outcome, out.Why = Wrong, "unreadable gold: "+err.Error()
			return out
		}
		if !Matches(q.AnswerKind, gold, got) {
			out.Outcome, out.Why = Wrong, fmt.Sprintf("answer %s, gold %s", text(got), text(gold))
			return out
		}
		if why := readingDiffers(q, res, card); why != "" {
			out.Outcome, out.Why = Wrong, why
			return out
		}
		out.Outcome = Correct
	}
	return out
}

// readingDiffers compares the reading's belief time and first window with
// the interpretation's (the gold's belief time, the expected plan's window).
func readingDiffers(q Question, res *agent.Result, card agent.DatasetCard) string {
	if res.Trace == nil {
		return "no trace"
	}
	raw, _ := json.Marshal(res.Trace.Plan)
	var p any
	json.Unmarshal(raw, &p)
	tt := res.Trace.AsOfTT
	if v, ok := firstArg(p, "as_of_tt"); ok {
		if f, ok := num(normalize(v)); ok {
			tt = int64(f)
		}
	}
	if q.GoldAsOfTT != nil && tt != *q.GoldAsOfTT {
		return fmt.Sprintf("belief time %d, interpretation %d", tt, *q.GoldAsOfTT)
	}
	want, ok1 := firstWindow(q.Expected["plan"])
	got, ok2 := firstWindow(p)
	if ok1 && ok2 {
		w, g := clip(want, card), clip(got, card)
		if w != g {
			return fmt.Sprintf("window [%d, %d), interpretation [%d, %d)", g[0], g[1], w[0], w[1])
		}
	}
	return ""
}

func clip(w [2]int64, c agent.DatasetCard) [2]int64 {
	return [2]int64{max(w[0], c.VtMin), min(w[1], c.VtMax)}
}

// firstArg finds the first step argument of a name in a plan.
func firstArg(p any, name string) (any, bool) {
	m, _ := p.(map[string]any)
	steps, _ := m["steps"].([]any)
	for _, s := range steps {
		sm, _ := s.(map[string]any)
		args, _ := sm["args"].(map[string]any)
		if v, ok := args[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// firstWindow finds the first step argument named window in a plan.
func firstWindow(p any) ([2]int64, bool) {
	m, _ := p.(map[string]any)
	steps, _ := m["steps"].([]any)
	for _, s := range steps {
		sm, _ := s.(map[string]any)
		args, _ := sm["args"].(map[string]any)
		w, ok := args["window"].(map[string]any)
		if !ok {
			continue
		}
		a, ok1 := num(w["t_a"])
		b, ok2 := num(w["t_b"])
		if ok1 && ok2 {
			return [2]int64{int64(a), int64(b)}, true
		}
	}
	return [2]int64{}, false
}

// normalize turns a value into plain JSON types (json.Number for numbers).
func normalize(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&out) != nil {
		return nil
	}
	return out
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

func isInt(v any) bool {
	n, ok := v.(json.Number)
	return ok && !strings.ContainsAny(string(n), ".eE")
}

// Matches compares an answer with a gold of the given kind.
func Matches(kind string, gold, got any) bool {
	if got == nil {
		return false
	}
	switch kind {
	case "entity_set":
		if s, ok := got.(string); ok {
			got = []any{s} // a bare uid is a one-element set
		}
		gs, ok1 := got.([]any)
		ws, ok2 := gold.([]any)
		if !ok1 || !ok2 {
			return false
		}
		a, b := strs(gs), strs(ws)
		return slices.Equal(a, b)
	case "interval":
		g, ok1 := got.(map[string]any)
		w, ok2 := gold.(map[string]any)
		return ok1 && ok2 && iou(w, g) >= 0.5
	}
	if s, ok := gold.(string); ok {
		return got == s
	}
	gf, ok1 := num(gold)
	af, ok2 := num(got)
	if !ok1 || !ok2 {
		return false
	}
	if isInt(gold) && isInt(got) {
		return string(gold.(json.Number)) == string(got.(json.Number))
	}
	return math.Abs(gf-af) <= 1e-9*max(1, math.Abs(gf))
}

func strs(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprint(x)
	}
	sort.Strings(out)
	return out
}

func iou(a, b map[string]any) float64 {
	aa, ok1 := num(a["t_a"])
	ab, ok2 := num(a["t_b"])
	ba, ok3 := num(b["t_a"])
	bb, ok4 := num(b["t_b"])
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return 0
	}
	inter := max(0, min(ab, bb)-max(aa, ba))
	union := max(ab, bb) - min(aa, ba)
	if union <= 0 {
		return 0
	}
	return inter / union
}

func text(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

// Tally is the outcome counts of one capability.
type Tally struct {
	N, Correct, Acceptable, Refused, Wrong int
}

// Tallies counts outcomes per capability; "ALL" sums them.
func (r *Report) Tallies() map[string]*Tally {
	out := map[string]*Tally{"ALL": {}}
	for _, res := range r.Results {
		for _, k := range []string{res.Capability, "ALL"} {
			t := out[k]
			if t == nil {
				t = &Tally{}
				out[k] = t
			}
			t.N++
			switch res.Outcome {
			case Correct:
				t.Correct++
			case Acceptable:
				t.Acceptable++
			case Refused:
				t.Refused++
			case Wrong:
				t.Wrong++
			}
		}
	}
	return out
}

// Write prints the per-capability table, then every wrong answer.
func (r *Report) Write(w io.Writer) {
	ts := r.Tallies()
	var caps []string
	for c := range ts {
		if c != "ALL" {
			caps = append(caps, c)
		}
	}
	sort.Strings(caps)
	caps = append(caps, "ALL")
	fmt.Fprintf(w, "%s\n%-24s %5s %8s %10s %8s %6s %9s\n", r.Corpus, "capability", "n", "correct", "acceptable", "refused", "wrong", "accuracy")
	for _, c := range caps {
		t := ts[c]
		fmt.Fprintf(w, "%-24s %5d %8d %10d %8d %6d %9.3f\n", c, t.N, t.Correct, t.Acceptable, t.Refused, t.Wrong, float64(t.Correct+t.Acceptable)/float64(max(1, t.N)))
	}
	for _, res := range r.Results {
		if res.Outcome == Wrong {
			fmt.Fprintf(w, "WRONG %s: %s\n  %s\n", res.ID, res.Why, res.Reading)
		}
	}
}
