package plan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/plan"
)

const perSender = `{"id":"s1","op":"aggregate_events","args":{"window":{"t_a":0,"t_b":100},"group_by":[{"dim":"endpoint","role":"src"}],"aggregates":[{"agg":"count"}]},"depends_on":[]}`

func typingPlan(s2, s3 string) string {
	return fmt.Sprintf(`{"plan_id":"t","steps":[%s,%s,%s],"answer_spec":{"kind":"value","from":"s3.rows_total"}}`, perSender, s2, s3)
}

const countBySenders = `{"id":"s3","op":"aggregate_events","args":{"window":{"t_a":0,"t_b":100},"group_by":[],"aggregates":[{"agg":"count"}],"endpoint_filter":{"role":"src","uids":{"$ref":"%s"}}},"depends_on":["s2"]}`

// uids that compute passes on from store results keep their uid typing
// (and so their grounding); uids a plan wrote itself do not.
func TestComputeKeepsUIDTyping(t *testing.T) {
	cases := []struct {
		name, s2, ref string
		rule          string // "" admitted
	}{
		{"filter keeps rows", `{"id":"s2","op":"compute","args":{"fn":"filter","input":{"$ref":"s1.rows"},"field":"count","cmp":"gt","value":2},"depends_on":["s1"]}`, "s2.rows[*].src", ""},
		{"topk keeps rows", `{"id":"s2","op":"compute","args":{"fn":"topk","input":{"$ref":"s1.rows"},"field":"count","k":5},"depends_on":["s1"]}`, "s2.rows[*].src", ""},
		{"derive keeps rows", `{"id":"s2","op":"compute","args":{"fn":"derive","input":{"$ref":"s1.rows"},"field":"count","op":"mul","value":2,"into":"twice"},"depends_on":["s1"]}`, "s2.rows[*].src", ""},
		{"set members of a uid column", `{"id":"s2","op":"compute","args":{"fn":"difference","input":{"$ref":"s1.rows[*].src"},"other":["n1"]},"depends_on":["s1"]}`, "s2.rows", ""},
		{"set members by field", `{"id":"s2","op":"compute","args":{"fn":"intersect","input":{"$ref":"s1.rows"},"field":"src","other":["n1"]},"depends_on":["s1"]}`, "s2.rows", ""},
		{"group key of a uid column", `{"id":"s2","op":"compute","args":{"fn":"sum","input":{"$ref":"s1.rows"},"field":"count","group_by":"src"},"depends_on":["s1"]}`, "s2.rows[*].src", ""},
		{"join keeps both sides", `{"id":"s2","op":"compute","args":{"fn":"join","input":{"$ref":"s1.rows"},"on":"src","other":{"$ref":"s1.rows"}},"depends_on":["s1"]}`, "s2.rows[*].r_src", ""},
		{"a left join's right side may be fill", `{"id":"s2","op":"compute","args":{"fn":"join","input":{"$ref":"s1.rows"},"on":"src","other":{"$ref":"s1.rows"},"how":"left","fill":"n9"},"depends_on":["s1"]}`, "s2.rows[*].r_src", plan.RuleGroundRef},
		{"union with literals is not grounded", `{"id":"s2","op":"compute","args":{"fn":"union","input":{"$ref":"s1.rows[*].src"},"other":["n9"]},"depends_on":["s1"]}`, "s2.rows", plan.RuleGroundRef},
		{"a literal input is not grounded", `{"id":"s2","op":"compute","args":{"fn":"filter","input":[{"src":"n9"}],"field":"src","cmp":"ne","value":"x"},"depends_on":["s1"]}`, "s2.rows[*].src", plan.RuleGroundRef},
		{"the derived row schema is checked", `{"id":"s2","op":"compute","args":{"fn":"filter","input":{"$ref":"s1.rows"},"field":"count","cmp":"gt","value":2},"depends_on":["s1"]}`, "s2.rows[*].nope", plan.RuleRefField},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			js := typingPlan(tc.s2, fmt.Sprintf(countBySenders, tc.ref))
			v := plan.ValidateJSON([]byte(js), plan.Options{UIDs: []string{"n1"}})
			var rules []string
			for _, x := range v.Violations {
				rules = append(rules, x.Rule)
			}
			switch {
			case tc.rule == "" && !v.Valid:
				t.Fatalf("rejected: %+v", v.Violations)
			case tc.rule != "" && !strings.Contains(strings.Join(rules, " "), tc.rule):
				t.Fatalf("want a %s violation, got %v", tc.rule, v.Violations)
			}
		})
	}
}
