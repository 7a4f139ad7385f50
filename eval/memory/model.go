package memory

import (
	"fmt"
	"slices"
	"sort"
	"time"
)

// The model is the suite's own reading of what a memory should answer,
// written without the engine: a fact's timeline is a list of segments
// (valid from, valid until, props), and the whole memory after each batch
// is kept as a snapshot. "What was believed at batch b" is the snapshot of
// b; "what held at t" is the segment containing t. Versions, carving,
// transaction intervals and indexes do not exist here. A segment has an id
// so that the model can tell when a write replaced the segment holding an
// instant (the engine closes that version) even where the value stayed.

const openEnd = int64(1) << 62

// seg is one stretch of a fact's timeline.
type seg struct {
	s, e  int64
	props map[string]any
	label string
	prov  map[string]any
	id    int
}

// memState is the memory after some batch: every fact's timeline, sorted
// by start, no two segments overlapping.
type memState map[string][]seg

func (m memState) clone() memState {
	out := memState{}
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// snapshot is the memory after one accepted batch.
type snapshot struct {
	label string
	state memState
	op    string // the write that made it: remember, correct or retract
}

// Model applies a scenario's writes to snapshots.
type Model struct {
	snaps  []snapshot
	nextID int
	// mutate names a deliberate error, for the test that shows the suite
	// can fail: "correct-is-evolution" records corrections as evolution,
	// "no-belief-time" answers every belief time from the last snapshot,
	// "parts-keep-provenance" leaves the parts of a cut segment their
	// old provenance, "model-may-replace-user" drops the override rule.
	mutate string
}

// NewModel starts an empty memory.
func NewModel() *Model { return &Model{snaps: []snapshot{{label: "", state: memState{}}}} }

func (m *Model) last() memState { return m.snaps[len(m.snaps)-1].state }

// factKey names a fact: node:uid, or edge:src|dst|rel_type|disc.
func factKey(a map[string]any) (string, bool, error) {
	str := func(k string) string { s, _ := a[k].(string); return s }
	if u := str("uid"); u != "" {
		return "node:" + u, false, nil
	}
	if str("src") == "" || str("dst") == "" || str("rel_type") == "" {
		return "", false, fmt.Errorf("a fact needs uid, or src, dst and rel_type")
	}
	return "edge:" + str("src") + "|" + str("dst") + "|" + str("rel_type") + "|" + str("disc"), true, nil
}

// modelTime reads a scenario time: RFC 3339 or an integer of µs.
func modelTime(v any, def int64) (int64, error) {
	switch x := v.(type) {
	case nil:
		return def, nil
	case float64:
		return int64(x), nil
	case int64:
		return x, nil
	case string:
		t, err := time.Parse(time.RFC3339Nano, x)
		if err != nil {
			return 0, err
		}
		return t.UnixMicro(), nil
	}
	return 0, fmt.Errorf("not a time: %v", v)
}

// Apply runs one write (the tool's name and arguments) as a batch
// labelled label. A write the memory must refuse returns its reason and
// changes nothing.
func (m *Model) Apply(label, tool string, a map[string]any) (refusal string, err error) {
	key, edge, err := factKey(a)
	if err != nil {
		return "", err
	}
	st := m.last().clone()
	line := st[key]
	prov, _ := a["provenance"].(map[string]any)
	props, _ := a["props"].(map[string]any)
	switch tool {
	case "remember":
		s, e, err := m.span(a, "valid_from", "valid_until")
		if err != nil {
			return "", err
		}
		label := ""
		if !edge {
			label, _ = a["label"].(string)
			if label == "" {
				label = "Node"
			}
		}
		if edge {
			src, _ := a["src"].(string)
			dst, _ := a["dst"].(string)
			for _, end := range []string{src, dst} {
				if !overlapping(st["node:"+end], s, e) {
					return "an endpoint of the edge does not exist then", nil
				}
			}
		}
		if overlapping(line, s, e) {
			// the world changed at s: everything believed from s on is
			// closed, and what held after e is stated again
			var hit []seg
			line, hit = m.cut(line, s, openEnd, prov)
			if r := m.guard(a, prov, hit); r != "" {
				return r, nil
			}
			for _, g := range hit {
				if g.e > e {
					g.s, g.prov = max(g.s, e), prov
					line = m.add(line, g)
				}
			}
		}
		line = m.add(line, seg{s: s, e: e, props: props, label: label, prov: prov})
	case "correct":
		s, e, err := m.span(a, "valid_from", "valid_until")
		if err != nil {
			return "", err
		}
		prov = withNote(prov, a["reason"])
		var hit []seg
		line, hit = m.cut(line, s, e, prov)
		if len(hit) == 0 {
			return "nothing believed there to correct", nil
		}
		if r := m.guard(a, prov, hit); r != "" {
			return r, nil
		}
		label := hit[0].label
		if _, moves := a["to_valid_from"]; moves {
			if s, e, err = m.span(a, "to_valid_from", "to_valid_until"); err != nil {
				return "", err
			}
			for _, g := range line {
				if g.s < e && s < g.e {
					return "the fact is already believed where it would move", nil
				}
			}
		}
		line = m.add(line, seg{s: s, e: e, props: props, label: label, prov: prov})
	case "retract":
		t, err := modelTime(a["at"], 0)
		if err != nil {
			return "", err
		}
		var hit []seg
		line, hit = m.cut(line, t, openEnd, prov)
		if len(hit) == 0 {
			return "nothing believed from then on to retract", nil
		}
		if r := m.guard(a, prov, hit); r != "" {
			return r, nil
		}
	default:
		return "", fmt.Errorf("unknown write %q", tool)
	}
	st[key] = line
	m.snaps = append(m.snaps, snapshot{label: label, state: st, op: tool})
	return "", nil
}

// guard is the rule that a model never silently replaces a person's
// fact: a write of authority model that closes a segment a user wrote is
// refused unless it says override.
func (m *Model) guard(a map[string]any, prov map[string]any, closed []seg) string {
	if prov["authority"] != "model" || a["override"] == true || m.mutate == "model-may-replace-user" {
		return ""
	}
	for _, g := range closed {
		if g.prov["authority"] == "user" {
			return "a model write would replace a user's fact without override"
		}
	}
	return ""
}

func overlapping(line []seg, s, e int64) bool {
	for _, g := range line {
		if g.s < e && s < g.e {
			return true
		}
	}
	return false
}

func (m *Model) span(a map[string]any, from, until string) (int64, int64, error) {
	s, err := modelTime(a[from], 0)
	if err != nil {
		return 0, 0, err
	}
	e, err := modelTime(a[until], openEnd)
	if err != nil {
		return 0, 0, err
	}
	if s >= e {
		return 0, 0, fmt.Errorf("%s is not before %s", from, until)
	}
	return s, e, nil
}

// cut removes [s, e) from a timeline: every segment overlapping it is
// replaced by its parts outside, and returned. The parts are written
// again by the batch: new ids, and the batch's provenance prov (a
// version's provenance is that of the batch that wrote it).
func (m *Model) cut(line []seg, s, e int64, prov map[string]any) (kept, hit []seg) {
	keep := m.mutate == "parts-keep-provenance"
	for _, g := range line {
		if g.e <= s || e <= g.s {
			kept = append(kept, g)
			continue
		}
		hit = append(hit, g)
		if g.s < s {
			left := g
			left.e = s
			if !keep {
				left.prov = prov
			}
			kept = m.add(kept, left)
		}
		if e < g.e {
			right := g
			right.s = e
			if !keep {
				right.prov = prov
			}
			kept = m.add(kept, right)
		}
	}
	return kept, hit
}

func (m *Model) add(line []seg, g seg) []seg {
	m.nextID++
	g.id = m.nextID
	line = append(line, g)
	sort.Slice(line, func(i, j int) bool { return line[i].s < line[j].s })
	return line
}

// at returns the snapshot believed at a batch label ("now": the last).
func (m *Model) at(label string) (int, error) {
	if label == "now" || m.mutate == "no-belief-time" {
		return len(m.snaps) - 1, nil
	}
	for i, s := range m.snaps {
		if i > 0 && s.label == label {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no accepted batch %q", label)
}

// holding returns the segment of a fact containing t in snapshot i.
func (m *Model) holding(i int, key string, t int64) (seg, bool) {
	for _, g := range m.snaps[i].state[key] {
		if g.s <= t && t < g.e {
			return g, true
		}
	}
	return seg{}, false
}

// still returns the segment of a fact that still holds (open end) in
// snapshot i.
func (m *Model) still(i int, key string) (seg, bool) { return m.holding(i, key, openEnd-1) }

// TrailEntry is what a memory believed about one instant after one batch:
// the value, and whether that batch replaced the belief it had (a
// correction or an evolution) or left it alone ("").
type TrailEntry struct {
	Batch  string `json:"batch"`
	Value  any    `json:"value"`
	Change string `json:"change"`
}

// trail is the model's belief about key's prop at t after every batch.
func (m *Model) trail(key, prop string, t int64) []TrailEntry {
	var out []TrailEntry
	for i := 1; i < len(m.snaps); i++ {
		g, ok := m.holding(i, key, t)
		e := TrailEntry{Batch: m.snaps[i].label, Value: valueOf(g, ok, prop)}
		if prev, had := m.holding(i-1, key, t); had && (!ok || prev.id != g.id) {
			e.Change = "evolution"
			if m.snaps[i].op == "correct" && m.mutate != "correct-is-evolution" {
				e.Change = "correction"
			}
		}
		out = append(out, e)
	}
	return out
}

// withNote is a correct's provenance: its reason becomes the note, before
// any note the writer gave.
func withNote(prov map[string]any, reason any) map[string]any {
	r, _ := reason.(string)
	out := map[string]any{}
	for k, v := range prov {
		out[k] = v
	}
	if n, _ := prov["note"].(string); n != "" {
		r += "; " + n
	}
	out["note"] = r
	return out
}

// author names who wrote a segment: authority/actor/ref (and the note).
func author(g seg, ok bool) any {
	if !ok {
		return Absent
	}
	return authorOf(g.prov)
}

func authorOf(p map[string]any) string {
	str := func(k string) string { s, _ := p[k].(string); return s }
	out := str("authority") + "/" + str("actor") + "/" + str("ref")
	if n := str("note"); n != "" {
		out += " (" + n + ")"
	}
	return out
}

// Absent is the value of a prop no fact holds.
const Absent = "(absent)"

func valueOf(g seg, ok bool, prop string) any {
	if !ok {
		return Absent
	}
	if prop == "" {
		return true // the fact holds
	}
	v, has := g.props[prop]
	if !has {
		return Absent
	}
	return v
}
