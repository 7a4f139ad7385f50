// Command tgms is the command-line interface of TGMS, a bi-temporal
// temporal-graph database for LLM agents.
//
// Exit codes: 0 success, 1 internal error, 2 usage or input error, 3 a plan
// the contract rejected or a trace that does not reproduce.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

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
	root := newRoot(os.Stdout, os.Stderr)
	err := root.Execute()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "tgms:", err)
	os.Exit(exitCode(err))
}

// exitCode maps an error to the process exit status.
func exitCode(err error) int {
	var re rejectedError
	var ie inputError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &re):
		return exitRejected
	case errors.As(err, &ie) || isUsage(err):
		return 2
	}
	return 1
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
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see 'tgms %s --help')", err, c.Name())}
	})
	root.AddCommand(
		newDemo(), newIngest(), newWrite(), newSynth(), newReplay(), newImport(),
		newStats(), newDigest(), newCheckpoint(), newCall(), newOps(), newBench(), newPlanCmd(), newTraceCmd(), newAnswersCmd(), newVerify(), newTasks(), newScore(), newEvalCmd(), newAsk(), newServe(),
	)
	root.AddCommand(newCheck(), newCampaign())
	addStoreFlags(root)
	for _, c := range root.Commands() {
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
	db, err := tgms.Open(dir, storeOptions(tgms.Options{NoSync: noSync}))
	return db, asInput(err)
}

// openExisting opens a store that must already exist.
func openExisting(dir string) (*tgms.DB, error) {
	if dir == "" {
		return nil, usageError{errors.New("--store DIR is required")}
	}
	if _, err := os.Stat(dir + "/" + tgms.LogFile); err != nil {
		return nil, badInput("%s is not a TGMS store (no %s): create one with 'tgms ingest' or 'tgms write'", dir, tgms.LogFile)
	}
	return openStore(dir, false)
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
