package reader_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Every suggested form that reads gives the slots of the refused
// question where both define them: the same nodes in the same roles,
// the same window and the same belief time.
func TestSuggestionsKeepTheSlots(t *testing.T) {
	env := reader.Env{VtMin: collegeEnv.VtMin, VtMax: collegeEnv.VtMax, IsNode: collegeEnv.IsNode}
	cases := []struct {
		q              string
		source, target string // "" where the question has no such role
		a, b           int64  // the window; 0, 0 for none
		tt             int64  // the belief time; 0 for now
	}{
		{"When does n277 first become reachable from n9 in May 2004, as of transaction time 1700000005000000, on average?", "n9", "n277", us("2004-05-01"), us("2004-06-01"), 1700000005000000},
		{"What is the average number of messages from n42 to n17 in June 2004?", "n42", "n17", us("2004-06-01"), us("2004-07-01"), 0},
		{"Believing what we believed at 1700000005000000, what fraction of n42's partners in May 2004 are new, if any?", "", "", us("2004-05-01"), us("2004-06-01"), 1700000005000000},
		{"How many messages excluding replies did n5 send to n7 between May 3, 2004 and May 10, 2004?", "n5", "n7", us("2004-05-03"), us("2004-05-10"), 0},
		{"Which node reached from n12 before July 2004 is the most central, as of belief time 2023-11-14T22:13:20Z?", "n12", "", collegeEnv.VtMin, us("2004-07-01"), us("2023-11-14T22:13:20Z")},
		{"When did n7 first receive something n8 sent in May 2004?", "n8", "n7", us("2004-05-01"), us("2004-06-01"), 0},
		{"In June 2004, how late could n9 leave and still reach n10 via others?", "n9", "n10", us("2004-06-01"), us("2004-07-01"), 0},
	}
	for _, c := range cases {
		_, err := reader.Read(c.q, env)
		var rf *reader.Refusal
		if !errors.As(err, &rf) {
			t.Fatalf("%q: want a refusal, got %v", c.q, err)
		}
		if len(rf.Suggestions) == 0 {
			t.Errorf("%q: no suggestions", c.q)
		}
		read := 0
		for _, s := range rf.Suggestions {
			r, err := reader.Read(s, env)
			if err != nil {
				continue
			}
			read++
			for _, n := range r.Nodes {
				if (n.Role == "source" && c.source != "" && n.UID != c.source) || (n.Role == "target" && c.target != "" && n.UID != c.target) {
					t.Errorf("%q\n  suggestion %q reads %s as the %s", c.q, s, n.UID, n.Role)
				}
			}
			if r.Window != nil && c.b != 0 && (r.Window.Start != c.a || r.Window.End != c.b) {
				t.Errorf("%q\n  suggestion %q reads the window [%s, %s)", c.q, s, r.Window.StartText, r.Window.EndText)
			}
			if (c.tt == 0) != r.Belief.Now || c.tt != 0 && r.Belief.AsOfTT != c.tt {
				t.Errorf("%q\n  suggestion %q reads belief %+v", c.q, s, r.Belief)
			}
		}
		if read == 0 {
			t.Errorf("%q: none of the suggestions %q reads", c.q, rf.Suggestions)
		}
	}
}

// Every question of the corpus that reads, made unanswerable by a word
// no intent computes ("on average"), is refused with suggestions; each
// suggestion that reads has the question's own slots wherever both
// define them: nodes in their roles, window, instants, durations,
// direction and belief time.
func TestSuggestionsRoundTrip(t *testing.T) {
	checked, read := 0, 0
	for _, it := range loadCorpus(t, "all") {
		env := collegeEnv
		if it.store == "S" {
			env = synthEnv
		}
		orig, err := reader.Read(it.question, env)
		if err != nil {
			continue
		}
		q := strings.TrimRight(strings.TrimSpace(it.question), "?.!") + ", on average?"
		_, err = reader.Read(q, env)
		var rf *reader.Refusal
		if !errors.As(err, &rf) {
			t.Errorf("%q: want a refusal, got %v", q, err)
			continue
		}
		checked++
		for _, s := range rf.Suggestions {
			r, err := reader.Read(s, env)
			if err != nil {
				continue
			}
			read++
			if why := sameSlots(orig, r); why != "" {
				t.Errorf("%q\n  suggestion %q: %s\n  question: %s\n  suggestion: %s", q, s, why, orig.Line(), r.Line())
			}
		}
	}
	t.Logf("%d questions refused with suggestions, %d suggestions read back", checked, read)
	if checked < 100 || read < checked {
		t.Errorf("%d questions checked, %d suggestions read: too few to show anything", checked, read)
	}
}

// sameSlots says how two readings differ where both define a slot.
func sameSlots(a, b *reader.Reading) string {
	for _, n := range b.Nodes {
		for _, m := range a.Nodes {
			if n.Role == m.Role && (n.UID != m.UID || n.Written != m.Written) {
				return fmt.Sprintf("the %s is %s, not %s", n.Role, n.Written, m.Written)
			}
		}
	}
	if a.Window != nil && b.Window != nil && (a.Window.Start != b.Window.Start || a.Window.End != b.Window.End) {
		return fmt.Sprintf("the window is [%s, %s), not [%s, %s)", b.Window.StartText, b.Window.EndText, a.Window.StartText, a.Window.EndText)
	}
	if len(a.Instants) == len(b.Instants) {
		for i := range a.Instants {
			if a.Instants[i].T != b.Instants[i].T {
				return fmt.Sprintf("instant %d is %s, not %s", i, b.Instants[i].Text, a.Instants[i].Text)
			}
		}
	}
	if a.Delta != nil && b.Delta != nil && a.Delta.Micros != b.Delta.Micros {
		return fmt.Sprintf("δ is %d µs, not %d", b.Delta.Micros, a.Delta.Micros)
	}
	if a.Bucket != nil && b.Bucket != nil && a.Bucket.Micros != b.Bucket.Micros {
		return fmt.Sprintf("the bucket is %d µs, not %d", b.Bucket.Micros, a.Bucket.Micros)
	}
	// What each node does: sends, receives or either.
	for _, n := range b.Nodes {
		for _, m := range a.Nodes {
			if n.Written == m.Written && part(b, n) != "" && part(a, m) != "" && part(b, n) != part(a, m) {
				return fmt.Sprintf("%s %s, not %s", n.Written, part(b, n), part(a, m))
			}
		}
	}
	same := map[string]string{"gained": "added", "lost": "removed"}
	for _, o := range []string{"by", "motif", "cycle", "change", "closed_by", "form"} {
		x, y := a.Options[o], b.Options[o]
		if v, ok := same[x]; ok {
			x = v
		}
		if v, ok := same[y]; ok {
			y = v
		}
		if x != "" && y != "" && x != y && (o != "by" || a.Intent == b.Intent) {
			return fmt.Sprintf("%s is %s, not %s", o, y, x)
		}
	}
	if a.Belief.Now != b.Belief.Now || a.Belief.AsOfTT != b.Belief.AsOfTT {
		return fmt.Sprintf("belief %+v, not %+v", b.Belief, a.Belief)
	}
	return ""
}

// part is what a reading's node does in the events it counts: "sends",
// "receives", "either", or "" where the intent has no direction.
func part(r *reader.Reading, n reader.Node) string {
	d := r.Options["direction"]
	switch {
	case d == "":
		return ""
	case d == "either":
		return "either"
	case r.Intent == "pair-event-count" && n.Role == "target":
		return "receives"
	case r.Intent == "pair-event-count":
		return "sends"
	case d == "src":
		return "sends"
	}
	return "receives"
}
