package reader

import (
	"slices"
	"strconv"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/plan"
)

// rowLimit is the page size of every paged step: large enough that the
// usual answer is one complete page; the repair loop handles the rest.
const rowLimit = int64(10_000)

// nameLimit is the page size of a name lookup: a name that matches more
// than one node is refused after the plan ran, so a few rows suffice.
const nameLimit = int64(10)

func win(ta, tb int64) map[string]any { return map[string]any{"t_a": ta, "t_b": tb} }
func ref(p string) map[string]any     { return map[string]any{"$ref": p} }

// builder assembles a plan, numbering steps and deriving depends_on from
// the references in each step's arguments.
type builder struct {
	r     *Reading
	steps []map[string]any
	kind  string
	from  string
	names map[string]string // written name → resolve step
}

func (b *builder) add(op string, args map[string]any) string {
	id := "s" + strconv.Itoa(len(b.steps)+1)
	deps := []any{}
	collectRefs(args, func(r string) {
		if rr, err := plan.ParseRef(r, false); err == nil && !slices.Contains(deps, any(rr.Step)) {
			deps = append(deps, rr.Step)
		}
	})
	slices.SortFunc(deps, func(a, c any) int {
		x, y := a.(string), c.(string)
		if len(x) != len(y) {
			return len(x) - len(y)
		}
		if x < y {
			return -1
		}
		if x > y {
			return 1
		}
		return 0
	})
	b.steps = append(b.steps, map[string]any{"id": id, "op": op, "args": args, "depends_on": deps})
	return id
}

func collectRefs(v any, f func(string)) {
	switch x := v.(type) {
	case map[string]any:
		if r, ok := plan.AsRef(x); ok {
			f(r)
			return
		}
		for _, e := range x {
			collectRefs(e, f)
		}
	case []any:
		for _, e := range x {
			collectRefs(e, f)
		}
	}
}

// node binds the node in a role: its uid, or the first row of a
// resolve_entities step for a name.
func (b *builder) node(role string) any {
	n := b.r.node(role)
	if !n.ByName {
		return n.UID
	}
	return ref(b.resolve(n.Written) + ".rows[0].uid")
}

// nodeList binds the node for a list-typed argument.
func (b *builder) nodeList(role string) any {
	n := b.r.node(role)
	if !n.ByName {
		return []any{n.UID}
	}
	return ref(b.resolve(n.Written) + ".rows[*].uid")
}

func (b *builder) resolve(name string) string {
	if b.names == nil {
		b.names = map[string]string{}
	}
	if s, ok := b.names[name]; ok {
		return s
	}
	s := b.add("resolve_entities", map[string]any{"query": name, "limit": nameLimit})
	b.names[name] = s
	return s
}

// asOf adds the reading's belief time to a store-reading step's args.
func (b *builder) asOf(args map[string]any) map[string]any {
	if !b.r.Belief.Now {
		args["as_of_tt"] = b.r.Belief.AsOfTT
	}
	return args
}

func (b *builder) answer(kind, from string) {
	b.kind, b.from = kind, from
}

func (b *builder) window() map[string]any { return win(b.r.Window.Start, b.r.Window.End) }

func (b *builder) json(id, question string) ([]byte, error) {
	steps := make([]any, len(b.steps))
	for i, s := range b.steps {
		steps[i] = s
	}
	return canon.Marshal(map[string]any{"plan_id": "read-" + id, "question": question, "steps": steps,
		"answer_spec": map[string]any{"kind": b.kind, "from": b.from}})
}
