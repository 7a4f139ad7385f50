package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/tools"
)

// envToken is the environment variable that may carry --token.
const envToken = "TGMS_TOKEN"

func newServe() *cobra.Command {
	var store, mcpMode, mcpHTTP, httpAddr, token, replicaCkpt, eng string
	var allowWrites bool
	var maxBody int64
	var deadline time.Duration
	var heavy, maxConns int
	var readTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "serve --store DIR [--mcp stdio] [--mcp-http ADDR] [--http ADDR] [--token T] [--allow-writes]",
		Short: "Serve a store to agents and people: MCP (stdio, streamable HTTP), a JSON API and a web console",
		Long: `Serve one store, read-only unless --allow-writes:

  --mcp stdio          an MCP server on standard input and output (what
                       desktop agents launch; logs go to standard error)
  --mcp-http ADDR      MCP over streamable HTTP at http://ADDR/mcp
  --http ADDR          the JSON API under http://ADDR/v1/ (OpenAPI at
                       /v1/openapi.json) and the web console at http://ADDR/

The tools are the same everywhere: one per operator, validate_plan,
run_plan, verify_answer, ask, stats, trace_verify, trace_check,
trace_refresh, answers_list, answers_check, and write_batch, erase, answers_save
and answers_refresh with --allow-writes. Refusals carry the plan contract's violations {code, rule,
path, hint, allowed}.

Security: addresses must be loopback (127.0.0.1, ::1, localhost) unless
--token is given (at least 16 characters, or $` + envToken + `); clients then send
"Authorization: Bearer TOKEN" (the console: open http://ADDR/#token=TOKEN).
Request bodies are capped by --max-body and must arrive within
--read-timeout, connections are capped by --max-conns (idle ones close
after 2 minutes), a wrong token is refused on the headers before any body
is read, every call has --deadline, at most --heavy operator calls, plans
and questions run at once, and nothing a request sends names a file.
Every HTTP refusal is JSON {"error": {code, message, rule, path, hint,
violations}}.

With --store postgres://USER@HOST:PORT/DB?schema=NAME the server is a read
replica: it builds its read model from the batches table (or from
--replica-checkpoint FILE and the batches after it), follows the batches
any writer commits (LISTEN/NOTIFY, a poll every 2 s as a fallback),
reconnects after the database restarts, and shows its lag in stats
(replication: applied_tt, database_tt). A call pinned at an as_of_tt after
the last batch it applied is refused with E_BEHIND. With --allow-writes it
is also the store's writer.

With --engine sql (a PostgreSQL store only) the server builds no read
model: operators and plans run as SQL against the version tables, with
the same result digests. It offers the tools of the operators that have
SQL, validate_plan, run_plan and stats; a plan with a step whose
operator has none is refused before anything runs, naming the step and
the operators that have SQL. It does not write (--allow-writes is
refused).

Exit codes: 0 stopped cleanly (signal, or the stdio client closed), 2 bad
flags or a refused address, 1 a listener or store failure.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if mcpMode != "" && mcpMode != "stdio" {
				return usageError{fmt.Errorf("--mcp takes only \"stdio\" (for MCP over HTTP use --mcp-http ADDR)")}
			}
			if token == "" {
				token = os.Getenv(envToken)
			}
			cfg := server.Config{MCPStdio: mcpMode == "stdio", MCPHTTP: mcpHTTP, HTTP: httpAddr, Token: token, MaxBody: maxBody, ReadTimeout: readTimeout, MaxConns: maxConns,
				Logf: func(format string, args ...any) { fmt.Fprintf(cmd.ErrOrStderr(), "tgms serve: "+format+"\n", args...) }}
			if !cfg.MCPStdio && cfg.MCPHTTP == "" && cfg.HTTP == "" {
				return usageError{fmt.Errorf("nothing to serve: give --mcp stdio, --mcp-http ADDR and/or --http ADDR")}
			}
			for _, addr := range []string{mcpHTTP, httpAddr} {
				if addr == "" {
					continue
				}
				if _, err := server.CheckBind(addr, token); err != nil {
					return badInput("%v", err)
				}
			}
			opt := tools.Options{Deadline: deadline, Heavy: heavy}
			var (
				db         tools.Store
				closeStore func()
				err        error
			)
			if eng == engineNative {
				db, opt.Writer, closeStore, err = openServe(cmd, store, allowWrites, replicaCkpt, cfg.Logf)
			} else {
				db, closeStore, err = openServeSQL(cmd, store, eng, allowWrites, replicaCkpt, &opt)
			}
			if err != nil {
				return err
			}
			defer closeStore()
			svc := tools.New(db, opt)
			mode := "read-only"
			if eng == engineSQL {
				mode = "read-only, --engine sql"
			}
			if allowWrites {
				mode = "writes allowed"
			}
			cfg.Logf("store %s (%s), %d tools", redactStore(store), mode, len(svc.Tools()))
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return server.Run(ctx, svc, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&store, "store", "", "store directory, or postgres://USER@HOST:PORT/DB?schema=NAME (a read replica that follows the database)")
	f.StringVar(&replicaCkpt, "replica-checkpoint", "", "with a PostgreSQL store: a local file to start the read model from and save it to (only the batches after it are replayed)")
	f.StringVar(&eng, "engine", engineNative, "with a PostgreSQL store: native (an in-memory read replica) or sql (operators and plans as SQL on the version tables)")
	f.StringVar(&mcpMode, "mcp", "", `"stdio": serve MCP on standard input and output`)
	f.StringVar(&mcpHTTP, "mcp-http", "", "serve MCP over streamable HTTP at ADDR/mcp (e.g. 127.0.0.1:7411)")
	f.StringVar(&httpAddr, "http", "", "serve the JSON API and the console at ADDR (e.g. 127.0.0.1:7410)")
	f.StringVar(&token, "token", "", "bearer token clients must send (required for a non-loopback address; default $"+envToken+")")
	f.BoolVar(&allowWrites, "allow-writes", false, "offer write_batch (one atomic batch of ops per call)")
	f.Int64Var(&maxBody, "max-body", 4<<20, "request body limit in bytes")
	f.DurationVar(&deadline, "deadline", tools.DefaultDeadline, "deadline of one call")
	f.IntVar(&heavy, "heavy", 0, "most heavy calls (operators, plans, questions) at once (0: one per CPU)")
	f.IntVar(&maxConns, "max-conns", server.DefaultMaxConns, "most open connections per listener (more wait to be accepted)")
	f.DurationVar(&readTimeout, "read-timeout", server.DefaultReadTimeout, "time a client has to send one whole request (headers: 10s)")
	return cmd
}

// openForServe is where serve opens its store: a writer open with
// --allow-writes; otherwise a shared-lock read-only open, so read-only CLI
// commands can open the same store alongside the server.
func openForServe(dir string, allowWrites bool) (*tgms.DB, error) {
	if allowWrites {
		return openStore(dir, false)
	}
	return openReadOnly(dir)
}
