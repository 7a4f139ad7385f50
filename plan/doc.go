// Package plan is the plan IR and the plan contract: the static admission
// check that every plan passes before anything runs.
//
// # Plan JSON
//
//	{
//	  "plan_id": "p1",                      required, non-empty
//	  "question": "...",                    optional, not interpreted
//	  "steps": [                            1..12 steps
//	    {"id": "s1",                        ^s[0-9]+$, unique
//	     "op": "resolve_entities",          a registered operator
//	     "args": {...},                     the operator's arguments; may hold references
//	     "depends_on": ["s0"]}              optional; every referenced step must be listed
//	  ],
//	  "answer_spec": {"kind": "count",      count | value | entity_set | interval | series | paths | text
//	                  "from": "s3.value"}   a step id or a reference path
//	}
//
// No other fields are allowed anywhere. A reference is an object whose only
// key is "$ref" with a string value "sN.field[0].field" (fields, [i]
// indexes, at most one [*] projection), resolved against step sN's result.
//
// # Violations
//
// Validate returns every violation it finds as {code, rule, step_id, path,
// message, hint, allowed, expected}: structural problems (the plan's own
// shape, unparseable steps, duplicate ids) stop early; everything else is
// collected in one pass. Rule ids are stable; see Rules.
package plan
