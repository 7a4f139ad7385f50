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
// The RulePlanner needs no model: it recognises a fixed set of question
// shapes — every template and paraphrase of the evaluation suites (package
// eval) — with times written as "2004-05-01 12:00 UTC (1083412800000000)",
// as dates, RFC 3339 or raw microseconds, and emits the same plan as the
// template's oracle plan. A node named by something other than a task uid
// is found with resolve_entities. Anything else is refused with
// ErrUnsupportedQuestion rather than guessed. Its Repair knows one
// deterministic fix (RepairPlan): a count over a truncated page becomes a
// read of the producing step's rows_total.
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
