package main

// The --limit flag: the budget of one model (budget.Limits), for commands
// run on files from strangers. It names the limits as pkg/budget does, as
// the batch configuration's limits.* keys and MDXR_LIMITS_* variables do.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// limitFlags holds the --limit NAME=VALUE flags given.
type limitFlags struct{ vals []string }

// register adds --limit to f, the flag set of the command cmd.
func (l *limitFlags) register(f *pflag.FlagSet, cmd string) { addShared(f, cmd, "limit", &l.vals) }

// limits returns the budget the flags ask for, defaults elsewhere.
func (l *limitFlags) limits() (budget.Limits, error) {
	var b budget.Limits
	err := l.apply(&b)
	return b, err
}

// apply sets the limits the flags name in b, leaving the others as the
// configuration file and environment gave them: flags win.
func (l *limitFlags) apply(b *budget.Limits) error {
	for _, s := range l.vals {
		name, val, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("--limit %s: want NAME=VALUE", clip.Quote(s))
		}
		k, ok := budget.Lookup(name)
		if !ok {
			return fmt.Errorf("--limit %s: no limit named %s (limits: %s)", clip.Quote(s), clip.Quote(strings.TrimSpace(name)), strings.Join(budget.Names(), ", "))
		}
		n, err := forms.LimitValue(val)
		if err != nil {
			return fmt.Errorf("--limit %s: %w", clip.Quote(s), err)
		}
		b.Set(k, n)
	}
	return nil
}

// limitHint adds to an error from a limit how to raise that limit.
func limitHint(err error) error {
	var be *budget.Error
	if !errors.As(err, &be) {
		return err
	}
	return fmt.Errorf("%w (a limit for untrusted files; raise it with --limit %s=N)", err, be.Limit)
}
