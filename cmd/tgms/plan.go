package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
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
allowed, expected}]}.`,
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
	var store, uids, traceOut string
	cmd := &cobra.Command{
		Use:   "run --store DIR PLAN.json [--uids a,b] [--trace OUT.json]",
		Short: "Check and run a plan; print the answer and write the trace",
		Args:  cobra.ExactArgs(1),
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
			if !v.Valid {
				printJSON(cmd.OutOrStdout(), v)
				return rejectedError{fmt.Sprintf("%s: plan rejected with %d violation(s); nothing ran", args[0], len(v.Violations))}
			}
			tr := exec.Run(cmd.Context(), db, v.Plan, exec.Options{})
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
			if ok, why := tr.AnswerStatus(); !ok {
				status = "not certified: " + why
			}
			fmt.Fprintf(w, "answer (%s, as of tt %d): %s — %s\ntrace digest %s\n", v.Plan.Answer.Kind, tr.AsOfTT, ans, status, tr.TraceDigest)
			if tr.AnswerError != nil {
				return fmt.Errorf("no answer: %v", tr.AnswerError)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().StringVar(&uids, "uids", "", "comma-separated uids the task supplies (grounding)")
	cmd.Flags().StringVar(&traceOut, "trace", "", "write the trace (JSON) here")
	return cmd
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
		Short: "Re-execute a trace at its recorded belief time and compare every digest (exit 0 only if all reproduce)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return asInput(err)
			}
			var tr exec.Trace
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber() // keep integers beyond 2^53 exact
			if err := dec.Decode(&tr); err != nil {
				return badInput("%s: not a trace: %v", args[0], err)
			}
			planJSON, _ := json.Marshal(tr.Plan)
			v := plan.ValidateJSON(planJSON, plan.Options{UIDs: nil})
			if v.Plan == nil {
				return badInput("%s: the recorded plan does not parse", args[0])
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			again := exec.Run(cmd.Context(), db, v.Plan, exec.Options{AsOf: tr.AsOfTT})
			w := cmd.OutOrStdout()
			ok := again.TraceDigest == tr.TraceDigest
			for i, s := range tr.Steps {
				if i >= len(again.Steps) {
					break
				}
				a := again.Steps[i]
				same := s.CallDigest == a.CallDigest && s.ResultDigest == a.ResultDigest && s.Status == a.Status
				ok = ok && same
				mark := "reproduced"
				if !same {
					mark = "DIFFERS"
				}
				fmt.Fprintf(w, "%-4s %-26s %s (result %s)\n", s.StepID, s.Op, mark, shortDigest(a.ResultDigest))
			}
			fmt.Fprintf(w, "trace digest %s: %v\n", shortDigest(tr.TraceDigest), ok)
			if !ok {
				return rejectedError{fmt.Sprintf("%s does not reproduce at tt %d", args[0], tr.AsOfTT)}
			}
			return nil
		},
	}
	verify.Flags().StringVar(&store, "store", "", "store directory")
	cmd.AddCommand(verify, newTraceCheck())
	return cmd
}

func shortDigest(d string) string {
	if len(d) > 16 {
		return d[:16]
	}
	return d
}
