package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
)

func newVerify() *cobra.Command {
	var tracePath, answerPath, store string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify --trace TRACE.json --answer ANSWER.json [--store DIR] [--json]",
		Short: "Check every claim of an answer against a trace and print the certified answer",
		Long: `Verify each claim of an answer ({"text", "claims": [...]}, see the claim
language in package evidence) against the results and completeness recorded
in a trace, print a verdict per claim (supported, weakly_supported,
unsupported, unverifiable) with its reason, and the certified answer:
sentences rendered from the supported claims only, the rest withheld with
their reasons. When the trace holds only excerpts of large results, --store
re-executes it at its recorded belief time to read them whole, and refuses
(exit 3) a trace that differs from its re-execution in any field; without
--store a trace whose content does not match its trace_digest is refused.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if tracePath == "" || answerPath == "" {
				return usageError{fmt.Errorf("--trace and --answer are required")}
			}
			data, err := os.ReadFile(tracePath)
			if err != nil {
				return asInput(err)
			}
			tr, err := exec.ReadTrace(data)
			if err != nil {
				return badInput("%s: %v", tracePath, err)
			}
			adata, err := os.ReadFile(answerPath)
			if err != nil {
				return asInput(err)
			}
			ans, err := evidence.ParseAnswer(adata)
			if err != nil {
				return badInput("%s: %v", answerPath, err)
			}
			if store != "" {
				db, err := openReadOnly(store)
				if err != nil {
					return err
				}
				defer closeDB(db, cmd.ErrOrStderr())
				chk, err := evidence.VerifyTrace(cmd.Context(), db, tr)
				if err != nil {
					return badInput("%s: %v", tracePath, err)
				}
				if !chk.OK() {
					return rejectedError{fmt.Sprintf("%s does not reproduce on %s at tt %d, so its evidence cannot be trusted: %v", tracePath, store, tr.AsOfTT, chk.Err())}
				}
				tr = chk.Again
			} else if err := tr.CheckDigest(); err != nil {
				return rejectedError{fmt.Sprintf("%s: %v; its evidence cannot be trusted ('tgms trace verify --store DIR' names the fields)", tracePath, err)}
			}
			out := evidence.Gate(tr, ans, evidence.Options{})
			if asJSON {
				return printJSON(cmd.OutOrStdout(), out)
			}
			w := cmd.OutOrStdout()
			for _, r := range out.Claims {
				fmt.Fprintf(w, "%-4s %-16s %-17s %s\n", r.ID, r.Kind, r.Verdict, r.Reason)
			}
			fmt.Fprintf(w, "\ncertified answer:\n%s\n", out.Text)
			for _, r := range out.Withheld {
				fmt.Fprintf(w, "withheld %s (%s): %s\n", r.ID, r.Verdict, r.Reason)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tracePath, "trace", "", "trace written by 'tgms plan run --trace'")
	f.StringVar(&answerPath, "answer", "", "answer object with typed claims")
	f.StringVar(&store, "store", "", "re-execute the trace on this store to read excerpted results whole")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
