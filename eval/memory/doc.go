// Package memory is the scenario suite of the memory tools: an agent's
// session as a script of writes (remember, correct, retract) and
// questions, each question answered twice — by the tools of a writable
// server over a fresh store (recall and why, certified plans over
// version_history), and by Model, a small reading of the same writes that
// shares nothing with the engine — at several belief times.
//
// # Scenarios
//
// A scenario is a JSON file (testdata/scenarios/*.json):
//
//	{"name": "...", "about": "...",
//	 "writes": [{"batch": "b1", "tool": "remember", "args": {...tool arguments...}}, ...],
//	 "questions": [{"id": "...", "ask": "value"|"link"|"trail", ...}, ...]}
//
// Every write is one batch, labelled; its arguments are the tool's, times
// in RFC 3339. Whether the write is accepted is itself an answer: the
// model refuses a correct or retract with nothing believed where it
// points, and a correct that would move a fact onto an interval where it
// is already believed.
//
// Questions:
//
//	value  uid, prop, at   the prop of the node fact holding at valid time at
//	                       (no at: the fact that still holds), or "(absent)"
//	link   src, dst, rel_type, disc, at
//	                       whether that edge holds at at (src→dst, not the reverse)
//	author uid or an edge, at
//	                       who wrote the fact holding at at: authority/actor/ref
//	                       (note) of the batch that wrote its version, or "(absent)"
//	trail  uid or an edge, prop, at
//	                       after every batch, the value believed about the instant at
//	                       and whether that batch replaced the belief by a correction
//	                       or an evolution ("" when it left it alone): why's versions
//
// value, link and author are asked at every belief time in believed: a batch
// label (the memory as it was right after that batch) or "now".
//
// # Model
//
// The model keeps a fact as a timeline of segments and the whole memory
// after each batch as a snapshot: remember over a believed interval says
// the world changed at its start (everything from then on is replaced,
// what held after its end is stated again), correct overwrites its
// interval (or moves it) where something was believed, retract cuts
// everything from its time on. A write of authority model that would
// replace a segment a user wrote is refused unless it says override, and
// an edge needs both endpoints to exist over its interval. A segment a write
// overlaps is replaced (its untouched parts become new segments), which is
// how the model knows that a batch closed the belief about an instant even
// where the value did not change. The parts a write leaves of a segment are
// written again by that write's batch, and so carry its provenance (a
// version's provenance is its writing batch's, whatever the value's origin).
package memory
