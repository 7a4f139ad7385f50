package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/pgstore"
)

func newCall() *cobra.Command {
	var store, eng string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "call --store DIR [--timeout 60s] OP ['JSON-ARGS']",
		Short: "Run one operator and print its canonical-JSON envelope with result_digest",
		Long: `Run one operator of the algebra (see 'tgms ops') with JSON arguments and
print the envelope as canonical JSON: op, args (defaults filled), as_of_tt
(the belief time the call was pinned at), dataset_extent, result and
result_digest (SHA-256 of the canonical result). A refusal is printed as
{"error": {code, message, details}} and exits with status 2.

The call runs under a deadline (--timeout, default ` + exec.DefaultDeadline.String() + `, the same as
'tgms plan run'): a call the cost model admits but that runs past it is
stopped with E_COST, the estimate and the work done in the details.

On a PostgreSQL store (--store postgres://...), --engine native (the
default) runs the call on the in-memory read model built from the
batches; --engine sql runs it as SQL against the version tables, with the
same envelope and result digest, for the operators that have a SQL form
(an operator without one is refused, naming those that have it).`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw := map[string]any{}
			if len(args) == 2 && strings.TrimSpace(args[1]) != "" {
				v, err := canon.Parse([]byte(args[1]))
				if err != nil {
					return badInput("arguments of %s: %v", args[0], err)
				}
				m, ok := v.(map[string]any)
				if !ok {
					return badInput("arguments of %s must be a JSON object", args[0])
				}
				raw = m
			}
			if timeout <= 0 {
				return usageError{fmt.Errorf("--timeout must be positive, got %s", timeout)}
			}
			if pgstore.IsURL(store) {
				return pgCall(cmd, store, eng, args[0], raw, timeout)
			}
			if eng != engineNative {
				return usageError{fmt.Errorf("--engine %s runs on a PostgreSQL store (--store postgres://...), not on %s", eng, store)}
			}
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			env, err := db.CallWith(ctx, args[0], raw, ops.ExecOptions{Typed: true})
			if err != nil {
				var oe *ops.Error
				if errors.As(err, &oe) {
					enc := json.NewEncoder(cmd.OutOrStdout())
					enc.SetEscapeHTML(false)
					enc.Encode(map[string]any{"error": oe})
					return inputError{err}
				}
				return err
			}
			b, err := env.Canonical()
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), string(b))
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory, or postgres://USER@HOST:PORT/DB?schema=NAME")
	cmd.Flags().DurationVar(&timeout, "timeout", exec.DefaultDeadline, "stop the call after this long (E_COST)")
	cmd.Flags().StringVar(&eng, "engine", engineNative, "on a PostgreSQL store: native (in-memory read model) or sql (SQL on the version tables)")
	return cmd
}

func newOps() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ops [--json]",
		Short: "List the operators with their argument and result schemas",
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			if asJSON {
				var list []map[string]any
				for _, s := range ops.All() {
					list = append(list, map[string]any{
						"name": s.Name, "summary": s.Summary, "doc": s.Doc, "order": s.Order, "paged": s.Paged,
						"args_schema": s.Args, "result_schema": s.Result, "scope": scopeDoc(s.Name),
					})
				}
				return printJSON(w, list)
			}
			for _, s := range ops.All() {
				fmt.Fprintf(w, "%s — %s\n", s.Name, s.Summary)
				fmt.Fprintf(w, "  args:   %s\n", strings.Join(describeFields(s.Args), ", "))
				fmt.Fprintf(w, "  result: %s\n", strings.Join(describeFields(s.Result), ", "))
				if s.Order != "" {
					fmt.Fprintf(w, "  order:  %s\n", s.Order)
				}
				fmt.Fprintf(w, "  scope:  %s\n", scopeDoc(s.Name))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the full schemas as JSON")
	return cmd
}

// scopeDoc is an operator's dependency scope rule in words.
func scopeDoc(op string) string {
	if d := ops.ScopeDoc(op); d != "" {
		return d
	}
	return "everything (no scope rule declared): every later write may change the result."
}

// describeFields renders an object schema's fields as "name:type", required
// ones marked with *.
func describeFields(s *ops.Schema) []string {
	var out []string
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	for _, name := range s.FieldNames() {
		f := s.Properties[name]
		t := f.Type
		if t == "" {
			t = "any"
		}
		if f.Type == "array" && f.Items != nil && f.Items.Type != "" {
			t = f.Items.Type + "[]"
		}
		if f.UID || f.Items != nil && f.Items.UID {
			t += "(uid)"
		}
		if req[name] {
			name += "*"
		}
		out = append(out, name+":"+t)
	}
	return out
}
