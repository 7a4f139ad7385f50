package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/pgstore"
	"github.com/tgms-go/tgms/plan"
)

// exitRejected is the exit status of a plan the contract rejects.
const exitRejected = 3

// rejectedError carries exit status 3.
type rejectedError struct{ msg string }

func (e rejectedError) Error() string { return e.msg }

func newPlanCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "plan", Short: "Check or run a plan (the plan contract and the executor)"}
	cmd.AddCommand(newPlanCheck(), newPlanRun())
	return cmd
}

func splitUIDs(s string) []string {
	var out []string
	for _, u := range strings.Split(s, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// checkPlan reads a plan file and runs the plan contract against a store.
func checkPlan(db *tgms.DB, path, uids string) (plan.Verdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return plan.Verdict{}, asInput(err)
	}
	st := db.Stats()
	stats := &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	return plan.ValidateJSON(data, plan.Options{UIDs: splitUIDs(uids), Stats: stats}), nil
}

func newPlanCheck() *cobra.Command {
	var store, uids string
	cmd := &cobra.Command{
		Use:   "check --store DIR PLAN.json [--uids a,b]",
		Short: "Run the plan contract: exit 0 admitted, 3 rejected (violations printed as JSON), 2 unusable input",
		Long: `Check a plan against the plan contract without running it: structure,
dependencies, operators, argument types, references (along their full path,
against each operator's result schema), identifier grounding (literal uids
must be among --uids; references in uid positions must resolve to uid
columns), temporal arguments and the cost estimate. Prints
{"valid": bool, "violations": [{code, rule, step_id, path, message, hint,
allowed, expected}], "notices": [...]}.

A plan that uses a spelling an earlier release accepted (an argument or
value since renamed) is admitted as if written in the current spelling;
each such use is a notice {code, step_id, path, message, replacement}, and
the plan in the current spelling is printed on stderr (the migration).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			v, err := checkPlan(db, args[0], uids)
			if err != nil {
				return err
			}
			if v.Violations == nil {
				v.Violations = []plan.Violation{}
			}
			if err := printJSON(cmd.OutOrStdout(), v); err != nil {
				return err
			}
			printNotices(cmd.ErrOrStderr(), args[0], v)
			if !v.Valid {
				return rejectedError{fmt.Sprintf("%s: plan rejected with %d violation(s)", args[0], len(v.Violations))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().StringVar(&uids, "uids", "", "comma-separated uids the task supplies (grounding)")
	return cmd
}

func newPlanRun() *cobra.Command {
	var store, uids, traceOut, eng string
	cmd := &cobra.Command{
		Use:   "run --store DIR PLAN.json [--uids a,b] [--trace OUT.json]",
		Short: "Check and run a plan; print the answer and write the trace",
		Long: `Check a plan against the plan contract, run it, print each step and the
certified answer, and write the trace (--trace).

On a PostgreSQL store (--store postgres://...), --engine native (the
default) runs the plan on the in-memory read model built from the
batches; --engine sql runs every step as SQL against the version tables,
with the same result digests. A plan with a step whose operator has no
SQL form is refused before anything runs, naming the step and the
operators that have one (there is no per-step fallback: it would build
the in-memory read model that --engine sql exists to avoid).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pgstore.IsURL(store) {
				return pgPlanRun(cmd, store, eng, args[0], uids, traceOut)
			}
			if eng != engineNative {
				return usageError{fmt.Errorf("--engine %s runs on a PostgreSQL store (--store postgres://...), not on %s", eng, store)}
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			v, err := checkPlan(db, args[0], uids)
			if err != nil {
				return err
			}
			return runCheckedPlan(cmd, db, nil, args[0], v, traceOut)
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory, or postgres://USER@HOST:PORT/DB?schema=NAME")
	cmd.Flags().StringVar(&uids, "uids", "", "comma-separated uids the task supplies (grounding)")
	cmd.Flags().StringVar(&traceOut, "trace", "", "write the trace (JSON) here")
	cmd.Flags().StringVar(&eng, "engine", engineNative, "on a PostgreSQL store: native (in-memory read model) or sql (SQL on the version tables)")
	return cmd
}

// runCheckedPlan runs a checked plan on src (its steps through b when not
// nil), prints the steps and the answer and writes the trace.
func runCheckedPlan(cmd *cobra.Command, src exec.Source, b ops.Backend, name string, v plan.Verdict, traceOut string) error {
	printNotices(cmd.ErrOrStderr(), name, v)
	if !v.Valid {
		printJSON(cmd.OutOrStdout(), v)
		return rejectedError{fmt.Sprintf("%s: plan rejected with %d violation(s); nothing ran", name, len(v.Violations))}
	}
	tr := exec.Run(cmd.Context(), src, v.Plan, exec.Options{Backend: b})
	// The deterministic reporter's claim, gated, goes into the trace:
	// its digest covers it, and 'trace verify' re-checks it.
	if _, err := evidence.Attach(tr, evidence.Mechanical(tr, v.Plan)); err != nil {
		return err
	}
	if traceOut != "" {
		if err := writeTrace(traceOut, tr); err != nil {
			return err
		}
	}
	w := cmd.OutOrStdout()
	for _, s := range tr.Steps {
		line := fmt.Sprintf("%-4s %-26s %-7s", s.StepID, s.Op, s.Status)
		if s.Status == "ok" {
			line += fmt.Sprintf(" rows_total=%d truncated=%v result=%s", s.RowsTotal, s.Truncated, s.ResultDigest[:16])
		} else if s.Error != nil {
			line += " " + s.Error.Error()
		}
		fmt.Fprintln(w, line)
	}
	ans, _ := canon.Marshal(tr.Answer)
	status := "certified"
	if !*tr.Certified {
		status = "not certified: " + tr.UncertifiedReason
	}
	fmt.Fprintf(w, "answer (%s, as of tt %d): %s — %s\ntrace digest %s\n", v.Plan.Answer.Kind, tr.AsOfTT, ans, status, tr.TraceDigest)
	if tr.AnswerError != nil {
		return fmt.Errorf("no answer: %v", tr.AnswerError)
	}
	return nil
}

// printNotices tells, for each spelling of an earlier release the plan
// used, what to write now, and prints the plan in the current spelling.
func printNotices(w io.Writer, name string, v plan.Verdict) {
	if len(v.Notices) == 0 || v.Plan == nil {
		return
	}
	for _, n := range v.Notices {
		fmt.Fprintf(w, "notice: %s %s: %s\n", name, n.Path, n.Message)
	}
	if b, err := v.Plan.JSON(); err == nil {
		fmt.Fprintf(w, "notice: the plan in the current spelling (plan language %d):\n%s\n", plan.Version, b)
	}
}

func writeTrace(path string, tr *exec.Trace) error {
	b, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "trace", Short: "Work with execution traces"}
	var store string
	verify := &cobra.Command{
		Use:   "verify --store DIR TRACE.json",
		Short: "Re-execute a trace at its recorded belief time and compare every field (exit 0 only if all reproduce, 3 naming each field that differs)",
		Long: `Re-executes the trace's plan at its recorded belief time, recomputes the
answer, the certification flag and (when the trace carries a report) every
claim's verdict and the certified text, and compares the whole recorded
trace with the result field by field: the plan, each step's arguments,
results, evidence records and digests, the answer, the claims and the trace
digest. Only telemetry (timings) is not compared. A trace written before
trace formats were numbered (version 1) is verified the same way.

A step that differs and whose dependency scope meets an entity erased
from the store ('tgms erase') is marked ERASED instead of DIFFERS, and the
trace is reported ERASED: it read content that no longer exists anywhere
in the store, so it cannot be reproduced.

Exit codes: 0 the trace reproduces exactly, 3 it differs (each differing
field is printed as a JSON Pointer with the recorded and recomputed
values) or it read erased content (ERASED), 2 bad input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tr, err := readTraceFile(args[0])
			if err != nil {
				return err
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			chk, err := evidence.VerifyTrace(cmd.Context(), db, tr)
			if err != nil {
				return badInput("%s: %v", args[0], err)
			}
			w := cmd.OutOrStdout()
			again := chk.Again
			erasures := db.Erasures()
			erased := ""
			for i, s := range tr.Steps {
				mark := "reproduced"
				if i >= len(again.Steps) || !sameStep(&s, &again.Steps[i]) {
					mark = "DIFFERS"
					if u := readsErased(&s, erasures); u != "" {
						mark, erased = "ERASED", u
					}
				}
				digest := ""
				if i < len(again.Steps) {
					digest = again.Steps[i].ResultDigest
				}
				fmt.Fprintf(w, "%-4s %-26s %s (result %s)\n", s.StepID, s.Op, mark, shortDigest(digest))
			}
			for _, d := range chk.Diffs {
				fmt.Fprintf(w, "DIFFERS %s: recorded %s, recomputed %s\n", d.Path, shortJSON(d.Recorded), shortJSON(d.Again))
			}
			fmt.Fprintf(w, "trace digest %s (format %d): %v\n", shortDigest(tr.TraceDigest), tr.FormatVersion(), chk.OK())
			if !chk.OK() && erased != "" {
				fmt.Fprintf(w, "ERASED: the trace read contents of %q that were erased from the store; it cannot be reproduced\n", erased)
				return rejectedError{fmt.Sprintf("%s read content erased from %s (uid %q): ERASED, it cannot be reproduced", args[0], store, erased)}
			}
			if !chk.OK() {
				return rejectedError{fmt.Sprintf("%s does not reproduce at tt %d: %v", args[0], tr.AsOfTT, chk.Err())}
			}
			return nil
		},
	}
	verify.Flags().StringVar(&store, "store", "", "store directory")
	cmd.AddCommand(verify, newTraceCheck())
	return cmd
}

// sameStep reports whether a re-executed step is the recorded one: same
// status, call and result digests.
func sameStep(a, b *exec.StepRecord) bool {
	return a.StepID == b.StepID && a.Status == b.Status && a.CallDigest == b.CallDigest && a.ResultDigest == b.ResultDigest
}

func shortDigest(d string) string {
	if len(d) > 16 {
		return d[:16]
	}
	return d
}

// readsErased returns the erased uid whose contents a recorded step may
// have read (its scope meets it; a step without evidence may have read
// anything), or "".
func readsErased(s *exec.StepRecord, erasures []tgms.Erased) string {
	for _, e := range erasures {
		var sc *ops.Scope
		if s.Evidence != nil {
			sc = s.Evidence.Scope
		}
		if sc.ReadsErased(e.UID, e.Edges) {
			return e.UID
		}
	}
	return ""
}
