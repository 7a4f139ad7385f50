package exec

import (
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// windowOutside refuses a window reached by reference that lies wholly
// outside the data, exactly as the plan contract refuses the same window
// written literally (rule time.window_extent): most such windows are a
// units mistake, so neither form gets a certified empty answer.
func windowOutside(b ops.Backend, asOf bt.Time, spec *ops.Spec, raw, args map[string]any) *ops.Error {
	for k, p := range spec.Args.Properties {
		if p.Type != "object" || p.Properties["t_a"] == nil || p.Properties["t_b"] == nil || !plan.HasRef(raw[k]) {
			continue
		}
		m, _ := args[k].(map[string]any)
		ta, okA := m["t_a"].(int64)
		tb, okB := m["t_b"].(int64)
		if !okA || !okB {
			continue
		}
		var st engine.Counts
		_ = b.Pin(asOf, func(p ops.Pinned) error { st = p.Counts(); return nil })
		if st.EdgeVersions > 0 && (tb <= st.VtMin || ta >= st.VtMax) {
			return ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/" + k, "rule": plan.RuleWindowExtent, "hint": "check the units (µs since the epoch) and the year of the step the window was read from"},
				"window [%s, %s), reached by reference, lies outside the data, which spans [%s, %s)",
				bt.FormatRFC3339(ta), bt.FormatRFC3339(tb), bt.FormatRFC3339(st.VtMin), bt.FormatRFC3339(st.VtMax))
		}
	}
	return nil
}
