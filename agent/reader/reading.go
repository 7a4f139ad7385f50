package reader

import (
	"fmt"
	"strings"
	"time"
)

// Reading is how a question was read: the intent, every typed slot with
// the words it came from, and the plan that answers it.
type Reading struct {
	// Intent names the question shape (see Intents).
	Intent string `json:"intent"`
	// Summary says in words what is computed.
	Summary string `json:"summary"`
	// AnswerKind is the plan's answer kind: count, value, entity_set or
	// interval.
	AnswerKind string `json:"answer_kind"`
	// Nodes are the nodes the question names, in their roles.
	Nodes []Node `json:"nodes,omitempty"`
	// Window is the valid-time window [start, end), when the intent has one.
	Window *Window `json:"window,omitempty"`
	// Instants are valid-time instants (t, or t1 and t2).
	Instants []Instant `json:"instants,omitempty"`
	// Bucket is the bucket width of a series; Delta bounds a motif's span
	// or the gap between two events.
	Bucket *Duration `json:"bucket,omitempty"`
	Delta  *Duration `json:"delta,omitempty"`
	// K is the number of nodes a ranking returns.
	K int64 `json:"k,omitempty"`
	// Options are the intent's discrete choices (direction, motif, scope,
	// burst parameters).
	Options map[string]string `json:"options,omitempty"`
	// Belief is the transaction time the answer is pinned at.
	Belief Belief `json:"belief"`
	// Notes say what was filled in rather than written (a year taken from
	// the store's extent, a window defaulting to the whole store).
	Notes []string `json:"notes,omitempty"`
	// Ignored are the words read as carrying no intent (greetings,
	// politeness, hedges, words pointing at the data as a whole).
	Ignored []string `json:"ignored,omitempty"`

	plan []byte
}

// Node is one node a question names.
type Node struct {
	Role    string `json:"role"`    // source, target, node, ...
	Written string `json:"written"` // the words of the question
	// UID is the node uid: the written uid, or for a name the uid
	// resolve_entities found (filled in after the plan ran).
	UID string `json:"uid,omitempty"`
	// ByName is set when the node was named rather than given by uid; the
	// plan resolves it with resolve_entities.
	ByName bool `json:"by_name,omitempty"`
	// Matches is how many nodes a name matched (after the plan ran).
	Matches int64 `json:"matches,omitempty"`
}

// Window is a half-open valid-time window [Start, End).
type Window struct {
	Start int64 `json:"t_a"`
	End   int64 `json:"t_b"`
	// StartText and EndText are RFC 3339 renderings; the start is
	// inclusive and the end exclusive.
	StartText string `json:"t_a_rfc3339"`
	EndText   string `json:"t_b_rfc3339"`
	// Written is the question's words for the window ("" when the window
	// is the whole store by default).
	Written string `json:"written"`
	// InclusiveEnd says the question wrote an inclusive end ("through
	// June 10"): End is the end of that period.
	InclusiveEnd bool `json:"written_end_inclusive,omitempty"`
}

// Instant is a valid-time instant.
type Instant struct {
	Role    string `json:"role"`
	T       int64  `json:"t"`
	Text    string `json:"rfc3339"`
	Written string `json:"written"`
}

// Duration is a length of time, exactly as written.
type Duration struct {
	Micros  int64  `json:"us"`
	Written string `json:"written"`
}

// Belief is the belief time of a reading: now (the store's last
// transaction time when the plan runs) or a written transaction time.
type Belief struct {
	Now     bool   `json:"now"`
	AsOfTT  int64  `json:"as_of_tt,omitempty"`
	Text    string `json:"rfc3339,omitempty"`
	Written string `json:"written,omitempty"`
	// Before is set for "before the correction at T": AsOfTT is T − 1 µs.
	Before bool `json:"before,omitempty"`
}

// Plan is the plan JSON for the reading.
func (r *Reading) Plan() []byte { return r.plan }

// FormatTime renders µs as RFC 3339 UTC, trimming zero seconds.
func FormatTime(t int64) string {
	tm := time.UnixMicro(t).UTC()
	switch {
	case tm.Nanosecond() != 0:
		return tm.Format("2006-01-02T15:04:05.999999Z")
	case tm.Second() != 0:
		return tm.Format("2006-01-02T15:04:05Z")
	}
	return tm.Format("2006-01-02T15:04Z")
}

// FormatDuration renders µs in the largest unit that divides it.
func FormatDuration(us int64) string {
	for _, u := range []struct {
		n    int64
		name string
	}{{usWeek, "week"}, {usDay, "day"}, {usHour, "hour"}, {usMinute, "minute"}, {usSecond, "second"}, {1, "µs"}} {
		if us%u.n == 0 {
			n := us / u.n
			if n == 1 || u.name == "µs" {
				if u.name == "µs" {
					return fmt.Sprintf("%d µs", n)
				}
				return "1 " + u.name
			}
			return fmt.Sprintf("%d %ss", n, u.name)
		}
	}
	return fmt.Sprintf("%d µs", us)
}

// Line is the one line that says how the question was read.
func (r *Reading) Line() string {
	var b strings.Builder
	b.WriteString("Read as: ")
	b.WriteString(r.Summary)
	if r.Window != nil {
		fmt.Fprintf(&b, ", events in [%s, %s)", r.Window.StartText, r.Window.EndText)
	}
	for _, in := range r.Instants {
		fmt.Fprintf(&b, ", %s %s", in.Role, in.Text)
	}
	if u := r.Options["calendar_unit"]; u != "" && r.Bucket != nil {
		fmt.Fprintf(&b, ", buckets of one calendar %s (UTC)", calendarUnitText[u])
	} else if r.Bucket != nil {
		fmt.Fprintf(&b, ", buckets of %s", FormatDuration(r.Bucket.Micros))
	}
	if r.Delta != nil {
		fmt.Fprintf(&b, ", within %s", FormatDuration(r.Delta.Micros))
	}
	for _, n := range r.Nodes {
		if n.ByName {
			if n.UID != "" {
				fmt.Fprintf(&b, ", %q resolved to %s", n.Written, n.UID)
			} else {
				fmt.Fprintf(&b, ", %q resolved by name", n.Written)
			}
		}
	}
	if r.Belief.Now {
		b.WriteString(", belief now")
	} else {
		fmt.Fprintf(&b, ", belief as of tt %s (%d)", r.Belief.Text, r.Belief.AsOfTT)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "; %s", n)
	}
	if len(r.Ignored) > 0 {
		fmt.Fprintf(&b, "; ignored: %s", strings.Join(quoteAll(r.Ignored), ", "))
	}
	return b.String()
}

// Refusal says why a question was not answered: what was missing,
// unreadable or ambiguous, and the question forms that would be read,
// filled in with the question's own slots.
type Refusal struct {
	Problem     string   `json:"problem"`
	Missing     []string `json:"missing,omitempty"`
	Suggestions []string `json:"suggestions,omitempty"`
}

func (e *Refusal) Error() string {
	s := e.Problem
	if len(e.Suggestions) > 0 {
		s += "; try: " + strings.Join(quoteAll(e.Suggestions), " or ")
	}
	return s
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

// None says what an empty answer means for the reading's question: "no
// time-respecting path from n1 reaches n3 in [t_a, t_b)". The plan's
// answer read the first row of a complete result that had none.
func (r *Reading) None() string {
	x, y := "", ""
	for _, n := range r.Nodes {
		w := n.UID
		if w == "" {
			w = n.Written
		}
		switch n.Role {
		case "source", "node":
			x = w
		case "target":
			y = w
		}
	}
	what := map[string]string{
		"earliest-arrival":       "no time-respecting path from " + x + " reaches " + y,
		"latest-departure":       "no time-respecting path from " + x + " reaches " + y,
		"reach-first":            x + " reaches no node",
		"first-reached-versions": x + " reaches no node",
		"first-burst":            "no bucket bursts",
		"motif-first-actor":      "no cyclic triangle forms among the nodes " + x + " reaches",
	}[r.Intent]
	if what == "" {
		what = "the result is empty"
	}
	if r.Window != nil {
		what += fmt.Sprintf(" in [%s, %s)", r.Window.StartText, r.Window.EndText)
	}
	return "none: " + what
}
