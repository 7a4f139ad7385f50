package evidence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// Claim kinds.
const (
	KindCount       = "count"
	KindValue       = "value"
	KindEntity      = "entity"
	KindCompleteSet = "complete_set"
	KindOrdering    = "ordering"
	KindInterval    = "interval"
	KindPattern     = "temporal_pattern"
	KindBelief      = "belief"
)

// Kinds lists the claim kinds.
var Kinds = []string{KindCount, KindValue, KindEntity, KindCompleteSet, KindOrdering, KindInterval, KindPattern, KindBelief}

// Claim is one typed statement about a trace.
type Claim struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Step    string   `json:"step"`
	Path    string   `json:"path,omitempty"`
	Value   any      `json:"value,omitempty"`
	UIDs    []string `json:"uids,omitempty"`
	Key     string   `json:"key,omitempty"`
	By      string   `json:"by,omitempty"`
	First   string   `json:"first,omitempty"`
	Second  string   `json:"second,omitempty"`
	TA      *int64   `json:"t_a,omitempty"`
	TB      *int64   `json:"t_b,omitempty"`
	Pattern string   `json:"pattern,omitempty"`
	AsOfTT  *int64   `json:"as_of_tt,omitempty"`
}

// Answer is what a reporter (a model or the deterministic reporter) says.
type Answer struct {
	Text   string  `json:"text"`
	Claims []Claim `json:"claims"`
}

// fields each kind requires and allows, beyond id, kind, step, as_of_tt.
var kindFields = map[string]struct{ required, optional []string }{
	KindCount:       {[]string{"path", "value"}, nil},
	KindValue:       {[]string{"path", "value"}, nil},
	KindEntity:      {[]string{"path", "uids"}, nil},
	KindCompleteSet: {[]string{"path", "uids"}, nil},
	KindOrdering:    {[]string{"path", "key", "by", "first", "second"}, nil},
	KindInterval:    {[]string{"path", "t_a", "t_b"}, nil},
	KindPattern:     {[]string{"pattern", "t_a", "t_b"}, nil},
	KindBelief:      {[]string{"path", "value", "as_of_tt"}, nil},
}

// ParseAnswer reads an answer object strictly: unknown fields, missing
// fields and wrong types are errors that name the claim and field.
func ParseAnswer(data []byte) (*Answer, error) {
	v, err := canon.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("answer: must be an object {text, claims}, got %s", canon.Kind(v))
	}
	for k := range m {
		if k != "text" && k != "claims" {
			return nil, fmt.Errorf("answer: unknown field %q (an answer has text and claims)", k)
		}
	}
	a := &Answer{}
	if t, has := m["text"]; has {
		if a.Text, ok = t.(string); !ok {
			return nil, fmt.Errorf("answer: text must be a string")
		}
	}
	list, ok := m["claims"].([]any)
	if !ok {
		return nil, fmt.Errorf("answer: claims must be an array")
	}
	seen := map[string]bool{}
	for i, x := range list {
		c, err := parseClaim(x)
		if err != nil {
			return nil, fmt.Errorf("answer: claims[%d]: %w", i, err)
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("answer: claims[%d]: duplicate id %q", i, c.ID)
		}
		seen[c.ID] = true
		a.Claims = append(a.Claims, c)
	}
	return a, nil
}

func parseClaim(x any) (Claim, error) {
	var c Claim
	m, ok := x.(map[string]any)
	if !ok {
		return c, fmt.Errorf("a claim must be an object, got %s", canon.Kind(x))
	}
	str := func(k string) (string, error) {
		v, ok := m[k].(string)
		if !ok || v == "" {
			return "", fmt.Errorf("%s must be a non-empty string", k)
		}
		return v, nil
	}
	var err error
	if c.ID, err = str("id"); err != nil {
		return c, err
	}
	if c.Kind, err = str("kind"); err != nil {
		return c, err
	}
	spec, ok := kindFields[c.Kind]
	if !ok {
		return c, fmt.Errorf("claim %s: unknown kind %q (kinds: %s)", c.ID, c.Kind, strings.Join(Kinds, ", "))
	}
	if c.Step, err = str("step"); err != nil {
		return c, fmt.Errorf("claim %s: %w", c.ID, err)
	}
	allowed := append([]string{"id", "kind", "step", "as_of_tt"}, append(spec.required, spec.optional...)...)
	for k := range m {
		if !slices.Contains(allowed, k) {
			return c, fmt.Errorf("claim %s: field %q does not belong to a %s claim (fields: %s)", c.ID, k, c.Kind, strings.Join(allowed, ", "))
		}
	}
	for _, k := range spec.required {
		if _, ok := m[k]; !ok {
			return c, fmt.Errorf("claim %s: a %s claim needs %q", c.ID, c.Kind, k)
		}
	}
	for k, v := range m {
		switch k {
		case "path", "key", "by", "first", "second", "pattern":
			s, ok := v.(string)
			if !ok || s == "" {
				return c, fmt.Errorf("claim %s: %s must be a non-empty string", c.ID, k)
			}
			switch k {
			case "path":
				c.Path = s
			case "key":
				c.Key = s
			case "by":
				c.By = s
			case "first":
				c.First = s
			case "second":
				c.Second = s
			case "pattern":
				if s != "burst" {
					return c, fmt.Errorf("claim %s: pattern must be \"burst\"", c.ID)
				}
				c.Pattern = s
			}
		case "value":
			c.Value = v
		case "uids":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return c, fmt.Errorf("claim %s: uids must be a non-empty array of strings", c.ID)
			}
			for _, u := range list {
				s, ok := u.(string)
				if !ok {
					return c, fmt.Errorf("claim %s: uids must be strings", c.ID)
				}
				c.UIDs = append(c.UIDs, s)
			}
		case "t_a", "t_b", "as_of_tt":
			n, ok := v.(int64)
			if !ok {
				return c, fmt.Errorf("claim %s: %s must be an integer (µs)", c.ID, k)
			}
			switch k {
			case "t_a":
				c.TA = &n
			case "t_b":
				c.TB = &n
			default:
				c.AsOfTT = &n
			}
		}
	}
	return c, nil
}
