package plan

import (
	"fmt"
	"strconv"
)

// Version is the plan language version this release reads and writes. A
// plan without "tgms_plan" is version 1.
const Version = 1

// Notice is a spelling an earlier release accepted that this one still
// reads, and how to write it now. A plan with notices is admitted as if it
// said Replacement; the notices say what to change before the spelling is
// dropped by a later language version.
type Notice struct {
	Code        string `json:"code"` // deprecated.arg | deprecated.value
	StepID      string `json:"step_id,omitempty"`
	Path        string `json:"path"` // JSON Pointer into the submitted plan
	Message     string `json:"message"`
	Replacement string `json:"replacement"` // what to write instead
}

// Notice codes.
const (
	NoticeArg   = "deprecated.arg"
	NoticeValue = "deprecated.value"
)

// argAlias is an argument renamed after a release that accepted the old
// name: the old name is read as the new one.
type argAlias struct {
	op, old, now string
	since        string // the change, for the notice
}

// argAliases lists every argument rename since the first release.
var argAliases = []argAlias{
	{op: "version_history", old: "closed_by", now: "change", since: "the argument and the rows' change column share one vocabulary"},
}

// valueAlias is a value renamed after a release that accepted the old one.
type valueAlias struct {
	producer, column, old, now string
}

// valueAliases are result values whose spelling changed: a compute filter
// comparing a column of such a producer's rows with an old spelling
// compares with the new one (version_history's change column said
// corrected and evolved before it said correction and evolution).
var valueAliases = []valueAlias{
	{producer: "version_history", column: "change", old: "corrected", now: "correction"},
	{producer: "version_history", column: "change", old: "evolved", now: "evolution"},
}

// migrate rewrites the spellings earlier releases accepted into the
// current ones, in place, and returns a notice for each.
func migrate(p *Plan) []Notice {
	var out []Notice
	for i := range p.Steps {
		s := &p.Steps[i]
		path := "/steps/" + strconv.Itoa(i) + "/args/"
		for _, a := range argAliases {
			v, has := s.Args[a.old]
			if s.Op != a.op || !has {
				continue
			}
			if _, both := s.Args[a.now]; both {
				continue // both spellings: arg.unknown names the old one
			}
			args := make(map[string]any, len(s.Args))
			for k, x := range s.Args {
				args[k] = x
			}
			delete(args, a.old)
			args[a.now] = v
			s.Args = args
			out = append(out, Notice{Code: NoticeArg, StepID: s.ID, Path: path + a.old, Replacement: a.now,
				Message: fmt.Sprintf("%s's argument %s is now called %s (%s); it was read as %s", a.op, a.old, a.now, a.since, a.now)})
		}
		if n, ok := migrateFilterValue(p, s, path); ok {
			out = append(out, n)
		}
	}
	return out
}

// migrateFilterValue rewrites a compute filter's value spelled as an
// earlier release's producer wrote it.
func migrateFilterValue(p *Plan, s *Step, path string) (Notice, bool) {
	if s.Op != "compute" || s.Args["fn"] != "filter" {
		return Notice{}, false
	}
	raw, isRef := AsRef(s.Args["input"])
	if !isRef {
		return Notice{}, false
	}
	ref, err := ParseRef(raw, false)
	if err != nil {
		return Notice{}, false
	}
	producer, _, ok := p.Step(ref.Step)
	if !ok {
		return Notice{}, false
	}
	field, _ := s.Args["field"].(string)
	value, _ := s.Args["value"].(string)
	for _, a := range valueAliases {
		if producer.Op != a.producer || field != a.column || value != a.old {
			continue
		}
		args := make(map[string]any, len(s.Args))
		for k, x := range s.Args {
			args[k] = x
		}
		args["value"] = a.now
		s.Args = args
		return Notice{Code: NoticeValue, StepID: s.ID, Path: path + "value", Replacement: a.now,
			Message: fmt.Sprintf("%s's %s column says %q where earlier releases said %q; the filter was read as comparing with %q", a.producer, a.column, a.now, a.old, a.now)}, true
	}
	return Notice{}, false
}
