package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// batchFlagKeys maps batch/check flags to configuration keys; a flag the
// user sets beats MDXR_ variables, which beat the file.
var batchFlagKeys = map[string]string{
	"jobs":         "jobs",
	"shard":        "shard",
	"force":        "force",
	"out":          "output.dir",
	"format":       "output.formats",
	"size":         "render.size",
	"ssaa":         "render.ssaa",
	"bg":           "render.background",
	"textures":     "texture_roots",
	"game-data":    "game_data",
	"sequences":    "sequences.select",
	"golden":       "check.golden",
	"update":       "check.update",
	"tolerance":    "check.tolerance",
	"max-mismatch": "check.max_mismatch",
	"particles":    "render.particles",
	"seed":         "render.seed",
	"step-ms":      "render.step_ms",
	"preroll-ms":   "render.preroll_ms",
	"time":         "render.time",
}

func newBatchCmd() *cobra.Command { return newBatchLikeCmd(false) }

func newCheckCmd() *cobra.Command { return newBatchLikeCmd(true) }

func newBatchLikeCmd(check bool) *cobra.Command {
	var cfgFile string
	cmd := &cobra.Command{
		Use:   "batch [-c FILE] [MODEL|FOLDER|MAP...]",
		Short: "Render many models from a config file: thumbnails, sheets, animations, manifest, gallery",
		Long: `Render every model a batch config names (see configs/ for documented
examples), plus MODEL arguments, the models under FOLDER arguments and every
model in MAP arguments (a packed .w3x/.w3m map or an .mpq; MAP:path/in/map.mdx
names one), relative to the working directory, with a pool of workers. Output files do not
depend on the number of workers. A model that fails is reported in
manifest.json and the batch goes on; the exit status is 1 if any model
failed. Unchanged models (same model and texture bytes, options and program
version) are skipped unless --force. Ctrl-C or SIGTERM stops cleanly: no
partial files are left, and the next run resumes.

Settings come from flags, then MDXR_* environment variables (render.size ->
MDXR_RENDER_SIZE), then the file, then built-in defaults. --shard i/n (or
JOB_COMPLETION_INDEX with MDXR_SHARD_COUNT) renders one share of the inputs;
'mdxrender merge' joins the shards' manifests.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBatchCmd(cmd, cfgFile, args, check)
		},
	}
	if check {
		cmd.Use = "check -c FILE [--golden DIR] [--update]"
		cmd.Short = "Render a batch and compare it with golden images (JUnit, Markdown, gallery)"
		cmd.Long = `Render a batch like 'mdxrender batch', then compare each still and sheet
PNG with the golden image of the same relative path under --golden
(check.golden). A pixel differs when a channel (premultiplied) differs by
more than --tolerance; an output fails when the share of differing pixels
exceeds --max-mismatch. Each failure gets a .diff.png; junit.xml,
summary.md and index.html (failures first) are written to the output folder.
The exit status is 1 on any regression, missing golden or failed model.
--update rewrites the goldens instead.`
	}
	f := cmd.Flags()
	f.StringVarP(&cfgFile, "config", "c", "", "batch config file (.yaml, .toml or .json)")
	f.Int("jobs", 0, "models rendered at once (0 = number of CPUs)")
	f.String("shard", "", "render share i/n of the inputs (by path hash)")
	f.Bool("force", false, "re-render models whose cache entry is still valid")
	f.StringP("out", "o", "out", "output folder")
	f.StringSlice("format", []string{"png"}, "outputs: png, sheet, gif, apng (comma-separated)")
	f.Int("size", 256, "image size in pixels")
	f.Int("ssaa", 1, "supersampling factor")
	f.String("bg", "transparent", "background: transparent, #rrggbb or #rrggbbaa")
	f.StringSlice("textures", nil, "texture folders, maps (.w3x/.w3m) or MPQs searched after the model's folder and map")
	f.String("game-data", "", "the game's files, searched last: a classic install's folder (its MPQs) or a folder of extracted game files")
	f.String("sequences", "stand", "sequences to render: stand, all or match (pattern from the config)")
	f.Bool("particles", true, "simulate and draw particle emitters and ribbons (--particles=false: geometry only)")
	f.Int("seed", 6, "seed of the particle random generator")
	f.Float64("step-ms", 1000.0/60, "fixed particle simulation step in ms")
	f.Float64("preroll-ms", -1, "ms simulated before the sequence start (negative: one particle lifetime, looping sequences only)")
	f.String("time", "0", "where in its sequence the still is taken: ms after the start, or a share like 50%")
	(&limitFlags{}).register(f) // read back by applyLimitFlag
	if check {
		f.String("golden", "", "folder of golden images")
		f.Bool("update", false, "rewrite the golden images")
		f.Int("tolerance", 2, "largest per-channel difference still equal (0-255)")
		f.Float64("max-mismatch", 0.001, "share of differing pixels still accepted (0-1)")
	}
	return cmd
}

func runBatchCmd(cmd *cobra.Command, cfgFile string, args []string, check bool) error {
	keys := map[string]string{}
	for flag, key := range batchFlagKeys {
		if cmd.Flags().Lookup(flag) != nil {
			keys[flag] = key
		}
	}
	cfg, err := loadConfig(configLayers{File: cfgFile, Flags: cmd.Flags(), FlagKeys: keys, Args: args})
	if err != nil {
		return err
	}
	if err := applyLimitFlag(cmd, &cfg.Limits); err != nil {
		return err
	}
	if check && cfg.Check.Golden == "" {
		return fmt.Errorf("check: no golden folder: give --golden DIR or check.golden in the config")
	}
	r := &batch.Runner{Config: cfg, Renderer: mdxrender.NewBatchRenderer(int64(cfg.TextureCacheMB)<<20, cfg.Jobs), Version: version, Check: check}
	if cfg.Shard == "" {
		sh, ok, err := batch.ShardFromEnv(os.LookupEnv)
		if err != nil {
			return err
		}
		if ok {
			r.Shard = sh
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	obs := newProgress(cmd.ErrOrStderr())
	r.Observer = obs
	m, err := r.Run(ctx)
	obs.finish()
	if ctx.Err() != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "mdxrender: interrupted; finished models are cached, run again to resume")
		return exitCodeError{130}
	}
	if err != nil {
		return err
	}
	s := m.Summary
	fmt.Fprintf(cmd.OutOrStdout(), "%d models: %d rendered, %d unchanged, %d failed, %d warnings", s.Models, s.OK, s.Cached, s.Failed, s.Warnings)
	if check {
		fmt.Fprintf(cmd.OutOrStdout(), "; %d checks, %d regressions, %d updated", s.Checks, s.Regressions, s.Updated)
	}
	fmt.Fprintf(cmd.OutOrStdout(), " (manifest: %s)\n", batch.ManifestName(m))
	for _, res := range m.Models {
		for _, e := range res.Errors {
			if !strings.Contains(e, res.Input) { // most errors name the file already
				e = res.Input + ": " + e
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: %s\n", e)
		}
		for _, c := range res.Checks {
			if c.Failed() {
				fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: %s: %s: %s %s\n", res.Input, c.Output, c.Status, c.Message)
			}
		}
	}
	if m.Failed() {
		return exitCodeError{1}
	}
	return nil
}

// progress reports a batch: a bar when stderr is a terminal, otherwise one
// log/slog line per model (CI logs, files).
type progress struct {
	bar *progressbar.ProgressBar
	log *slog.Logger
	w   io.Writer
	n   int
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		p.log = slog.New(slog.NewTextHandler(w, nil))
	}
	return p
}

func (p *progress) Planned(total int) {
	if p.log != nil {
		p.log.Info("batch planned", "models", total)
		return
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("rendering"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish())
}

func (p *progress) Finished(r *batch.ModelResult) {
	p.n++
	if p.log != nil {
		attrs := []any{"n", p.n, "model", r.Input, "status", r.Status, "outputs", len(r.Outputs), "warnings", len(r.Warnings), "ms", int(r.Timings.TotalMS)}
		if len(r.Errors) > 0 {
			attrs = append(attrs, "error", r.Errors[0])
			p.log.Error("model failed", attrs...)
			return
		}
		p.log.Info("model done", attrs...)
		return
	}
	if p.bar != nil {
		p.bar.Add(1)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

var _ batch.Observer = (*progress)(nil)
