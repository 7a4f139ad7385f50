package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/eval"
)

func newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "eval", Short: "Experiments on the contracts"}
	cmd.AddCommand(newEvalRun(), newEvalFaults(), newEvalAblation())
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
count the distinct mutants that are not certified: count ±1 and fabricated
identifiers (classic), an uncited real entity, swapped ordering, a time in
seconds or milliseconds instead of microseconds, the value another belief
time holds (a correction probe's before and now), a citation of another
step holding a different value, a citation of a path the other step does
not have, a member dropped from a complete set, and the page cases (a
count of a truncated page, a complete set claimed over a page) with
completeness tracking on and off.

Per class the table shows the base claims and distinct mutants, how many
were detected and with which verdict (unsupported, unverifiable, weakly
supported), and the clean claims of the class with the false positives
among them (clean claims the verifier did not support). Deterministic; no
model.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if suitePath == "" || out == "" {
				return usageError{errors.New("--suite and --out are required")}
			}
			db, tasks, release, err := openSuite(cmd, store, suitePath, split)
			if err != nil {
				return err
			}
			defer release()
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
			printFaults(w, rep, suitePath)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "the store the suite was generated on (or its --probe-store copy)")
	f.StringVar(&suitePath, "suite", "", "suite from 'tgms tasks'")
	f.StringVar(&out, "out", "", "write the report (JSON) here")
	f.StringVar(&split, "split", "all", "tasks to use: dev, test or all")
	f.IntVar(&cfg.Classic, "classic", 250, "distinct mutants wanted per classic class")
	f.IntVar(&cfg.Extended, "extended", 100, "distinct mutants wanted per extended class")
	f.IntVar(&cfg.Truncated, "truncated", 15, "page cases (truncated counts, complete sets over a page)")
	return cmd
}

// printFaults prints the fault-injection table: per class the base claims
// and distinct mutants, detections split by verdict, and the clean claims
// of the class with the false positives among them.
func printFaults(w io.Writer, rep *eval.FaultReport, suitePath string) {
	fmt.Fprintf(w, "clean claims: %d from %s, %d supported (the pool)\n", rep.Clean, suitePath, rep.Pool)
	fmt.Fprintf(w, "%-34s %5s %7s %9s %6s | %11s %12s %9s | %5s %4s\n",
		"class", "base", "mutants", "detected", "rate", "unsupported", "unverifiable", "weakly", "clean", "fp")
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "%-34s %5d %7d %9d %5.1f%% | %11d %12d %9d | %5d %4d\n",
			r.Class, r.Base, r.Mutants, r.Detected, 100*r.DetectionRate(), r.Unsupported, r.Unverifiable, r.WeaklySupported, r.Clean, r.FalsePositives)
	}
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
			db, tasks, release, err := openSuite(cmd, store, suitePath, split)
			if err != nil {
				return err
			}
			defer release()
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
	f.StringVar(&store, "store", "", "the store the suite was generated on (or its --probe-store copy)")
	f.StringVar(&suitePath, "suite", "", "suite from 'tgms tasks'")
	f.StringVar(&split, "split", "all", "tasks to use: dev, test or all")
	f.StringVar(&out, "out", "", "also write the table as JSON here")
	return cmd
}

// runRecord is one line of the answers file 'tgms eval run' writes.
type runRecord struct {
	ID                string `json:"id"`
	Answer            any    `json:"answer"`     // the certified answer (the raw one with --gating off)
	RawAnswer         any    `json:"raw_answer"` // what the executor computed
	Emitted           bool   `json:"emitted"`
	UnsupportedBefore int    `json:"unsupported_claims_before_gating"`
	UnsupportedAfter  int    `json:"unsupported_claims_after_gating"`
	Repairs           int    `json:"repairs"`
	Refusal           string `json:"refusal,omitempty"`
	TraceDigest       string `json:"trace_digest,omitempty"`
}

func newEvalRun() *cobra.Command {
	var store, suitePath, split, out, plannerName, model, apiBase, apiKey, gating string
	cmd := &cobra.Command{
		Use:   "run --store DIR --suite SUITE.json [--split test] [--planner rule|llm] [--gating on|off] --out ANSWERS.jsonl",
		Short: "Ask every question of a suite through the agent and write the answers",
		Long: `Ask each task's question through the full pipeline (planner, plan contract,
repair loop, executor, reporter, evidence gate), pinned at the belief time
the suite's gold was computed at, and write one JSON line per task: the
certified answer (null when nothing survived the gate), the raw answer, and
the unsupported claims before and after gating. Prints answers emitted,
answers with an unsupported claim before and after gating, and accuracy and
coverage per family. Score two runs against each other with 'tgms score'.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if suitePath == "" || out == "" {
				return usageError{errors.New("--suite and --out are required")}
			}
			if gating != "on" && gating != "off" {
				return usageError{fmt.Errorf("--gating must be on or off, got %q", gating)}
			}
			newPlanner, reporter, err := plannerFactory(plannerName, model, apiBase, apiKey)
			if err != nil {
				return err
			}
			db, tasks, release, err := openSuite(cmd, store, suitePath, split)
			if err != nil {
				return err
			}
			defer release()
			of, err := os.Create(out)
			if err != nil {
				return err
			}
			defer of.Close()
			enc := json.NewEncoder(of)
			answers := eval.Answers{}
			emitted, unsBefore, unsAfter := 0, 0, 0
			for _, t := range tasks {
				res, err := agent.Ask(cmd.Context(), db, agent.Question{Text: t.QuestionText, UIDs: t.InputUIDs},
					agent.Options{Planner: newPlanner(), Reporter: reporter, Ungated: gating == "off", AsOf: t.AsOfTT})
				if err != nil {
					return err
				}
				rec := runRecord{ID: t.ID, Answer: res.Value, Repairs: res.Repairs(), Refusal: res.Refusal, TraceDigest: res.TraceDigest}
				if res.Trace != nil {
					rec.RawAnswer = res.Trace.Answer
				}
				if res.Certified != nil {
					rec.UnsupportedBefore = res.Certified.Metrics.Unsupported
					if gating == "off" {
						rec.UnsupportedAfter = rec.UnsupportedBefore
					}
				}
				rec.Emitted = rec.Answer != nil
				if rec.Emitted {
					emitted++
					if rec.UnsupportedBefore > 0 {
						unsBefore++
					}
					if rec.UnsupportedAfter > 0 {
						unsAfter++
					}
				}
				answers[t.ID] = rec.Answer
				if err := enc.Encode(rec); err != nil {
					return err
				}
			}
			sc := eval.Score(tasks, answers)
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%d questions, %d answers emitted; emitted answers with an unsupported claim: %d before gating, %d after\n", len(tasks), emitted, unsBefore, unsAfter)
			fmt.Fprintf(w, "%-8s %5s %9s %9s\n", "family", "n", "accuracy", "coverage")
			for _, fam := range sc.Families {
				fmt.Fprintf(w, "%-8s %5d %9.3f %9.3f\n", fam.Family, fam.N, fam.Accuracy, fam.Coverage)
			}
			fmt.Fprintf(w, "%-8s %5d %9.3f %9.3f\n", "all", sc.Overall.N, sc.Overall.Accuracy, sc.Overall.Coverage)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "the store the suite was generated on (or its --probe-store copy)")
	f.StringVar(&suitePath, "suite", "", "suite from 'tgms tasks'")
	f.StringVar(&split, "split", "test", "tasks to ask: dev, test or all")
	f.StringVar(&out, "out", "", "write the answers (JSONL) here")
	f.StringVar(&plannerName, "planner", "rule", "rule (no model) or llm")
	f.StringVar(&model, "model", "", "model name (llm planner)")
	f.StringVar(&apiBase, "api-base", "", "OpenAI-compatible base URL (llm planner)")
	f.StringVar(&apiKey, "api-key", "", "API key (llm planner; default from the environment)")
	f.StringVar(&gating, "gating", "on", "on: only certified answers; off: the raw answer (ablation)")
	return cmd
}

// openSuite reads a suite's tasks of one split and opens the store its
// gold was computed on (see suiteStore); release closes it.
func openSuite(cmd *cobra.Command, store, suitePath, split string) (*tgms.DB, []eval.Task, func(), error) {
	suite, err := readSuiteFile(suitePath)
	if err != nil {
		return nil, nil, nil, err
	}
	tasks, err := suite.Tasks(split)
	if err != nil {
		return nil, nil, nil, badInput("%v", err)
	}
	db, release, err := suiteStore(cmd.Context(), store, suite, suitePath, cmd.ErrOrStderr())
	if err != nil {
		return nil, nil, nil, err
	}
	return db, tasks, release, nil
}

func readSuiteFile(path string) (*eval.Suite, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, asInput(err)
	}
	defer f.Close()
	suite, err := eval.ReadSuite(f, path)
	if err != nil {
		return nil, inputError{err}
	}
	return suite, nil
}
