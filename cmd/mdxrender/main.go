// Command mdxrender renders Blizzard model files (Warcraft III MDX/MDL,
// early-WoW MDX, M2) to images on the CPU, and inspects and converts them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
)

// Exit statuses (docs/cli.md#exit-status).
const (
	exitOK          = 0   // all good
	exitFailed      = 1   // a model failed, a check regressed, an output could not be written
	exitUsage       = 2   // bad flags, arguments or configuration; another batch holds the output folder
	exitInterrupted = 130 // SIGINT or SIGTERM (128 + SIGINT, as shells report it)
)

// maxMessage bounds one printed warning or error line.
const maxMessage = 1000

func main() {
	cmd, err := newRootCmd().ExecuteC()
	os.Exit(reportCommand(cmd, err, os.Stderr))
}

// report prints err (unless the command already did) and returns the
// exit status it stands for (reportCommand, naming no command).
func report(err error, stderr io.Writer) int { return reportCommand(nil, err, stderr) }

// errorLines gives each of the errors joined in err a line (a
// *batchconfig.Errors a line per problem shown and one for the count);
// a line break inside one error's text is shown, not obeyed.
func errorLines(err error) []string {
	var ue usageError
	if errors.As(err, &ue) && err.Error() == ue.Error() {
		err = ue.err
	}
	switch e := err.(type) {
	case *batchconfig.Errors:
		return strings.Split(e.Error(), "\n")
	case interface{ Unwrap() []error }:
		var lines []string
		for _, x := range e.Unwrap() {
			lines = append(lines, errorLines(x)...)
		}
		return lines
	}
	return []string{describe(err)}
}

// printf writes a message for people to w. Each argument that is text (a
// string, an error, a fmt.Stringer) is clipped to maxMessage bytes and
// its control characters escaped (clip.Display): names and messages come
// from files strangers wrote, and must not move the cursor, start a line
// of their own or fill the terminal. Numbers print as they are.
func printf(w io.Writer, format string, a ...any) {
	for i, v := range a {
		switch v := v.(type) {
		case error:
			a[i] = clip.Display(v.Error(), maxMessage)
		case fmt.Stringer:
			a[i] = clip.Display(v.String(), maxMessage)
		default:
			if r := reflect.ValueOf(v); r.Kind() == reflect.String {
				a[i] = clip.Display(r.String(), maxMessage)
			}
		}
	}
	fmt.Fprintf(w, format, a...)
}

// exitCode maps an error from a command to the exit status.
func exitCode(err error) int {
	var ec exitCodeError
	var ue usageError
	var ce *batchconfig.Error
	var le *batch.LockError
	var nc *batch.NameClashError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ec):
		return ec.code
	case errors.As(err, &ue), errors.As(err, &ce), errors.As(err, &le), errors.As(err, &nc), isCobraUsage(err):
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	}
	return exitFailed
}

// isCobraUsage recognises the errors cobra returns for an unknown command
// or a missing required flag, which it does not type.
func isCobraUsage(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "required flag") ||
		strings.HasPrefix(s, "unknown flag") || strings.HasPrefix(s, "unknown shorthand flag")
}

// exitCodeError carries a specific exit status out of a command whose
// diagnostics have already been printed.
type exitCodeError struct{ code int }

func (e exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is a mistake on the command line: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exactArgs is cobra.ExactArgs with a usage error.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// minArgs is cobra.MinimumNArgs with a usage error.
func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MinimumNArgs(n)(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
