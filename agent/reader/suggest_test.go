package reader_test

import (
	"errors"
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
