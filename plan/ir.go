package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// MaxSteps is the most steps a plan may have.
const MaxSteps = 12

// AnswerKinds are the allowed answer_spec kinds.
var AnswerKinds = []string{"count", "value", "entity_set", "interval", "series", "paths", "text"}

// Plan is a parsed plan.
type Plan struct {
	// Version is the plan language version (Version; 1 when the plan names
	// none). The canonical JSON names it only when it is not 1, so a plan's
	// digest does not depend on whether it said "tgms_plan": 1.
	Version  int        `json:"tgms_plan,omitempty"`
	ID       string     `json:"plan_id"`
	Question string     `json:"question,omitempty"`
	Steps    []Step     `json:"steps"`
	Answer   AnswerSpec `json:"answer_spec"`
}

// Step is one operator call.
type Step struct {
	ID        string         `json:"id"`
	Op        string         `json:"op"`
	Args      map[string]any `json:"args"`
	DependsOn []string       `json:"depends_on"`
}

// AnswerSpec says which value is the answer.
type AnswerSpec struct {
	Kind string `json:"kind"`
	From string `json:"from"`
}

// JSON renders the plan in canonical JSON.
func (p *Plan) JSON() ([]byte, error) {
	steps := make([]any, len(p.Steps))
	for i, s := range p.Steps {
		deps := make([]any, len(s.DependsOn))
		for j, d := range s.DependsOn {
			deps[j] = d
		}
		steps[i] = map[string]any{"id": s.ID, "op": s.Op, "args": s.Args, "depends_on": deps}
	}
	m := map[string]any{"plan_id": p.ID, "steps": steps, "answer_spec": map[string]any{"kind": p.Answer.Kind, "from": p.Answer.From}}
	if p.Question != "" {
		m["question"] = p.Question
	}
	if p.Version > 1 {
		m["tgms_plan"] = int64(p.Version)
	}
	return canon.Marshal(m)
}

// Digest is the SHA-256 of the plan's canonical JSON.
func (p *Plan) Digest() string {
	b, err := p.JSON()
	if err != nil {
		return ""
	}
	return canon.DigestBytes(b)
}

// Step returns the step with the given id.
func (p *Plan) Step(id string) (*Step, int, bool) {
	for i := range p.Steps {
		if p.Steps[i].ID == id {
			return &p.Steps[i], i, true
		}
	}
	return nil, -1, false
}

// Seg is one segment of a reference path: a field name, optionally indexed.
type Seg struct {
	Name  string
	Index int  // -1 when the segment has no index
	Star  bool // [*]
}

// Ref is a parsed reference "sN.seg.seg...".
type Ref struct {
	Raw  string
	Step string
	Path []Seg
}

var (
	stepIDRE = regexp.MustCompile(`^s[0-9]+$`)
	segRE    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(?:\[([0-9]+|\*)\])?$`)
)

// ParseRef parses a reference string. allowBare accepts a bare step id
// (answer_spec.from may name a whole step).
func ParseRef(s string, allowBare bool) (Ref, error) {
	parts := strings.Split(s, ".")
	if !stepIDRE.MatchString(parts[0]) {
		return Ref{}, fmt.Errorf("reference %q must start with a step id like s1", s)
	}
	r := Ref{Raw: s, Step: parts[0]}
	if len(parts) == 1 && !allowBare {
		return Ref{}, fmt.Errorf("reference %q names a whole step; name a field, e.g. %s.rows", s, s)
	}
	stars := 0
	for _, p := range parts[1:] {
		m := segRE.FindStringSubmatch(p)
		if m == nil {
			return Ref{}, fmt.Errorf("reference %q: bad segment %q (want name, name[i] or name[*])", s, p)
		}
		seg := Seg{Name: m[1], Index: -1}
		switch {
		case m[2] == "*":
			seg.Star = true
			stars++
		case m[2] != "":
			i, err := strconv.Atoi(m[2])
			if err != nil {
				return Ref{}, fmt.Errorf("reference %q: index %s out of range", s, m[2])
			}
			seg.Index = i
		}
		r.Path = append(r.Path, seg)
	}
	if stars > 1 {
		return Ref{}, fmt.Errorf("reference %q: only one [*] projection is allowed", s)
	}
	return r, nil
}

// Projects reports whether the reference has a [*] projection.
func (r Ref) Projects() bool {
	for _, s := range r.Path {
		if s.Star {
			return true
		}
	}
	return false
}

// AsRef reports whether v is a reference object ({"$ref": "..."} and
// nothing else) and returns its string (which may not parse).
func AsRef(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return "", false
	}
	r, ok := m["$ref"]
	if !ok {
		return "", false
	}
	s, isStr := r.(string)
	if !isStr {
		return "", true // a $ref whose value is not a string: a malformed reference
	}
	return s, true
}

// HasRef reports whether an argument value holds a $ref anywhere (at any
// depth of objects and arrays).
func HasRef(v any) bool {
	if _, ok := AsRef(v); ok {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if HasRef(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if HasRef(e) {
				return true
			}
		}
	}
	return false
}
