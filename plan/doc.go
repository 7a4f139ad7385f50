// Package plan is the plan IR and the plan contract: the static admission
// check that every plan passes before anything runs.
//
// # Plan JSON
//
//	{
//	  "tgms_plan": 1,                       optional: the plan language version (1 when absent)
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
// # Versions and compatibility
//
// tgms_plan is the plan language version; this release reads version 1,
// and a plan without tgms_plan is version 1. The rule: every plan an
// earlier release admitted is admitted by every later release of the same
// language version, with the same answer on the same store. Changes that
// keep the rule (a new operator, argument or value; a wider bound) need
// nothing. A rename does not drop the old spelling: it becomes an alias,
// read as the new one, and the verdict carries a Notice
// {code: deprecated.arg | deprecated.value, step_id, path, message,
// replacement} for each use ('tgms plan check' also prints the plan in the
// current spelling: the migration). Only a new language version may drop
// aliases or change meanings, and a release that reads version N reads
// every version before it. The canonical plan (Plan.JSON, the plan digest)
// names tgms_plan only when it is not 1, so old plans keep their digests.
//
// The aliases (compat.go): version_history's argument closed_by is change;
// a compute filter that compares version_history's change column with
// "corrected" or "evolved" compares with "correction" or "evolution" (the
// column's values before they took the argument's vocabulary; the new
// column never holds the old words, so the rewrite cannot change a plan
// written in the new spelling).
//
// testdata/compat holds plans of each release (a directory per release,
// named by its order and commit) with their answers on a fixed store,
// pinned as digests in testdata/compat/answers.json as that release
// computed them; the test requires every plan admitted with the same
// answer.
//
// # Violations
//
// Validate returns every violation it finds as {code, rule, step_id, path,
// message, hint, allowed, expected}: structural problems (the plan's own
// shape, unparseable steps, duplicate ids) stop early; everything else is
// collected in one pass. Rule ids are stable; see Rules.
package plan
