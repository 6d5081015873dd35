package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/spf13/cobra"
)

func newMergeCmd() *cobra.Command {
	var (
		out     string
		gallery bool
		summary string
	)
	cmd := &cobra.Command{
		Use:   "merge -o manifest.json SHARD-MANIFEST...",
		Short: "Join the manifests of a sharded batch into one",
		Long: `Join the manifest-I-of-N.json files written by 'mdxrender batch --shard I/N'
into one manifest. A model listed twice (overlapping shards, or a shard
given twice) is an error. With --gallery, index.html is written beside the
merged manifest; its links are relative to that folder, so put the shards'
output folders together there first (they share one layout). The exit
status is 1 if any model failed or regressed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("merge: -o manifest.json is required")
			}
			var ms []*batch.Manifest
			for _, a := range args {
				m, err := batch.ReadManifest(a)
				if err != nil {
					return fmt.Errorf("merge: %w", err)
				}
				ms = append(ms, m)
			}
			m, err := batch.Merge(ms...)
			if err != nil {
				return err
			}
			b, err := m.MarshalIndent()
			if err != nil {
				return err
			}
			ctx := context.Background()
			if err := batch.WriteFileAtomic(ctx, out, b); err != nil {
				return err
			}
			if gallery {
				g, err := batch.Gallery(m, m.Summary.Checks > 0)
				if err != nil {
					return err
				}
				if err := batch.WriteFileAtomic(ctx, filepath.Join(filepath.Dir(out), "index.html"), g); err != nil {
					return err
				}
			}
			if summary != "" {
				if err := batch.WriteFileAtomic(ctx, summary, []byte(m.MarkdownSummary())); err != nil {
					return err
				}
			}
			s := m.Summary
			fmt.Fprintf(cmd.OutOrStdout(), "%d manifests, %d models: %d rendered, %d unchanged, %d failed, %d regressions\n",
				len(ms), s.Models, s.OK, s.Cached, s.Failed, s.Regressions)
			if m.Failed() {
				return exitCodeError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "merged manifest file")
	cmd.Flags().BoolVar(&gallery, "gallery", false, "also write index.html beside the merged manifest")
	cmd.Flags().StringVar(&summary, "summary", "", "also write a Markdown summary to this file")
	return cmd
}
