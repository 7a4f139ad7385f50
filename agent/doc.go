// Package agent answers questions about a TGMS store with certified
// answers:
//
//	question ─► Planner (RulePlanner, LLMPlanner, Scripted) ─► plan JSON
//	         ─► plan contract (plan.ValidateJSON with the task's uids and the
//	            store's statistics) ─► violations go back to Planner.Repair
//	         ─► exec.Run (belief time pinned) ─► repairable runtime errors
//	            (E_COST, E_NOT_FOUND, E_LIMIT, E_INVALID_ARG, E_SCHEMA) go back
//	            to Planner.Repair too, within one budget (DefaultMaxRepairs)
//	         ─► Reporter (MechanicalReporter: evidence.Mechanical)
//	         ─► evidence.Gate ─► Result.Certified and Result.Value
//
// Ask records every plan emission as an Attempt with its verdict or runtime
// error; Result.Value is the typed answer (a number, a uid, a list of uids
// or an interval {t_a, t_b}) only when every claim about it survived the
// gate, and nil otherwise.
//
// The RulePlanner needs no model: it reads the question with package
// reader (an intent and typed slots: nodes, times in many human forms,
// windows, durations exactly as written, belief time) and writes the plan
// a careful engineer would write for that intent. Ask records the reading
// in Result.Reading and, after the plan ran, the uid each name resolved to;
// a name that matched no node or several is refused. A question the reader
// cannot fully read is refused with an ErrUnsupportedQuestion that says
// what was missing and suggests forms. Its Repair knows one deterministic
// fix (RepairPlan): a count over a truncated page becomes a read of the
// producing step's rows_total.
//
// The LLMPlanner prompts any OpenAI-compatible endpoint (package llm) with
// PlannerPrompt: rules, grounding and time conventions, the operator
// manual generated from the ops registry (summary, manual, arguments with
// types, result fields) and four worked plans that a test keeps admitted.
// Repairs append the rejected reply and the structured rejection payload
// to the conversation.
//
// WriteHTML renders a Result as one self-contained HTML page.
package agent
