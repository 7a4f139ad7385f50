package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/eval"
)

func newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "eval", Short: "Experiments on the contracts"}
	cmd.AddCommand(newEvalFaults(), newEvalAblation())
	return cmd
}

func newEvalFaults() *cobra.Command {
	var store, suitePath, out, split string
	var cfg eval.FaultConfig
	cmd := &cobra.Command{
		Use:   "faults --store DIR --suite SUITE.json --out REPORT.json",
		Short: "Fault injection: mutate correct answers and count what the verifier refuses to certify",
		Long: `Run every oracle plan of a suite at its recorded belief time, keep the
claims the verifier supports as the pool of correct answers (a clean claim it
does not support is a false positive), then inject faults class by class and
count the mutants that are not certified: count ±1 and fabricated
identifiers (classic), an uncited real entity, swapped ordering, seconds
given as microseconds, the wrong belief time, a citation of the wrong step,
a member dropped from a complete set, and controlled counts of truncated
pages with completeness tracking on and off. Deterministic; no model.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if suitePath == "" || out == "" {
				return usageError{errors.New("--suite and --out are required")}
			}
			f, err := os.Open(suitePath)
			if err != nil {
				return asInput(err)
			}
			suite, err := eval.ReadSuite(f, suitePath)
			f.Close()
			if err != nil {
				return inputError{err}
			}
			db, err := openExisting(store)
			if err != nil {
				return err
			}
			defer db.Close()
			tasks, err := suite.Tasks(split)
			if err != nil {
				return badInput("%v", err)
			}
			rep, err := eval.Faults(cmd.Context(), db, tasks, cfg)
			if err != nil {
				return err
			}
			b, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "pool: %d supported claims from %s\n", rep.Pool, suitePath)
			fmt.Fprintf(w, "%-30s %8s %9s %16s\n", "class", "mutants", "detected", "false_positives")
			for _, r := range rep.Rows {
				fmt.Fprintf(w, "%-30s %8d %9d %16d\n", r.Class, r.Mutants, r.Detected, r.FalsePositives)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "the store the suite was generated on")
	f.StringVar(&suitePath, "suite", "", "suite from 'tgms tasks'")
	f.StringVar(&out, "out", "", "write the report (JSON) here")
	f.StringVar(&split, "split", "all", "tasks to use: dev, test or all")
	f.IntVar(&cfg.Classic, "classic", 250, "mutants per classic class")
	f.IntVar(&cfg.Extended, "extended", 100, "mutants per extended class")
	f.IntVar(&cfg.Truncated, "truncated", 15, "truncated-count cases")
	return cmd
}

func newEvalAblation() *cobra.Command {
	var store, suitePath, split, out string
	cmd := &cobra.Command{
		Use:   "contract-ablation --store DIR --suite SUITE.json [--out REPORT.json]",
		Short: "Inject realistic planner errors into oracle plans and run them with the plan contract on and off",
		Long: `Mutate every oracle plan of a suite with realistic planner errors (a result
field under a wrong name such as s2.count, a fabricated uid, an inverted
window, seconds given as microseconds, a missing depends_on, an argument of
the wrong type) and run each twice: through the plan contract, counting
rejections before execution and those whose violation names the fix; and with
the contract off, counting runtime errors, silently wrong answers and
harmless changes.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if suitePath == "" {
				return usageError{errors.New("--suite is required")}
			}
			f, err := os.Open(suitePath)
			if err != nil {
				return asInput(err)
			}
			suite, err := eval.ReadSuite(f, suitePath)
			f.Close()
			if err != nil {
				return inputError{err}
			}
			tasks, err := suite.Tasks(split)
			if err != nil {
				return badInput("%v", err)
			}
			db, err := openExisting(store)
			if err != nil {
				return err
			}
			defer db.Close()
			rows, err := eval.ContractAblation(cmd.Context(), db, tasks)
			if err != nil {
				return err
			}
			if out != "" {
				b, _ := json.MarshalIndent(rows, "", "  ")
				if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
					return err
				}
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%-24s %5s | %8s %9s %7s %6s %7s | %7s %6s %7s\n", "class", "cases", "rejected", "with-hint", "runtime", "wrong", "correct", "runtime", "wrong", "correct")
			fmt.Fprintf(w, "%-24s %5s | %-41s | %s\n", "", "", "contract on", "contract off")
			for _, r := range rows {
				fmt.Fprintf(w, "%-24s %5d | %8d %9d %7d %6d %7d | %7d %6d %7d\n", r.Class, r.Cases,
					r.On.Rejected, r.On.RejectedWithHint, r.On.RuntimeError, r.On.SilentlyWrong, r.On.Correct,
					r.Off.RuntimeError, r.Off.SilentlyWrong, r.Off.Correct)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "the store the suite was generated on")
	f.StringVar(&suitePath, "suite", "", "suite from 'tgms tasks'")
	f.StringVar(&split, "split", "all", "tasks to use: dev, test or all")
	f.StringVar(&out, "out", "", "also write the table as JSON here")
	return cmd
}
