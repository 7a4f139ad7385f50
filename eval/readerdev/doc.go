// Package readerdev scores the built-in question reader on corpora of
// questions written independently of it, each over its own store.
//
// A corpus is a folder holding questions.json and store.wal, the event log
// of the store its golds were computed on. The store is rebuilt by
// replaying the log (transaction times kept, so belief times line up), and
// every question is asked through the whole pipeline (reader, plan
// contract, executor, evidence gate) with the uids the question lists.
//
// questions.json is an array of objects with the fields id, capability,
// question, uids, expected ({"plan": …} or {"refuse": "why"}),
// answer_kind (count, value, entity_set, interval, refusal), gold,
// gold_as_of_tt and, for questions whose plan lies outside the reader's
// shapes, refusal_ok.
//
// Each question gets one outcome:
//
//	correct     the certified answer equals the gold and the reading agrees
//	            with the written interpretation, or a question that must be
//	            refused was refused
//	acceptable  a refusal_ok question was refused
//	refused     an answerable question was refused
//	wrong       a certified answer that differs from the gold, a certified
//	            answer whose reading differs from the interpretation (window
//	            or belief time), or an answer where a refusal was expected
//
// Answers compare by kind: counts exactly, numbers within 1e-9 relative,
// uids exactly, entity sets as sets (a bare uid as a set of one), intervals at IoU ≥ 0.5. The reading
// agrees with the interpretation when its belief time equals the gold's
// and the first valid-time window of its plan, clipped to the store's
// extent, equals the expected plan's, clipped the same way.
package readerdev
