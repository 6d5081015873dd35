package batch

import (
	"fmt"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// MaxConfigErrors is how many problems of a configuration ConfigErrors
// spells out; the rest are only counted. Twenty is a screenful, enough
// to fix a file in one go, and a file of a million unknown keys costs a
// count, not a million messages.
const MaxConfigErrors = 20

// ConfigErrors is every problem found in a configuration, of all its
// layers (file, environment, flags, range checks): the first
// MaxConfigErrors in the order found, and how many more there were.
// DecodeConfigFile and Config.Validate return one; a loader that checks
// several layers adds theirs to one value with Add.
type ConfigErrors struct {
	// Errs are the first problems found, at most MaxConfigErrors; most
	// are *ConfigError.
	Errs []error
	// More counts the problems found after Errs was full.
	More int
}

// Add adds the problems of err: each problem of a *ConfigErrors (its
// count too) or of a join of errors (errors.Join), else err itself.
func (e *ConfigErrors) Add(err error) {
	switch err := err.(type) {
	case nil:
	case *ConfigErrors:
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
func (e *ConfigErrors) full() bool { return len(e.Errs) >= MaxConfigErrors }

// addf adds a *ConfigError, formatting its message only while it will be
// shown.
func (e *ConfigErrors) addf(where, key, format string, a ...any) {
	if e.full() {
		e.More++
		return
	}
	e.Errs = append(e.Errs, &ConfigError{Where: where, Key: key, Msg: fmt.Sprintf(format, a...)})
}

// Len is the number of problems, shown and counted.
func (e *ConfigErrors) Len() int { return len(e.Errs) + e.More }

// Err returns e as an error, or nil when it holds no problem.
func (e *ConfigErrors) Err() error {
	if e.Len() == 0 {
		return nil
	}
	return e
}

// Error gives each problem shown a line, its own line breaks and other
// control characters escaped, then a line with the number of those not
// shown.
func (e *ConfigErrors) Error() string {
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
func (e *ConfigErrors) Unwrap() []error { return e.Errs }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
