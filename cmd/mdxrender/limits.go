package main

// The --limit flag: the resource budget of one model (render.Limits), for
// commands run on files from strangers. It names the budgets as the batch
// configuration's limits.* keys do, so one table (batch.LimitsConfig)
// serves the flag, the config file and MDXR_LIMITS_* variables.

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// limitFlags holds the --limit NAME=VALUE flags given.
type limitFlags struct{ vals []string }

func (l *limitFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&l.vals, "limit", nil, "raise (or lower) a budget, NAME=VALUE (repeatable): "+strings.Join(limitNames(), ", ")+
		"; VALUE may end in k, M, G (×1000) or Ki, Mi, Gi (×1024)")
}

// limits returns the budget the flags ask for, defaults elsewhere.
func (l *limitFlags) limits() (mdxrender.Limits, error) {
	var c batch.LimitsConfig
	err := l.apply(&c)
	return c.Limits(), err
}

// apply sets the budgets the flags name in c, leaving the others as the
// configuration file and environment gave them: flags win.
func (l *limitFlags) apply(c *batch.LimitsConfig) error {
	v := reflect.ValueOf(c).Elem()
	for _, s := range l.vals {
		name, val, ok := strings.Cut(s, "=")
		name = strings.ReplaceAll(strings.TrimSpace(name), "-", "_")
		if !ok {
			return fmt.Errorf("--limit %q: want NAME=VALUE", trimFlag(s))
		}
		i := slices.Index(limitNames(), name)
		if i < 0 {
			return fmt.Errorf("--limit %q: no budget named %q (budgets: %s)", trimFlag(s), trimFlag(name), strings.Join(limitNames(), ", "))
		}
		n, err := parseCount(val)
		if err != nil {
			return fmt.Errorf("--limit %s: %w", trimFlag(s), err)
		}
		v.Field(i).SetInt(n)
	}
	return nil
}

// limitNames are the budgets' names, the limits.* keys, in field order.
func limitNames() []string {
	t := reflect.TypeOf(batch.LimitsConfig{})
	out := make([]string, t.NumField())
	for i := range out {
		out[i], _, _ = strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
	}
	return out
}

// trimFlag quotes at most 60 bytes of a value a user gave, so that a
// pasted file does not fill the terminal.
func trimFlag(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// parseCount reads a positive whole number with an optional k, M, G
// (powers of 1000) or Ki, Mi, Gi (powers of 1024) suffix.
func parseCount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("want a positive whole number, optionally ending in k, M, G, Ki, Mi or Gi")
	}
	return n * mult, nil
}

// limitHint adds to an error from a budget how to raise that budget.
func limitHint(err error) error {
	if err == nil {
		return nil
	}
	name := ""
	var rb *mdxrender.BudgetError
	var pb *budget.Error
	var tb *texture.BudgetError
	var qe *mdx.QuotaError
	var tl *model.TooLargeError
	switch {
	case errors.As(err, &rb):
		name = map[string]string{"MaxRenderPixels": "render_pixels"}[rb.Budget]
	case errors.As(err, &pb):
		name = pb.Limit.String()
	case errors.As(err, &tb):
		name = map[string]string{"MaxPixels": "texture_pixels", "MaxJPEGScans": "jpeg_scans"}[tb.Budget]
	case errors.As(err, &tl):
		name = "file_size"
	case errors.As(err, &qe):
		switch {
		case strings.Contains(qe.What, "MaxVertices"):
			name = "vertices"
		case strings.Contains(qe.What, "MaxTriangles"):
			name = "triangles"
		}
	}
	if name == "" {
		return err
	}
	return fmt.Errorf("%w (a budget for untrusted files; raise it with --limit %s=N)", err, name)
}
