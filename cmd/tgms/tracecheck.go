package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"
)

// staleError is a freshness check that found possibly stale answers: exit 1.
type staleError struct{ msg string }

func (e staleError) Error() string { return e.msg }

func newTraceCheck() *cobra.Command {
	var store string
	var refresh, asJSON bool
	cmd := &cobra.Command{
		Use:   "check --store DIR TRACE.json [--refresh] [--json]",
		Short: "Say whether anything written since a trace's belief time could change its answer (exit 0 fresh, 1 possibly stale)",
		Long: `Compares every batch the store wrote after the trace's belief time with the
dependency scope of each step (the uids, edges, rel types and valid-time
intervals its result depends on, recorded in the trace). FRESH means nothing
written since could change the answer. POSSIBLY STALE lists each reason: the
batch (transaction time), the write op, the entity and valid-time interval it
touched, and the step whose scope it meets; a step that reads a stale step is
stale too. The check never calls an answer fresh when a write could change it;
it may flag one that a re-run would leave unchanged (--refresh tells).

--refresh re-runs the plan at the current belief time and shows the old and
new results side by side, and whether the answer actually changed. It changes
nothing in the store: the store is opened read-only (a shared lock), so the
check runs beside 'tgms serve' and other readers.

Exit codes: 0 fresh, 1 possibly stale, 2 bad input.`,
		Args: wrapArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			tr, err := readTraceFile(args[0])
			if err != nil {
				return err
			}
			db, err := openReadOnly(store) // a shared lock: beside a server or other readers
			if err != nil {
				return err
			}
			defer db.Close()
			if tr.AsOfTT > db.LastTT() {
				return badInput("%s: its belief time %s is after this store's last batch (%s): is it a trace of another store?", args[0], bt.FormatBoth(tr.AsOfTT), bt.FormatBoth(db.LastTT()))
			}
			rep, err := fresh.Check(db, tr, fresh.Options{})
			if err != nil {
				return err
			}
			var ref *fresh.Refreshed
			if refresh {
				if ref, err = fresh.Refresh(cmd.Context(), db, tr); err != nil {
					return badInput("%s: %v", args[0], err)
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				out := map[string]any{"report": rep}
				if ref != nil {
					out["refresh"] = map[string]any{"changed": ref.Changed, "answer_changed": ref.AnswerChanged, "steps": ref.Steps,
						"old_answer": ref.Old.Answer, "new_answer": ref.New.Answer, "new_as_of_tt": ref.New.AsOfTT}
				}
				if err := printJSON(w, out); err != nil {
					return err
				}
			} else {
				printReport(w, args[0], rep)
				if ref != nil {
					printRefresh(w, ref)
				}
			}
			if !rep.Fresh {
				return staleError{fmt.Sprintf("%s may be stale: %d of %d steps", args[0], staleSteps(rep), len(rep.Steps))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().BoolVar(&refresh, "refresh", false, "also re-run the plan at the current belief time and compare")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func readTraceFile(path string) (*exec.Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, asInput(err)
	}
	tr, err := exec.ReadTrace(data)
	if err != nil {
		return nil, badInput("%s: %v", path, err)
	}
	if len(tr.Steps) == 0 || tr.Plan == nil {
		return nil, badInput("%s: the trace has no steps or no plan: write one with 'tgms plan run --trace'", path)
	}
	return tr, nil
}

func staleSteps(rep *fresh.Report) int {
	n := 0
	for _, s := range rep.Steps {
		if !s.Fresh {
			n++
		}
	}
	return n
}

func printReport(w io.Writer, name string, rep *fresh.Report) {
	noun := "batches"
	if rep.Batches == 1 {
		noun = "batch"
	}
	fmt.Fprintf(w, "%s: belief time %s; %d %s written since", name, bt.FormatBoth(rep.AsOfTT), rep.Batches, noun)
	if rep.Batches > 0 {
		fmt.Fprintf(w, " (up to %s)", bt.FormatBoth(rep.CheckedTT))
	}
	fmt.Fprintln(w)
	for _, s := range rep.Steps {
		verdict := "FRESH"
		if !s.Fresh {
			verdict = "POSSIBLY STALE"
		}
		fmt.Fprintf(w, "  %-4s %-30s %s\n", s.StepID, s.Op, verdict)
		if s.Why != "" && !s.Fresh {
			fmt.Fprintf(w, "       note: %s\n", s.Why)
		}
		for _, r := range s.Reason {
			fmt.Fprintf(w, "       batch %d at tt %s: %s touched %s; meets the scope of %s\n", r.Seq, bt.FormatBoth(r.TT), r.Op, r.What, r.Step)
		}
		if s.More {
			fmt.Fprintf(w, "       ... and more batches meet it\n")
		}
		if len(s.Inputs) > 0 {
			fmt.Fprintf(w, "       reads possibly stale step(s) %s\n", strings.Join(s.Inputs, ", "))
		}
	}
	if rep.Fresh {
		fmt.Fprintln(w, "FRESH: nothing written since could change this answer")
	} else {
		fmt.Fprintf(w, "POSSIBLY STALE: %d of %d steps may have changed (run with --refresh to re-run and compare)\n", staleSteps(rep), len(rep.Steps))
	}
}

func printRefresh(w io.Writer, r *fresh.Refreshed) {
	fmt.Fprintf(w, "refresh at belief time %s:\n", bt.FormatBoth(r.New.AsOfTT))
	for _, s := range r.Steps {
		mark := "unchanged"
		if s.Changed {
			mark = "CHANGED"
		}
		fmt.Fprintf(w, "  %-4s %-30s %-9s old %s %s  new %s %s\n", s.StepID, s.Op, mark, s.OldStatus, shortDigest(s.OldDigest), s.NewStatus, shortDigest(s.NewDigest))
	}
	fmt.Fprintf(w, "  old answer: %s\n  new answer: %s\n", shortJSON(r.Old.Answer), shortJSON(r.New.Answer))
	if r.AnswerChanged {
		fmt.Fprintln(w, "the answer CHANGED")
	} else {
		fmt.Fprintln(w, "the answer is unchanged")
	}
}

// shortJSON renders a value as canonical JSON, cut to 200 characters.
func shortJSON(v any) string {
	b, err := canon.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
