// Command tgms is the command-line interface of TGMS, a bi-temporal
// temporal-graph database for LLM agents.
//
// Exit codes (exitCode is the one place that maps errors to them):
//
//	0    success
//	1    internal error
//	2    usage or input error (unknown command or flag, a store path that is
//	     a file, a malformed input file or replay log)
//	3    a plan the contract rejected or a trace that does not reproduce
//	4    the store is in use by another process
//	5    the store is damaged (its log or checkpoint fails its checks)
//	130  interrupted (SIGINT); what was committed is printed
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"golang.org/x/term"
)

// inputError marks errors caused by what the user gave: exit code 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return inputError{fmt.Errorf(format, args...)}
}

// asInput classifies errors that come from bad input data as exit code 2.
func asInput(err error) error {
	if err == nil {
		return nil
	}
	var (
		oe  *bt.OpError
		pe  *datasets.ParseError
		ce  *datasets.ChecksumError
		le  *eventlog.CorruptionError
		cke *engine.CheckpointError
	)
	if errors.As(err, &oe) || errors.As(err, &pe) || errors.As(err, &ce) || errors.As(err, &le) || errors.As(err, &cke) || errors.Is(err, os.ErrNotExist) {
		return inputError{err}
	}
	return err
}

func main() {
	// The first SIGINT cancels the command's context: the long writers
	// (ingest, synth, replay, import) stop between batches, close the store
	// and say what was committed. A second SIGINT kills the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		<-ctx.Done()
		stop()
	}()
	root := newRoot(os.Stdout, os.Stderr)
	stopProfiles := startProfiles()
	err := root.ExecuteContext(ctx)
	stopProfiles()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "tgms:", err)
	os.Exit(exitCode(err))
}

// Exit statuses; see the package comment.
const (
	exitInternal    = 1
	exitInput       = 2
	exitInUse       = 4
	exitDamaged     = 5
	exitInterrupted = 130
)

// exitCode maps an error to the process exit status.
func exitCode(err error) int {
	var (
		re rejectedError
		ie inputError
		se storeError
		ir interruptedError
	)
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ir):
		return exitInterrupted
	case errors.As(err, &se):
		return se.code
	case errors.Is(err, tgms.ErrStoreInUse):
		return exitInUse
	case errors.Is(err, tgms.ErrStoreDamaged):
		return exitDamaged
	case errors.As(err, &re):
		return exitRejected
	case errors.As(err, &ie) || isUsage(err):
		return exitInput
	}
	return exitInternal
}

// storeError marks a store that cannot be opened for a reason of its own:
// in use (exit 4) or damaged (exit 5).
type storeError struct {
	err  error
	code int
}

func (e storeError) Error() string { return e.err.Error() }
func (e storeError) Unwrap() error { return e.err }

// classifyOpen sorts an error of tgms.Open: a store another process holds,
// a damaged log or checkpoint, or a path that is not a directory.
func classifyOpen(dir string, err error) error {
	if err == nil {
		return nil
	}
	var (
		le  *eventlog.CorruptionError
		cke *engine.CheckpointError
	)
	switch {
	case storeInUse(err):
		return storeError{err, exitInUse}
	case errors.Is(err, tgms.ErrStoreDamaged) || errors.As(err, &le) || errors.As(err, &cke):
		return storeError{err, exitDamaged}
	case errors.Is(err, syscall.ENOTDIR):
		return badInput("--store %s: not a directory (a store is a directory; give a new or existing store directory)", dir)
	}
	return asInput(err)
}

// storeInUse reports whether err says another process holds the store's
// lock.
func storeInUse(err error) bool {
	return errors.Is(err, tgms.ErrStoreInUse) || errors.Is(err, syscall.EWOULDBLOCK)
}

// usageError is what cobra reports for bad flags and arguments.
type usageError struct{ error }

func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "tgms",
		Short: "TGMS: a bi-temporal temporal-graph database for LLM agents",
		Long: `TGMS stores a graph whose facts have a valid time (when true in the world)
and a transaction time (when the store believed it), so "what did we believe
on March 1?" gets the same answer next year, even after records are corrected.

Times are accepted as microseconds since the epoch or RFC 3339.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
		// Without Args and RunE, cobra reports an unknown command as a
		// plain error (exit 1); here it is a usage error (exit 2).
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q (see 'tgms --help')", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetVersionTemplate("tgms {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see 'tgms %s --help')", err, c.Name())}
	})
	root.AddCommand(
		newDemo(), newIngest(), newWrite(), newSynth(), newReplay(), newImport(),
		newStats(), newFootprint(), newExport(), newDigest(), newCheckpoint(), newCall(), newOps(), newBench(), newPlanCmd(), newTraceCmd(), newAnswersCmd(), newVerify(), newTasks(), newScore(), newEvalCmd(), newAsk(), newServe(),
	)
	root.AddCommand(newCheck(), newCampaign(), newErase())
	addStoreFlags(root)
	for _, c := range root.Commands() {
		if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			// A group (plan, eval, trace) given no subcommand prints its
			// help; given an unknown one, it is a usage error.
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
		c.Args = wrapArgs(c.Args)
	}
	return root
}

func wrapArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	if check == nil {
		check = cobra.NoArgs
	}
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{fmt.Errorf("%w (see 'tgms %s --help')", err, cmd.Name())}
		}
		return nil
	}
}

// openStore opens a store, turning an unreadable log or checkpoint into an
// input error.
func openStore(dir string, noSync bool) (*tgms.DB, error) {
	if dir == "" {
		return nil, usageError{errors.New("--store DIR is required")}
	}
	return openWith(dir, storeOptions(tgms.Options{NoSync: noSync}))
}

// openWith opens (or creates) the store in dir with options, sorting the
// errors for exitCode.
func openWith(dir string, opt *tgms.Options) (*tgms.DB, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, badInput("--store %s is a file, not a store directory", dir)
	}
	db, err := tgms.Open(dir, opt)
	return db, classifyOpen(dir, err)
}

// openExisting opens a store that must already exist, for writing.
func openExisting(dir string) (*tgms.DB, error) {
	if err := checkExisting(dir); err != nil {
		return nil, err
	}
	return openStore(dir, false)
}

// checkExisting refuses a --store that is missing, a file, or a directory
// without an event log, before anything opens (and so creates) it.
func checkExisting(dir string) error {
	if dir == "" {
		return usageError{errors.New("--store DIR is required")}
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return badInput("--store %s is a file, not a store directory", dir)
	}
	if _, err := os.Stat(dir + "/" + tgms.LogFile); err != nil {
		return badInput("%s is not a TGMS store (no %s): create one with 'tgms ingest' or 'tgms write'", dir, tgms.LogFile)
	}
	return nil
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// progress returns a progress bar on stderr when it is a terminal, or nil.
func progress(max int64, what string) *progressbar.ProgressBar {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("events"),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
	)
}
