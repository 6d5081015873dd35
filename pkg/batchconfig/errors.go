package batchconfig

import (
	"fmt"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// Error is one problem with a key; Where is "file:line", "file",
// "env NAME", "flag --name", or "" for a value not set anywhere.
type Error struct {
	Where string
	Key   string
	Msg   string
}

// Error bounds what it repeats of the key and message, and escapes their
// control characters (clip.Display): a file can name a key of megabytes,
// or one that clears the terminal it is printed on.
func (e *Error) Error() string {
	key, msg := clip.Display(e.Key, 2*clip.MaxQuote), clip.Display(e.Msg, 10*clip.MaxQuote)
	if e.Where == "" {
		return fmt.Sprintf("config: %s: %s", key, msg)
	}
	where := clip.Display(e.Where, 2*clip.MaxQuote)
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", where, msg)
	}
	return fmt.Sprintf("%s: %s: %s", where, key, msg)
}

// MaxErrors is how many problems of a configuration Errors
// spells out; the rest are only counted. Twenty is a screenful, enough
// to fix a file in one go, and a file of a million unknown keys costs a
// count, not a million messages.
const MaxErrors = 20

// Errors is every problem found in a configuration, of all its
// layers (file, environment, flags, range checks): the first
// MaxErrors in the order found, and how many more there were.
// DecodeFile, Load and Check return one; a loader that checks
// several layers adds theirs to one value with Add.
type Errors struct {
	// Errs are the first problems found, at most MaxErrors; most
	// are *Error.
	Errs []error
	// More counts the problems found after Errs was full.
	More int
}

// Add adds the problems of err: each problem of a *Errors (its
// count too) or of a join of errors (errors.Join), else err itself.
func (e *Errors) Add(err error) {
	switch err := err.(type) {
	case nil:
	case *Errors:
		for _, x := range err.Errs {
			e.Add(x)
		}
		e.More += err.More
	case interface{ Unwrap() []error }:
		for _, x := range err.Unwrap() {
			e.Add(x)
		}
	default:
		if e.full() {
			e.More++
			return
		}
		e.Errs = append(e.Errs, err)
	}
}

// full reports whether further problems are only counted, so that a
// checker can skip formatting a message nobody will read.
func (e *Errors) full() bool { return len(e.Errs) >= MaxErrors }

// addf adds a *Error, formatting its message only while it will be
// shown.
func (e *Errors) addf(where, key, format string, a ...any) {
	if e.full() {
		e.More++
		return
	}
	e.Errs = append(e.Errs, &Error{Where: where, Key: key, Msg: fmt.Sprintf(format, a...)})
}

// Len is the number of problems, shown and counted.
func (e *Errors) Len() int { return len(e.Errs) + e.More }

// Err returns e as an error, or nil when it holds no problem.
func (e *Errors) Err() error {
	if e.Len() == 0 {
		return nil
	}
	return e
}

// Error gives each problem shown a line, its own line breaks and other
// control characters escaped, then a line with the number of those not
// shown.
func (e *Errors) Error() string {
	var b strings.Builder
	for i, x := range e.Errs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(clip.Display(x.Error(), 20*clip.MaxQuote))
	}
	if e.More > 0 {
		if len(e.Errs) > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "and %d more %s", e.More, plural(e.More, "problem", "problems"))
	}
	return b.String()
}

// Unwrap gives the problems shown, for errors.As and errors.Is.
func (e *Errors) Unwrap() []error { return e.Errs }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
