package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/agent/reader"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/llm"
)

func newAsk() *cobra.Command {
	var store, plannerName, model, apiBase, apiKey, uids, htmlPath string
	var asJSON bool
	var maxRepairs int
	cmd := &cobra.Command{
		Use:   `ask --store DIR "QUESTION" [--planner rule|llm] [--model M --api-base URL] [--uids a,b] [--json] [--html FILE]`,
		Short: "Ask a question: read, plan, check, run, verify; print the certified answer",
		Long: `Ask a question of a store. A planner writes a plan (the built-in reader,
no model needed, or an LLM over any OpenAI-compatible endpoint); the
plan contract admits it or sends structured violations back for repair (at
most --max-repairs repairs); the executor runs it pinned at the store's
current belief time; the deterministic reporter states the answer as typed
claims; and the evidence gate lets through only the claims the trace
supports. Withheld claims are listed with their reasons.

The built-in reader (--planner rule) parses the question into an intent and
typed slots, independent of word order, and says how it read it on the first
line ("Read as: …"). It answers only a question it read completely; otherwise
it refuses (exit 2), names what was missing or unreadable, and suggests
question forms filled in with your own nodes and times.

Node uids written in the question are the task's input uids unless --uids
gives them; a "quoted name" (or "named X") is resolved with resolve_entities,
and a name that matches no node or several is refused.

Question shapes the reader knows (one example each; {x} {y} nodes, {W} a
window, {t} {t1} {t2} instants, {D} a duration, {k} a count):
` + intentHelp() + `
Times: raw microseconds; RFC 3339 (2004-05-03T12:00:00Z, +02:00 offsets);
2004-05-03 and 2004-05-03 12:00 UTC; 2004/05/03; May 3, 2004, 3 May 2004,
the 3rd of May 2004; noon UTC on May 3, 2004, May 3, 2004 at 15:30 UTC, 3pm;
months (May 2004, in June: the year is taken from the store when only one
fits), weeks (the first week of June 2004, the week of May 3, 2004,
2004-W23), quarters (Q3 2004, the third quarter of 2004), years (in 2004).
A date followed by "(µs)" is that exact instant.
Windows: from A to B, between A and B, A .. B (end exclusive); A through B,
A to B inclusive (end of B's day/month); since A; until B; during/in P; on D;
N days starting A; no window = the whole store.
Durations exactly as written: weekly, daily, 10-day buckets, in buckets of
3 days, within 2 hours, δ = 90 minutes, 4.3 days (371520000000 µs).
Belief time: as of transaction time T, as of belief time T, as the store
believed on D (end of that day), before the correction at T (T − 1 µs);
now / currently / under current belief (the default).

--json prints one object: reading (intent, summary, nodes and what names
resolved to, window {t_a, t_b} with t_a inclusive and t_b exclusive,
instants, bucket, delta, belief), answer.value is the certified typed answer (a
number, a uid, a list of uids or an interval {t_a, t_b}; null when nothing
survived the gate), with the claims and their verdicts, withheld claims,
attempts and repairs, and the trace digest. --html writes a self-contained
report.

Exit codes: 0 answered (even when the gate withheld everything), 2 an
unsupported question or bad input, 3 no admitted plan within the repair
budget.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			newPlanner, reporter, err := plannerFactory(plannerName, model, apiBase, apiKey)
			if err != nil {
				return err
			}
			planner := newPlanner()
			if maxRepairs == 0 {
				maxRepairs = -1 // --max-repairs 0 means none (0 in Options is the default)
			}
			res, err := askOne(cmd.Context(), db, args[0], uids, agent.Options{Planner: planner, Reporter: reporter, MaxRepairs: maxRepairs})
			if err != nil {
				return err
			}
			if htmlPath != "" {
				if err := writeHTMLFile(htmlPath, res); err != nil {
					return err
				}
			}
			if asJSON {
				if err := printJSON(out, askJSON(res)); err != nil {
					return err
				}
			} else {
				printAsk(out, res)
				if htmlPath != "" {
					fmt.Fprintf(out, "report: %s\n", htmlPath)
				}
			}
			return askError(res)
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().StringVar(&plannerName, "planner", "rule", "planner: rule (built in, no model) or llm")
	cmd.Flags().StringVar(&model, "model", "", "model name for --planner llm (default $"+llm.EnvModel+")")
	cmd.Flags().StringVar(&apiBase, "api-base", "", "OpenAI-compatible API root for --planner llm, e.g. http://localhost:8000/v1 (default $"+llm.EnvBaseURL+")")
	cmd.Flags().StringVar(&apiKey, "api-key", "", "API key for --planner llm (default $"+llm.EnvAPIKey+")")
	cmd.Flags().StringVar(&uids, "uids", "", "comma-separated node uids the question supplies (default: the uids written in the question)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().StringVar(&htmlPath, "html", "", "write a self-contained HTML report to FILE")
	cmd.Flags().IntVar(&maxRepairs, "max-repairs", agent.DefaultMaxRepairs, "repair budget (plan emissions = repairs + 1)")
	return cmd
}

// askOne runs one question.
func askOne(ctx context.Context, db *tgms.DB, text, uids string, opt agent.Options) (*agent.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if strings.TrimSpace(text) == "" {
		return nil, badInput("the question is empty")
	}
	q := agent.Question{Text: text, UIDs: splitUIDs(uids), Card: agent.CardFor(db)}
	if uids == "" {
		q.UIDs = agent.MentionedUIDs(db, text)
	}
	return agent.Ask(ctx, db, q, opt)
}

// askError maps a refusal to the exit status.
func askError(res *agent.Result) error {
	if res.Refusal == "" {
		return nil
	}
	if errors.Is(res.Err, agent.ErrUnsupported) {
		return badInput("%s", res.Refusal)
	}
	return rejectedError{msg: res.Refusal}
}

func writeHTMLFile(path string, res *agent.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return asInput(err)
	}
	if err := agent.WriteHTML(f, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// askJSON is the --json object.
func askJSON(res *agent.Result) map[string]any {
	claims, withheld := []evidence.Result{}, []evidence.Result{}
	text := ""
	if res.Certified != nil {
		claims, withheld, text = res.Certified.Claims, res.Certified.Withheld, res.Certified.Text
	}
	m := map[string]any{
		"question":     res.Question.Text,
		"uids":         res.Question.UIDs,
		"answer":       map[string]any{"value": res.Value, "kind": res.Kind, "text": text},
		"claims":       claims,
		"withheld":     withheld,
		"attempts":     res.Attempts,
		"repairs":      res.Repairs(),
		"trace_digest": res.TraceDigest,
	}
	if res.Trace != nil {
		m["as_of_tt"] = res.Trace.AsOfTT
		m["plan"] = res.Trace.Plan
		m["trace_ok"] = res.Trace.OK
	}
	if res.Reading != nil {
		m["reading"] = res.Reading
	}
	if res.Refusal != "" {
		m["refusal"] = res.Refusal
		m["suggestions"] = res.Suggestions
	}
	return m
}

// intentHelp lists the reader's question shapes for --help.
func intentHelp() string {
	var b strings.Builder
	for _, in := range reader.Intents() {
		fmt.Fprintf(&b, "  %-23s %s\n", in[0], in[1])
	}
	return b.String()
}

// printAsk prints a result for a person.
func printAsk(out io.Writer, res *agent.Result) {
	if res.Reading != nil {
		fmt.Fprintln(out, res.Reading.Line())
	}
	fmt.Fprintf(out, "question: %s\n", res.Question.Text)
	for _, a := range res.Attempts {
		switch {
		case !a.Admitted:
			codes := make([]string, 0, len(a.Violations))
			for _, v := range a.Violations {
				codes = append(codes, v.Code+" "+v.Rule)
			}
			fmt.Fprintf(out, "  attempt %d: rejected (%s)\n", a.N, strings.Join(codes, "; "))
		case a.RuntimeError != nil:
			fmt.Fprintf(out, "  attempt %d: admitted, refused at run time: %s at %s: %s\n", a.N, a.RuntimeError.Code, a.RuntimeError.StepID, a.RuntimeError.Message)
		default:
			fmt.Fprintf(out, "  attempt %d: admitted and run\n", a.N)
		}
	}
	if res.Refusal != "" {
		fmt.Fprintf(out, "refused: %s\n", refusalText(res))
		for _, sg := range res.Suggestions {
			fmt.Fprintf(out, "  try: %s\n", sg)
		}
		return
	}
	if res.Trace != nil {
		fmt.Fprintf(out, "  belief time %s, trace digest %s\n", bt.FormatBoth(res.Trace.AsOfTT), res.TraceDigest)
	}
	if res.Kind == agent.KindEmpty {
		fmt.Fprintln(out, "certified answer (none):")
	} else {
		fmt.Fprintf(out, "certified answer (value %s):\n", jsonText(res.Value))
	}
	for _, line := range strings.Split(res.Certified.Text, "\n") {
		fmt.Fprintf(out, "  %s\n", line)
	}
	for _, w := range res.Certified.Withheld {
		fmt.Fprintf(out, "  withheld %s (%s): %s — %s\n", w.ID, w.Kind, w.Verdict, w.Reason)
	}
}

// plannerFactory returns a constructor of the named planner (a fresh LLM
// planner keeps one conversation, so each question needs its own) and the
// reporter that goes with it: the model words the claims when a model
// plans, the deterministic reporter otherwise.
func plannerFactory(name, model, apiBase, apiKey string) (func() agent.Planner, agent.Reporter, error) {
	switch name {
	case "rule", "":
		return func() agent.Planner { return agent.RulePlanner{} }, agent.MechanicalReporter{}, nil
	case "llm":
		cfg := llm.ConfigFromEnv()
		if apiBase != "" {
			cfg.BaseURL = apiBase
		}
		if model != "" {
			cfg.Model = model
		}
		if apiKey != "" {
			cfg.APIKey = apiKey
		}
		c, err := llm.New(cfg)
		if err != nil {
			return nil, nil, badInput("--planner llm: %v (give --model and --api-base, or set %s and %s)", err, llm.EnvModel, llm.EnvBaseURL)
		}
		return func() agent.Planner { return &agent.LLMPlanner{Client: c} }, &agent.LLMReporter{Client: c}, nil
	}
	return nil, nil, badInput("--planner %q: use rule or llm", name)
}

// refusalText is the refusal without the suggestions, which are printed
// one a line.
func refusalText(res *agent.Result) string {
	var uq *agent.ErrUnsupportedQuestion
	if errors.As(res.Err, &uq) && uq.Reason != "" {
		return uq.Reason
	}
	return res.Refusal
}
