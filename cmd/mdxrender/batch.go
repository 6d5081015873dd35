package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
)

func newBatchCmd() *cobra.Command { return newBatchLikeCmd(false) }

func newCheckCmd() *cobra.Command { return newBatchLikeCmd(true) }

const batchStatus = `Exit status: 0 all good, 1 a model failed (or, for check, an output
regressed or has no golden), 2 a usage or configuration error (or another
batch is writing the same shard into the output folder), 130 interrupted.`

func newBatchLikeCmd(check bool) *cobra.Command {
	var (
		cfgFile string
		common  commonFlags
	)
	cmd := &cobra.Command{
		Use:   "batch [-c FILE] [MODEL|FOLDER|MAP...]",
		Short: "Render many models from a config file: thumbnails, sheets, animations, manifest, gallery",
		Long: `Render every model a batch config names (see configs/ for documented
examples), plus MODEL arguments and the models under FOLDER arguments, with
a pool of workers. Output files do not depend on the number of workers. A
model that fails, or takes longer than --model-timeout, is reported in
manifest.json and the batch goes on. Unchanged models (same model and
texture bytes, options and program version) are skipped unless --force.
Ctrl-C or SIGTERM stops within a second or two: the models in flight are
cancelled, no partial files are left, the manifest lists the models that
finished, and the next run resumes.

Paths on the command line (arguments, -o, --textures, --golden) and in
MDXR_ variables are relative to the working directory; paths in the config
file are relative to the file's folder. Settings come from flags, then
MDXR_* environment variables (render.size -> MDXR_RENDER_SIZE), then the
file, then built-in defaults. --shard i/n (or JOB_COMPLETION_INDEX with
MDXR_SHARD_COUNT) renders one share of the inputs; 'mdxrender merge'
joins the shards' manifests.

` + batchStatus,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBatchCmd(cmd, cfgFile, args, check, &common.limits)
		},
	}
	if check {
		cmd.Use = "check [-c FILE] [MODEL|FOLDER|MAP...] --golden DIR [--update]"
		cmd.Short = "Render a batch and compare it with golden images (JUnit, Markdown, gallery)"
		cmd.Long = `Render a batch like 'mdxrender batch', then compare each still and sheet
PNG with the golden image of the same relative path under --golden
(check.golden). A pixel differs when a channel (premultiplied) differs by
more than --tolerance; an output fails when the share of differing pixels
exceeds --max-mismatch. Each failure gets a .diff.png; junit.xml,
summary.md and index.html (failures first) are written to the output
folder (a shard writes junit-I-of-N.xml and so on; 'mdxrender merge'
writes the whole batch's). --update rewrites the goldens instead.

` + batchStatus
	}
	f := cmd.Flags()
	name := cmd.Name()
	addShared(f, name, "config", &cfgFile)
	common.register(f, name)
	// The rest are read from the flag set, layered over the configuration
	// (loadConfig).
	for _, n := range []string{"jobs", "shard", "force", "prune", "model-timeout", "format", "framing",
		"frames", "fps", "cols", "yaws", "trim", "max-size", "metadata", "shot"} {
		addShared(f, name, n, sharedValue(n))
	}
	def := batchconfig.Default()
	if !check {
		f.Bool("icons", false, iconsHelp)
	}
	if check {
		f.String("golden", "", "folder of golden images (relative to the working directory)")
		f.Bool("update", false, "rewrite the golden images")
		f.Int("tolerance", def.Check.Tolerance, "largest per-channel difference still equal (0-255)")
		f.Float64("max-mismatch", def.Check.MaxMismatch, "share of differing pixels still accepted (0-1)")
	}
	return cmd
}

func runBatchCmd(cmd *cobra.Command, cfgFile string, args []string, check bool, limits *limitFlags) error {
	if !check {
		if err := iconsFlag(cmd.Flags()); err != nil {
			return usageError{err}
		}
	}
	keys := map[string]string{}
	for flag, key := range flagKeys {
		if cmd.Flags().Lookup(flag) != nil {
			keys[flag] = key
		}
	}
	cfg, err := loadConfig(configLayers{File: cfgFile, Flags: cmd.Flags(), FlagKeys: keys, Args: args})
	if err != nil {
		return err
	}
	if err := checkRunFlags(cmd.Flags(), cfg.Output.Formats, len(cfg.Sheet.Yaws) > 0); err != nil {
		return err
	}
	if err := limits.apply(&cfg.Limits); err != nil {
		return err
	}
	if check && cfg.Check.Golden == "" {
		return usageErrorf("check: no golden folder: give --golden DIR or check.golden in the config")
	}
	r := &batch.Runner{Options: cfg, Version: version, Check: check}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal, a second one ends the process at once.
		<-ctx.Done()
		stop()
	}()
	obs := newProgress(cmd.ErrOrStderr())
	r.Observer = obs
	m, err := r.Run(ctx)
	obs.finish(m)
	if ctx.Err() != nil {
		n := 0
		if m != nil {
			n = m.Summary.Models
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: interrupted; the manifest lists the %d models that finished, and they are cached: run again to resume\n", n)
		return exitCodeError{exitInterrupted}
	}
	if m == nil {
		return nameClashHint(err, cmd.Name())
	}
	// An error with a manifest is a failure to write the manifest, a
	// report or the cache records: the models' outcomes are still told.
	s := m.Summary
	fmt.Fprint(cmd.OutOrStdout(), s)
	if check {
		fmt.Fprintf(cmd.OutOrStdout(), "; %d checks, %d regressions, %d updated", s.Checks, s.Regressions, s.Updated)
	}
	if len(m.Pruned) > 0 {
		if len(m.Pruned) == 1 {
			fmt.Fprint(cmd.OutOrStdout(), "; 1 file pruned")
		} else {
			fmt.Fprintf(cmd.OutOrStdout(), "; %d files pruned", len(m.Pruned))
		}
	}
	fmt.Fprintf(cmd.OutOrStdout(), " (manifest: %s)\n", batch.ManifestName(m))
	// Input names and messages may come from inside archives, whose names
	// are a stranger's: every line is escaped (printf).
	for _, sk := range m.Skipped {
		printSkipped(cmd.ErrOrStderr(), sk)
	}
	verbose, _ := cmd.Flags().GetBool("verbose")
	warns := &batchWarnings{w: cmd.ErrOrStderr(), verbose: verbose}
	// The models are read back from the manifest one at a time: a batch
	// can hold a hundred thousand.
	rerr := batch.EachModel(cfg.ManifestPath(m), func(res *batch.ModelResult) error {
		warns.model(res)
		for _, e := range res.Errors {
			if !strings.Contains(e, res.Input) { // most errors name the file already
				e = res.Input + ": " + e
			}
			printf(cmd.ErrOrStderr(), "mdxrender: %s: %s\n", cmd.Name(), e)
		}
		for _, c := range res.Checks {
			if c.Failed() {
				printf(cmd.ErrOrStderr(), "mdxrender: %s: %s: %s: %s %s\n", cmd.Name(), res.Input, c.Output, c.Status, c.Message)
			}
		}
		return nil
	})
	warns.finish(batch.ManifestName(m))
	if rerr != nil && err == nil {
		// Without its manifest the models' messages cannot be told; the
		// summary above still holds.
		printf(cmd.ErrOrStderr(), "mdxrender: %s: the models' warnings and errors cannot be listed: %v\n", cmd.Name(), rerr)
	}
	if err != nil {
		return err
	}
	if m.Failed() {
		return exitCodeError{exitFailed}
	}
	return nil
}

// nameClashHint adds to a clash of output names how to set the template
// the error suggests from the command line, which has no flag for it.
func nameClashHint(err error, command string) error {
	var nc *batch.NameClashError
	if !errors.As(err, &nc) || nc.Suggest == "" {
		return err
	}
	quoted := "'" + strings.ReplaceAll(nc.Suggest, "'", `'\''`) + "'"
	return fmt.Errorf("%w (on the command line: MDXR_OUTPUT_NAME=%s mdxrender %s ..., or output.name in the file of --config)", err, quoted, command)
}
