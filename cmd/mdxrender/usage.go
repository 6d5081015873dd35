package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// How a command's mistakes are told (docs/cli.md#exit-status): every
// error line names the command it came from ("mdxrender: sheet: ..."), a
// mistake on the command line (a missing or extra argument, an unknown
// flag, a value that does not read) is followed by the command's usage
// line and exits with status 2, and a file the system refused is named
// with what was wrong in plain words, never a temporary file's name.

// reportCommand prints err as report does, each line naming the command
// cmd that failed (nil: the program), followed for a mistake on the
// command line by cmd's usage line, and returns the exit status.
func reportCommand(cmd *cobra.Command, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	var ec exitCodeError
	if errors.As(err, &ec) {
		return code
	}
	name := commandName(cmd)
	for _, line := range errorLines(err) {
		if name != "" && !strings.HasPrefix(line, name+": ") {
			line = name + ": " + line
		}
		printf(stderr, "mdxrender: %s\n", line)
	}
	if cmd != nil && isCommandLineMistake(err) {
		if name == "" {
			printf(stderr, "Run 'mdxrender --help' for the commands.\n")
		} else {
			printf(stderr, "Usage: %s\nRun '%s --help' for the options.\n", cmd.UseLine(), cmd.CommandPath())
		}
	}
	return code
}

// commandName is cmd's path below the root ("render", "archive
// extract"), or "" for the root itself.
func commandName(cmd *cobra.Command) string {
	if cmd == nil || !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// isCommandLineMistake tells a mistake in the command line's words (an
// argument, a flag, a value) from other usage errors (a configuration
// file's), which the usage line would not help with.
func isCommandLineMistake(err error) bool {
	var ue usageError
	return errors.As(err, &ue) || isCobraUsage(err)
}

// checkArgs makes every command's argument check (cobra.ExactArgs and
// the like) a usage error that says which arguments the command wants,
// for commands of the tree below root: whichever check a command was
// built with, a wrong count exits with status 2 and the usage line.
func checkArgs(root *cobra.Command) {
	for _, c := range root.Commands() {
		checkArgs(c)
	}
	if root.Args == nil || !root.HasParent() {
		return
	}
	check := root.Args
	root.Args = func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{argsError(cmd, args)}
		}
		return nil
	}
}

// argsError says what arguments cmd wants, by the words of its usage
// line ("MODEL", "IN OUT", "ARCHIVE [NAME...]"), and what it got.
func argsError(cmd *cobra.Command, args []string) error {
	want := argWords(cmd.Use)
	quoted := make([]string, 0, len(args))
	for i, a := range args {
		if i == 4 {
			quoted = append(quoted, "...")
			break
		}
		quoted = append(quoted, clip.Quote(a))
	}
	got := strings.Join(quoted, " ")
	switch {
	case want == "":
		return fmt.Errorf("takes no arguments, got %s", got)
	case len(args) == 0:
		return fmt.Errorf("missing %s", requiredWords(want))
	case len(args) == 1:
		return fmt.Errorf("want %s, got one argument: %s", want, got)
	}
	return fmt.Errorf("want %s, got %d arguments: %s", want, len(args), got)
}

// argWords returns the argument words of a usage string: its words after
// the command's name that are not flags, flags' values or optional
// flags ("render MODEL -o OUT.png" gives "MODEL").
func argWords(use string) string {
	fields := strings.Fields(use)
	var out []string
	for i := 1; i < len(fields); i++ {
		w := fields[i]
		switch {
		case strings.HasPrefix(w, "-"):
			i++ // its value
		case strings.HasPrefix(w, "[-"), strings.HasPrefix(w, "|"):
			// an optional flag: skip to its closing bracket
			for i < len(fields) && !strings.HasSuffix(fields[i], "]") {
				i++
			}
		default:
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// requiredWords drops the optional words ("[NAME...]") of argument
// words: what is missing when none was given.
func requiredWords(words string) string {
	var out []string
	for _, w := range strings.Fields(words) {
		if !strings.HasPrefix(w, "[") {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return words
	}
	return strings.Join(out, " ")
}

// flagErrorFunc turns a flag that does not parse into a usage error in
// plain words: `--yaws "0,abc": "abc" is not a number`, not the parser's
// own strconv message.
func flagErrorFunc(_ *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	if errors.As(err, &ive) {
		name := "--" + ive.GetFlag().Name
		value := ive.GetValue()
		reason := ive.Unwrap()
		var ne *strconv.NumError
		if errors.As(reason, &ne) {
			what := "a number"
			switch ne.Func {
			case "ParseInt", "ParseUint", "Atoi":
				what = "a whole number"
			case "ParseBool":
				what = "true or false"
			}
			r := fmt.Sprintf("%s is not %s", clip.Quote(ne.Num), what)
			if errors.Is(ne.Err, strconv.ErrRange) {
				r = fmt.Sprintf("%s is out of range", clip.Quote(ne.Num))
			}
			if ne.Num == value {
				return usageError{fmt.Errorf("%s: %s", name, r)}
			}
			return usageError{fmt.Errorf("%s %s: %s", name, clip.Quote(value), r)}
		}
		return usageError{fmt.Errorf("%s %s: %v", name, clip.Quote(value), reason)}
	}
	return usageError{err}
}

// describe is err's text with the system's report of a file (Go's "open
// x.png: no such file or directory") said for people: the file the user
// named, what was being done with it and what was wrong.
func describe(err error) string {
	s := err.Error()
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return s
	}
	raw := pe.Error()
	i := strings.Index(s, raw)
	if i < 0 {
		return s
	}
	return s[:i] + pathProblem(pe) + s[i+len(raw):]
}

// pathProblem says what went wrong with the file pe names.
func pathProblem(pe *fs.PathError) string {
	writing := false
	switch pe.Op {
	case "write", "sync", "mkdir", "rename", "create", "remove", "chmod", "truncate":
		writing = true
	}
	var reason string
	switch e := pe.Err; {
	case errors.Is(e, fs.ErrNotExist) && writing:
		reason = "no such folder"
	case errors.Is(e, fs.ErrNotExist):
		reason = "no such file"
	case errors.Is(e, fs.ErrPermission):
		reason = "permission denied"
	case errors.Is(e, syscall.ENOTDIR):
		reason = "a folder on its path is a file"
	case writing && (errors.Is(e, syscall.EISDIR) || errors.Is(e, syscall.ENOTEMPTY) || errors.Is(e, syscall.EEXIST)):
		reason = "a folder is in the way"
	case errors.Is(e, syscall.EISDIR):
		reason = "is a folder"
	case errors.Is(e, syscall.ENOSPC):
		reason = "no space left on the device"
	case errors.Is(e, syscall.EFBIG):
		reason = "file too large"
	case errors.Is(e, syscall.EROFS):
		reason = "read-only file system"
	default:
		reason = e.Error()
	}
	if writing {
		return "cannot write " + pe.Path + ": " + reason
	}
	return pe.Path + ": " + reason
}
