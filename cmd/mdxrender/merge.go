package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/pkg/batch"
)

func newMergeCmd() *cobra.Command {
	var (
		out     string
		gallery bool
		summary string
		partial bool
	)
	cmd := &cobra.Command{
		Use:   "merge -o manifest.json SHARD-MANIFEST|FOLDER|GLOB...",
		Short: "Join the manifests of a sharded batch into one, with its JUnit, summary and gallery",
		Long: `Join the manifest-I-of-N.json files written by 'mdxrender batch --shard I/N'
(or 'check') into one manifest. Arguments are manifest files, folders (every
manifest-*-of-*.json in them) or glob patterns, expanded here so no shell
is needed. The shards must be all of one batch: shards 0 to N-1 of one N,
each once, run by the same version with the same options, none
interrupted; --partial accepts a set that lacks some (the merged manifest
lists them as missing). A model listed twice is an error.

Beside the merged manifest, merge writes the reports the shards wrote each
under their own names, now for the whole batch: junit.xml and summary.md
for check runs, index.html when the shards had a gallery (or --gallery).
Their links are relative to that folder, so put the shards' output
folders together there (they share one layout). Exit status: 0, 1 if any
model failed or regressed, 2 if the manifests do not make one batch.`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageErrorf("merge: -o manifest.json is required")
			}
			files, err := manifestArgs(args)
			if err != nil {
				return usageError{err}
			}
			var ms []*batch.Manifest
			for _, a := range files {
				m, err := batch.ReadManifest(a)
				if err != nil {
					return usageErrorf("merge: %w", err)
				}
				ms = append(ms, m)
			}
			m, err := batch.Merge(batch.MergeOptions{Partial: partial}, ms...)
			if err != nil {
				return usageError{err}
			}
			if gallery && m.Reports.Gallery == "" {
				m.Reports.Gallery = "index.html"
			}
			ctx := context.Background()
			written, err := m.WriteReports(ctx, filepath.Dir(out), filepath.Base(out))
			if err != nil {
				return err
			}
			if summary != "" {
				if err := atomicfile.WriteNamed(ctx, summary, func(w io.Writer) error {
					_, err := io.WriteString(w, m.MarkdownSummary())
					return err
				}); err != nil {
					return err
				}
			}
			s := m.Summary
			fmt.Fprintf(cmd.OutOrStdout(), "%d manifests, %d models: %d rendered, %d unchanged, %d failed, %d regressions (wrote %s)\n",
				len(ms), s.Models, s.OK, s.Cached, s.Failed, s.Regressions, strings.Join(written, ", "))
			if len(m.Missing) > 0 {
				printf(cmd.ErrOrStderr(), "mdxrender: merge: partial batch: shards %s missing\n", strings.Join(m.Missing, ", "))
			}
			if m.Failed() {
				return exitCodeError{exitFailed}
			}
			return nil
		},
	}
	addShared(cmd.Flags(), "merge", "output", &out)
	cmd.Flags().BoolVar(&gallery, "gallery", false, "write index.html even if the shards had no gallery")
	cmd.Flags().StringVar(&summary, "summary", "", "also write the Markdown summary to this file (e.g. for $GITHUB_STEP_SUMMARY)")
	cmd.Flags().BoolVar(&partial, "partial", false, "accept a set of shards that lacks some, or has interrupted ones")
	return cmd
}

// manifestArgs expands merge's arguments: a folder gives its shard
// manifests, a pattern the files it matches, a file itself.
func manifestArgs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil {
			if !fi.IsDir() {
				out = append(out, a)
				continue
			}
			ms, _ := filepath.Glob(filepath.Join(a, "manifest-*-of-*.json"))
			if len(ms) == 0 {
				return nil, fmt.Errorf("merge: %s holds no manifest-I-of-N.json", a)
			}
			out = append(out, ms...)
			continue
		}
		ms, err := filepath.Glob(a)
		if err != nil || len(ms) == 0 {
			return nil, fmt.Errorf("merge: %s: no such manifest", a)
		}
		sort.Strings(ms)
		out = append(out, ms...)
	}
	return out, nil
}
