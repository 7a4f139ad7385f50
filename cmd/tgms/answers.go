package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/answers"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/fresh"
)

func newAnswersCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "answers",
		Short: "Saved answers: keep traces by name, check whether later writes may have changed them, refresh them",
		Long: `Saved answers live in the store directory (answers.log: append-only,
checksummed; format in package answers). Each name holds generations: save
writes generation 1, refresh appends the next one, re-run at the current
belief time; nothing edits an earlier generation, and each names the belief
time it was computed at.

list and check open the store read-only (a shared lock), so they run beside
'tgms serve' and other readers; save and refresh append to answers.log and
take the exclusive lock, so no two appends ever run at once.`,
	}
	cmd.AddCommand(newAnswersSave(), newAnswersList(), newAnswersCheck(), newAnswersRefresh())
	for _, c := range cmd.Commands() {
		c.Args = wrapArgs(c.Args)
	}
	return cmd
}

// openAnswers opens the store and reads its saved answers. Commands that
// append to answers.log (save, refresh) take the store's exclusive lock:
// an append writes at the end the command read, so two appenders at once
// must never run; list and check only read, under the shared lock, beside
// a running server or other readers.
func openAnswers(dir string, appends bool) (*tgms.DB, *answers.File, error) {
	open := openReadOnly
	if appends {
		open = openExisting
	}
	db, err := open(dir)
	if err != nil {
		return nil, nil, err
	}
	f, err := answers.Open(dir)
	if err != nil {
		db.Close()
		var ce *answers.CorruptionError
		if errors.As(err, &ce) {
			return nil, nil, inputError{err}
		}
		return nil, nil, err
	}
	return db, f, nil
}

func newAnswersSave() *cobra.Command {
	var store, name string
	cmd := &cobra.Command{
		Use:   "save --store DIR --name NAME TRACE.json",
		Short: "Save a trace's answer under a name (the trace must reproduce on this store)",
		Long: `Verifies the trace first as 'tgms trace verify' does (re-execution at its
recorded belief time, every field compared): a trace that was edited or does
not reproduce on this store is refused (exit 3), naming the fields. A name already saved is
refused too: refresh it instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if name == "" {
				return usageError{errors.New("--name NAME is required")}
			}
			tr, err := readTraceFile(args[0])
			if err != nil {
				return err
			}
			db, f, err := openAnswers(store, true)
			if err != nil {
				return err
			}
			defer db.Close()
			if tr.AsOfTT > db.LastTT() {
				return rejectedError{fmt.Sprintf("%s: its belief time %s is after this store's last batch: it is not a trace of this store", args[0], bt.FormatBoth(tr.AsOfTT))}
			}
			chk, err := evidence.VerifyTrace(cmd.Context(), db, tr)
			if err != nil {
				return badInput("%s: %v", args[0], err)
			}
			if !chk.OK() {
				return rejectedError{fmt.Sprintf("%s does not reproduce on this store at tt %d: %v; save only unedited traces of this store ('tgms trace verify' lists every field that differs)",
					args[0], tr.AsOfTT, chk.Err())}
			}
			// The re-execution is the trace, field for field; it holds every
			// integer exactly even when the file held them as doubles.
			s, err := f.Save(name, chk.Again, time.Now().UnixMicro())
			if err != nil {
				return badInput("%v", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved %q generation %d (belief time %s) in %s\n", s.Name, s.Generation, bt.FormatBoth(s.AsOfTT), f.Path())
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().StringVar(&name, "name", "", "name to save the answer under")
	return cmd
}

func newAnswersList() *cobra.Command {
	var store string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list --store DIR [--json]",
		Short: "List the saved answers with their generations",
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, f, err := openAnswers(store, false)
			if err != nil {
				return err
			}
			defer db.Close()
			w := cmd.OutOrStdout()
			var list []map[string]any
			for _, n := range f.Names() {
				for _, s := range f.Generations(n) {
					if s.Trace == nil {
						if asJSON {
							list = append(list, map[string]any{"name": n, "generation": s.Generation, "as_of_tt": s.AsOfTT, "saved_at": s.SavedAt,
								"trace_digest": s.TraceDigest, "erased": s.Erased})
							continue
						}
						fmt.Fprintf(w, "%-24s gen %-3d as of %s  saved %s  ERASED (sha256 %s)\n", n, s.Generation, bt.FormatBoth(s.AsOfTT), bt.FormatRFC3339(s.SavedAt), s.Erased)
						continue
					}
					if asJSON {
						list = append(list, map[string]any{"name": n, "generation": s.Generation, "as_of_tt": s.AsOfTT, "saved_at": s.SavedAt,
							"trace_digest": s.TraceDigest, "answer": s.Trace.Answer})
						continue
					}
					fmt.Fprintf(w, "%-24s gen %-3d as of %s  saved %s  answer %s\n", n, s.Generation, bt.FormatBoth(s.AsOfTT), bt.FormatRFC3339(s.SavedAt), shortJSON(s.Trace.Answer))
				}
			}
			if asJSON {
				if list == nil {
					list = []map[string]any{}
				}
				return printJSON(w, list)
			}
			if len(list) == 0 && len(f.Names()) == 0 {
				fmt.Fprintln(w, "no saved answers (save one with 'tgms answers save')")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newAnswersCheck() *cobra.Command {
	var store string
	var names []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check --store DIR [--name NAME]... [--json]",
		Short: "Check the newest generation of every saved answer (or the named ones): one line each, exit 1 if any may be stale",
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, f, err := openAnswers(store, false)
			if err != nil {
				return err
			}
			defer db.Close()
			sts, err := answers.Check(db, f, names, fresh.Options{MaxReasons: 1})
			if err != nil {
				return badInput("%v", err)
			}
			w := cmd.OutOrStdout()
			stale := 0
			var list []map[string]any
			for _, st := range sts {
				s, rep := st.Saved, st.Report
				line := "FRESH"
				if !rep.Fresh {
					stale++
					line = "POSSIBLY STALE: " + firstReason(rep)
				}
				if asJSON {
					list = append(list, map[string]any{"name": s.Name, "generation": s.Generation, "as_of_tt": s.AsOfTT, "fresh": rep.Fresh, "report": rep})
					continue
				}
				fmt.Fprintf(w, "%-24s gen %-3d as of %s  %s\n", s.Name, s.Generation, bt.FormatBoth(s.AsOfTT), line)
			}
			if asJSON {
				if list == nil {
					list = []map[string]any{}
				}
				if err := printJSON(w, list); err != nil {
					return err
				}
			}
			if stale > 0 {
				return staleError{fmt.Sprintf("%d of %d saved answers may be stale: 'tgms answers refresh NAME' re-runs one", stale, len(sts))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().StringArrayVar(&names, "name", nil, "check only this answer (repeatable)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// firstReason describes why a report is stale, in one line.
func firstReason(rep *fresh.Report) string {
	for _, s := range rep.Steps {
		if s.Fresh {
			continue
		}
		if len(s.Reason) > 0 {
			r := s.Reason[0]
			more := ""
			if len(s.Reason) > 1 || s.More {
				more = " (and more)"
			}
			return fmt.Sprintf("batch %d at tt %s: %s touched %s; meets step %s (%s)%s", r.Seq, bt.FormatMicros(r.TT), r.Op, r.What, s.StepID, s.Op, more)
		}
		if s.Why != "" {
			return fmt.Sprintf("step %s (%s): %s", s.StepID, s.Op, s.Why)
		}
	}
	return "a step reads a possibly stale step"
}

func newAnswersRefresh() *cobra.Command {
	var store string
	cmd := &cobra.Command{
		Use:   "refresh --store DIR NAME",
		Short: "Re-run a saved answer at the current belief time and save it as the next generation",
		Long: `Re-runs the plan of the answer's newest generation at the store's current
belief time, appends the result as a new generation (earlier generations are
kept as they are) and shows the old and new results side by side.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, f, err := openAnswers(store, true)
			if err != nil {
				return err
			}
			defer db.Close()
			s, r, err := answers.Refresh(cmd.Context(), db, f, args[0], time.Now().UnixMicro())
			if err != nil {
				return badInput("%v", err)
			}
			w := cmd.OutOrStdout()
			printRefresh(w, r)
			fmt.Fprintf(w, "saved %q generation %d (belief time %s)\n", s.Name, s.Generation, bt.FormatBoth(s.AsOfTT))
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	return cmd
}
