package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/eval"
)

func newTasks() *cobra.Command {
	var store, dataset, out, sizes, manifestPath, oracleOut, reportOut, probeStore string
	var seed uint64
	cmd := &cobra.Command{
		Use:   "tasks --store DIR --dataset NAME --seed S --out SUITE.json",
		Short: "Generate a task suite with engine-computed gold (and correction probes)",
		Long: `Generate a task suite from a store: single-operator (t1), multi-step (t3) and
compositional (t4) questions whose gold answers come from running validated
oracle plans, correction probes asked as of just before and after injected
corrections, and, with --manifest from 'tgms synth', planted-pattern
questions (t2) whose gold is the manifest. Tasks are split 20/80 into dev
and test per family; the suite is written as canonical JSON with the SHA-256
of its test list.

The store given with --store is never written. The correction probes are
written into a private copy of it (its log replayed into a temporary
directory, removed afterwards; --probe-store DIR keeps the copy there), and
the suite records the store's digest, the probes and the copy's digest. The probes are
written one second of transaction time apart after the store's last batch
(not at the clock's time), so the same store and seed give a
byte-identical suite.
'tgms eval run/faults/contract-ablation --store DIR' accept either the
original store (they rebuild the copy, checking the digest) or the copy.
Probes a store already holds (from earlier versions, which wrote them into
the store) are reused, not written again.

--sizes sets the tasks wanted per family: t1=60,t3=24,t4=16,probes=8 (the
default; probes are before/now pairs).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dataset == "" || out == "" {
				return usageError{errors.New("--dataset NAME and --out SUITE.json are required")}
			}
			sz, err := parseSizes(sizes)
			if err != nil {
				return usageError{err}
			}
			cfg := eval.GenConfig{Dataset: dataset, Seed: seed, Sizes: sz}
			if manifestPath != "" {
				m, err := readManifest(manifestPath)
				if err != nil {
					return err
				}
				cfg.Manifest = m
			}
			src, err := openExisting(store)
			if err != nil {
				return err
			}
			defer closeDB(src, cmd.ErrOrStderr())
			basis := &eval.Basis{BaseDigest: src.Digest()}
			var suite *eval.Suite
			generate := func(db *tgms.DB) error {
				var err error
				if suite, err = eval.Generate(cmd.Context(), db, cfg); err != nil {
					return err
				}
				basis.Digest = db.Digest()
				if !suite.Report.ProbesReused {
					basis.Probes = suite.Report.Probes
				}
				suite.Basis = basis
				return nil
			}
			if probeStore != "" {
				err = buildStore(cmd.Context(), probeStore, true, cmd.ErrOrStderr(), func(db *tgms.DB) error {
					var done committed
					if err := replayLog(cmd.Context(), filepath.Join(store, tgms.LogFile), db, &done); err != nil {
						return err
					}
					return generate(db)
				})
			} else {
				var cp *storeCopy
				if cp, err = copyStore(cmd.Context(), src, cmd.ErrOrStderr()); err != nil {
					return err
				}
				err = generate(cp.db)
				cp.done()
			}
			if err != nil {
				return err
			}
			data, err := suite.MarshalCanonical()
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
				return err
			}
			if oracleOut != "" {
				all, _ := suite.Tasks("all")
				if err := writeAnswersFile(oracleOut, all, eval.GoldAnswers(all)); err != nil {
					return err
				}
			}
			if reportOut != "" {
				f, err := os.Create(reportOut)
				if err != nil {
					return err
				}
				if err := printJSON(f, suite.Report); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
			}
			printSuiteSummary(cmd.OutOrStdout(), suite, out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "store directory (read only: the probes go into a copy)")
	f.StringVar(&probeStore, "probe-store", "", "keep the copy of the store with the correction probes here (a new directory)")
	f.StringVar(&dataset, "dataset", "", "dataset name, used in task ids (collegemsg, email-eu, synth, ...)")
	f.Uint64Var(&seed, "seed", 0, "random seed")
	f.StringVar(&out, "out", "", "write the suite here (canonical JSON)")
	f.StringVar(&sizes, "sizes", "", "tasks per family, e.g. t1=60,t3=24,t4=16,probes=8")
	f.StringVar(&manifestPath, "manifest", "", "manifest of a synthetic store ('tgms synth --manifest'): adds planted-pattern tasks")
	f.StringVar(&oracleOut, "oracle-answers", "", "also write every task's gold as an answers file (JSONL)")
	f.StringVar(&reportOut, "report", "", "also write the generation report (probes, attempts, skips, timings) as JSON")
	f.MarkHidden("oracle-answers")
	return cmd
}

func parseSizes(s string) (eval.Sizes, error) {
	sz := eval.DefaultSizes
	if strings.TrimSpace(s) == "" {
		return sz, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n < 0 {
			return sz, fmt.Errorf("--sizes: %q is not NAME=COUNT (names t1, t3, t4, probes; counts >= 0)", part)
		}
		switch strings.TrimSpace(k) {
		case "t1":
			sz.T1 = n
		case "t3":
			sz.T3 = n
		case "t4":
			sz.T4 = n
		case "probes":
			sz.Probes = n
		default:
			return sz, fmt.Errorf("--sizes: unknown family %q (use t1, t3, t4, probes)", k)
		}
	}
	if sz == (eval.Sizes{}) {
		return sz, errors.New("--sizes: every count is 0; nothing to generate")
	}
	return sz, nil
}

func readManifest(path string) (*datasets.Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput("manifest: %v", err)
	}
	defer f.Close()
	var m datasets.Manifest
	dec := json.NewDecoder(f)
	if err := dec.Decode(&m); err != nil {
		return nil, badInput("manifest %s: %v", path, err)
	}
	if m.Format != "tgms-synth" {
		return nil, badInput("manifest %s: format %q is not a tgms-synth manifest", path, m.Format)
	}
	return &m, nil
}

func writeAnswersFile(path string, tasks []eval.Task, answers eval.Answers) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := eval.WriteAnswers(f, tasks, answers); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printSuiteSummary(w io.Writer, s *eval.Suite, out string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "family\tdev\ttest\ttotal\t")
	for _, c := range s.FamilyCounts() {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", c.Family, c.Dev, c.Test, c.Dev+c.Test)
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%d\t\n", len(s.Dev), len(s.Test), len(s.Dev)+len(s.Test))
	tw.Flush()
	if r := s.Report; r != nil {
		verb := "injected"
		if r.ProbesReused {
			verb = "reused"
		}
		where := "written into a copy of the store; the store itself is unchanged"
		if r.ProbesReused {
			where = "already in the store"
		}
		fmt.Fprintf(w, "correction probes: %d %s (%s); gold pinned at tt %d\n", len(r.Probes), verb, where, r.AsOfTT)
		var names []string
		for n := range r.Skipped {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			var parts []string
			var reasons []string
			for reason := range r.Skipped[n] {
				reasons = append(reasons, reason)
			}
			sort.Strings(reasons)
			for _, reason := range reasons {
				parts = append(parts, fmt.Sprintf("%d %s", r.Skipped[n][reason], reason))
			}
			fmt.Fprintf(w, "skipped %s: %s (of %d attempts)\n", n, strings.Join(parts, ", "), r.Attempts[n])
		}
	}
	fmt.Fprintf(w, "suite %s: dataset %s, seed %d, %d dev / %d test, test_split_sha %s\n", out, s.Dataset, s.Seed, len(s.Dev), len(s.Test), s.TestSplitSHA)
}

func newScore() *cobra.Command {
	var suitePath, answersPath, vsPath, split string
	var asJSON bool
	var seed uint64
	cmd := &cobra.Command{
		Use:   "score --suite SUITE.json --answers ANSWERS.jsonl [--vs OTHER.jsonl]",
		Short: "Score answers against a task suite (accuracy, coverage, per family, paired bootstrap)",
		Long: `Score a system's answers (JSONL: {"id": TASK_ID, "answer": VALUE or null} per
line) against a suite's gold by answer kind: counts and integers exactly, floats
within 1e-9 relative, entity sets as sets of uids, intervals by IoU >= 0.5.
Coverage is the share of tasks with a non-null answer. With --vs, the second
system is scored too and a paired bootstrap (10,000 resamples, seeded) gives
a 95% confidence interval of the accuracy difference (answers − vs).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if suitePath == "" || answersPath == "" {
				return usageError{errors.New("--suite SUITE.json and --answers ANSWERS.jsonl are required")}
			}
			f, err := os.Open(suitePath)
			if err != nil {
				return badInput("suite: %v", err)
			}
			suite, err := eval.ReadSuite(f, suitePath)
			f.Close()
			if err != nil {
				return inputError{err}
			}
			tasks, err := suite.Tasks(split)
			if err != nil {
				return usageError{err}
			}
			a, err := readAnswersFile(answersPath)
			if err != nil {
				return err
			}
			sa := eval.Score(tasks, a)
			type result struct {
				Suite   string       `json:"suite"`
				Split   string       `json:"split"`
				Answers string       `json:"answers"`
				Scores  *eval.Scores `json:"scores"`
				Vs      string       `json:"vs,omitempty"`
				VsScore *eval.Scores `json:"vs_scores,omitempty"`
				Diff    *eval.CI     `json:"paired_bootstrap,omitempty"`
			}
			res := result{Suite: suitePath, Split: split, Answers: answersPath, Scores: sa}
			if vsPath != "" {
				b, err := readAnswersFile(vsPath)
				if err != nil {
					return err
				}
				sb := eval.Score(tasks, b)
				ci, err := eval.PairedBootstrap(sa.Correctness(), sb.Correctness(), eval.DefaultResamples, seed)
				if err != nil {
					return err
				}
				res.Vs, res.VsScore, res.Diff = vsPath, sb, &ci
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return printJSON(w, res)
			}
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			header := "family\tn\taccuracy\tcoverage\t"
			if res.VsScore != nil {
				header += "vs accuracy\tvs coverage\t"
			}
			fmt.Fprintln(tw, header)
			row := func(name string, t eval.Tally, vt *eval.Tally) {
				line := fmt.Sprintf("%s\t%d\t%.3f\t%.3f\t", name, t.N, t.Accuracy, t.Coverage)
				if vt != nil {
					line += fmt.Sprintf("%.3f\t%.3f\t", vt.Accuracy, vt.Coverage)
				}
				fmt.Fprintln(tw, line)
			}
			for i, ft := range sa.Families {
				var vt *eval.Tally
				if res.VsScore != nil {
					vt = &res.VsScore.Families[i].Tally
				}
				row(ft.Family, ft.Tally, vt)
			}
			var vt *eval.Tally
			if res.VsScore != nil {
				vt = &res.VsScore.Overall
			}
			row("all", sa.Overall, vt)
			tw.Flush()
			if sa.Unknown > 0 {
				fmt.Fprintf(w, "%d answers name no task of the %s split (ignored)\n", sa.Unknown, split)
			}
			if ci := res.Diff; ci != nil {
				sig := "not significant"
				if ci.Significant {
					sig = "significant"
				}
				fmt.Fprintf(w, "accuracy difference %+.3f, 95%% CI [%+.3f, %+.3f] (paired bootstrap, %d tasks, %d resamples, seed %d): %s\n",
					ci.Diff, ci.Low, ci.High, ci.NTasks, ci.NResamples, ci.Seed, sig)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&suitePath, "suite", "", "suite file ('tgms tasks --out')")
	f.StringVar(&answersPath, "answers", "", "answers file (JSONL)")
	f.StringVar(&vsPath, "vs", "", "a second system's answers to compare with (paired bootstrap)")
	f.StringVar(&split, "split", "test", "which tasks to score: test, dev or all")
	f.Uint64Var(&seed, "seed", 0, "bootstrap seed")
	f.BoolVar(&asJSON, "json", false, "print JSON (per-task outcomes included)")
	return cmd
}

func readAnswersFile(path string) (eval.Answers, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput("answers: %v", err)
	}
	defer f.Close()
	a, err := eval.ReadAnswers(f, path)
	if err != nil {
		return nil, inputError{err}
	}
	return a, nil
}
