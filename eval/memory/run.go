package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/server/tools"
)

// Scenario is one agent session: writes through the memory tools, then
// questions asked at several belief times.
type Scenario struct {
	Name      string     `json:"name"`
	About     string     `json:"about"`
	Writes    []Write    `json:"writes"`
	Questions []Question `json:"questions"`
}

// Write is one call of remember, correct or retract; Batch labels the
// batch it writes (questions name belief times by these labels).
type Write struct {
	Batch string         `json:"batch"`
	Tool  string         `json:"tool"`
	Args  map[string]any `json:"args"`
}

// Question is one thing the agent asks. Ask is value (a node's prop at
// valid time At, absent At: what still holds), link (whether the edge
// src→dst rel_type holds at At), author (the provenance of the fact
// holding at At: who wrote it) or trail (what was believed about the
// instant At after every batch, and whether each batch corrected or
// evolved it: why). Believed lists the belief times (batch labels, or
// "now") value, link and author are asked at.
type Question struct {
	ID       string   `json:"id"`
	Ask      string   `json:"ask"`
	UID      string   `json:"uid,omitempty"`
	Src      string   `json:"src,omitempty"`
	Dst      string   `json:"dst,omitempty"`
	RelType  string   `json:"rel_type,omitempty"`
	Disc     string   `json:"disc,omitempty"`
	Prop     string   `json:"prop,omitempty"`
	At       any      `json:"at,omitempty"`
	Believed []string `json:"believed,omitempty"`
}

// Engine is the side under test: the memory tools of a writable server.
type Engine interface {
	Call(ctx context.Context, tool string, args map[string]any) (any, *tools.Failure)
}

// Outcome is one answer compared with the model's.
type Outcome struct {
	Scenario string `json:"scenario"`
	ID       string `json:"id"` // question id and belief time, or the write's batch
	Gold     any    `json:"gold"`
	Got      any    `json:"got"`
	Right    bool   `json:"right"`
}

// Load reads every scenario (*.json) in a directory, by file name.
func Load(dir string) ([]*Scenario, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*Scenario
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var s Scenario
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if s.Name == "" || len(s.Writes) == 0 || len(s.Questions) == 0 {
			return nil, fmt.Errorf("%s: a scenario needs a name, writes and questions", f)
		}
		out = append(out, &s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scenarios (*.json) in %s", dir)
	}
	return out, nil
}

// Run plays a scenario against an engine (over an empty store) and the
// model, and compares every answer: first whether each write was
// accepted, then every question at every belief time it names.
func Run(ctx context.Context, sc *Scenario, eng Engine, m *Model) ([]Outcome, error) {
	var out []Outcome
	tts := map[string]int64{}
	for _, w := range sc.Writes {
		refusal, err := m.Apply(w.Batch, w.Tool, w.Args)
		if err != nil {
			return nil, fmt.Errorf("%s: write %s: %v", sc.Name, w.Batch, err)
		}
		res, f := eng.Call(ctx, w.Tool, args(w.Args))
		gold, got := "accepted", "accepted"
		if refusal != "" {
			gold = "refused"
		}
		if f != nil {
			got = "refused: " + f.Message
		} else {
			v := jsonValue(res)
			tt, _ := v.(map[string]any)["tt"].(float64)
			tts[w.Batch] = int64(tt)
		}
		out = append(out, Outcome{Scenario: sc.Name, ID: "write " + w.Batch, Gold: gold, Got: got, Right: gold == got || gold == "refused" && f != nil})
	}
	for _, q := range sc.Questions {
		os, err := ask(ctx, sc.Name, q, eng, m, tts)
		if err != nil {
			return nil, fmt.Errorf("%s: question %s: %v", sc.Name, q.ID, err)
		}
		out = append(out, os...)
	}
	return out, nil
}

func ask(ctx context.Context, name string, q Question, eng Engine, m *Model, tts map[string]int64) ([]Outcome, error) {
	var t int64
	hasAt := q.At != nil
	if hasAt {
		var err error
		if t, err = modelTime(q.At, 0); err != nil {
			return nil, err
		}
	}
	var key string
	var fact map[string]any
	switch q.Ask {
	case "value":
		key, fact = "node:"+q.UID, map[string]any{"uid": q.UID}
	case "link", "trail", "author":
		fact = map[string]any{"src": q.Src, "dst": q.Dst, "rel_type": q.RelType, "disc": q.Disc}
		if q.UID != "" {
			fact = map[string]any{"uid": q.UID}
		}
		var err error
		if key, _, err = factKey(fact); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown question %q (value, link, author, trail)", q.Ask)
	}
	if q.Ask == "trail" {
		if !hasAt {
			return nil, fmt.Errorf("a trail question needs at")
		}
		gold := m.trail(key, q.Prop, t)
		got, err := engineTrail(ctx, eng, fact, q.Prop, t, m, tts)
		if err != nil {
			return nil, err
		}
		return []Outcome{{Scenario: name, ID: q.ID, Gold: gold, Got: got, Right: reflect.DeepEqual(jsonValue(gold), jsonValue(got))}}, nil
	}
	if len(q.Believed) == 0 {
		return nil, fmt.Errorf("question needs believed: the belief times to ask at")
	}
	var out []Outcome
	for _, b := range q.Believed {
		i, err := m.at(b)
		if err != nil {
			return nil, err
		}
		g, ok := m.still(i, key)
		if hasAt {
			g, ok = m.holding(i, key, t)
		}
		gold := valueOf(g, ok, q.Prop)
		switch q.Ask {
		case "link":
			gold = ok
		case "author":
			gold = author(g, ok)
		}
		recall := map[string]any{"uid": q.UID}
		if q.UID == "" {
			recall = map[string]any{"src": q.Src, "dst": q.Dst}
		}
		if hasAt {
			recall["at"] = t
		}
		if b != "now" {
			tt, known := tts[b]
			if !known {
				return nil, fmt.Errorf("belief time %q names no batch the engine wrote", b)
			}
			recall["as_of_tt"] = tt
		}
		got, err := engineRecall(ctx, eng, recall, q)
		if err != nil {
			return nil, err
		}
		out = append(out, Outcome{Scenario: name, ID: q.ID + "@" + b, Gold: gold, Got: got, Right: reflect.DeepEqual(jsonValue(gold), jsonValue(got))})
	}
	return out, nil
}

// engineRecall answers value and link questions with recall.
func engineRecall(ctx context.Context, eng Engine, a map[string]any, q Question) (any, error) {
	res, f := eng.Call(ctx, "recall", a)
	if f != nil {
		return "refused: " + f.Message, nil
	}
	v, _ := jsonValue(res).(map[string]any)
	facts, _ := v["facts"].([]any)
	var hits []map[string]any
	for _, x := range facts {
		fm, _ := x.(map[string]any)
		switch {
		case q.UID != "" && fm["kind"] == "node":
			hits = append(hits, fm)
		case q.UID == "" && fm["kind"] == "edge" && fm["src"] == q.Src && fm["dst"] == q.Dst && fm["rel_type"] == q.RelType && str(fm["disc"]) == q.Disc:
			hits = append(hits, fm)
		}
	}
	if len(hits) > 1 {
		return fmt.Sprintf("%d facts hold at once", len(hits)), nil
	}
	if q.Ask == "link" {
		return len(hits) == 1, nil
	}
	if len(hits) == 0 {
		return Absent, nil
	}
	if q.Ask == "author" {
		p, _ := hits[0]["provenance"].(map[string]any)
		return authorOf(p), nil
	}
	props, _ := hits[0]["props"].(map[string]any)
	if p, ok := props[q.Prop]; ok {
		return p, nil
	}
	return Absent, nil
}

// engineTrail answers a trail question with why: for every batch, the
// version believed then, and whether the batch closed the one before.
func engineTrail(ctx context.Context, eng Engine, fact map[string]any, prop string, t int64, m *Model, tts map[string]int64) ([]TrailEntry, error) {
	a := map[string]any{"at": t}
	for k, v := range fact {
		a[k] = v
	}
	res, f := eng.Call(ctx, "why", a)
	if f != nil {
		return []TrailEntry{{Value: "refused: " + f.Message}}, nil
	}
	v, _ := jsonValue(res).(map[string]any)
	versions, _ := v["versions"].([]any)
	visible := func(tt int64) map[string]any {
		for _, x := range versions {
			vm, _ := x.(map[string]any)
			if int64(num(vm["tt_s"])) <= tt && tt < int64(num(vm["tt_e"])) {
				return vm
			}
		}
		return nil
	}
	var out []TrailEntry
	var prev map[string]any
	for _, s := range m.snaps[1:] {
		tt := tts[s.label]
		cur := visible(tt)
		e := TrailEntry{Batch: s.label, Value: Absent}
		if cur != nil {
			e.Value = true
			if prop != "" {
				props, _ := cur["props"].(map[string]any)
				e.Value = Absent
				if p, ok := props[prop]; ok {
					e.Value = p
				}
			}
		}
		if prev != nil && int64(num(prev["tt_e"])) == tt {
			e.Change = str(prev["change"])
		}
		out = append(out, e)
		prev = cur
	}
	return out, nil
}

func str(v any) string { s, _ := v.(string); return s }

func num(v any) float64 { f, _ := v.(float64); return f }

// args turns scenario arguments (JSON numbers as float64) into what a
// server's tools receive (canon.Parse: integers int64).
func args(a map[string]any) map[string]any {
	b, _ := json.Marshal(a)
	v, _ := canon.Parse(b)
	m, _ := v.(map[string]any)
	return m
}

// jsonValue renders a value as encoding/json reads it back.
func jsonValue(v any) any {
	b, err := tools.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unmarshalable: %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Sprintf("unreadable: %v", err)
	}
	return out
}
