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
	cmd.AddCommand(newEvalFaults())
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
