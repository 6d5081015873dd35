package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/render"
)

func newSheetCmd() *cobra.Command {
	var (
		common   commonFlags
		formats  []string
		metadata []string
		framing  string
		yaws     string
		cfg      = batch.DefaultOptions()
	)
	cmd := &cobra.Command{
		Use:   "sheet MODEL -o DIR [--sequence Walk,Attack*] [--frames 16 | --fps 12] [--cols 4] [--yaws 0,45,...]",
		Short: "Render animation sprite sheets (TexturePacker JSON for Phaser/PixiJS) and GIF/APNG previews",
		Long: `Render the chosen sequences of a model into one sprite sheet: one row per
sequence (wrapped after --cols frames), one block of rows per --yaws angle
(e.g. 8 directions for isometric games). The frames of a sequence share one
camera, every yaw of it, so the model does not jump within an animation;
--framing shared gives the whole sheet one camera, so the model keeps one
size across animations. Frames are sampled evenly over each
sequence's interval (--frames) or at a fixed rate (--fps); frame durations
add up to the sequence length.

The camera fits the silhouette of everything its frames draw, less
--margin on each side, scaled by --zoom. Frames are trimmed to their pixels
(--trim=false keeps the grid) and every frame's pivot is the model's origin,
the ground point under a unit. A sheet larger than --max-size is split into
pages (NAME-sheet-0.png, ...), each animation on one.

Writes NAME-sheet.png and, per --metadata: NAME-sheet.json (TexturePacker
"JSON hash" with trim, pivot/anchor and durations in ms, for Phaser
load.atlas and PixiJS Assets.load), NAME-sheet.aseprite.json (Phaser
load.aseprite + anims.createFromAseprite), NAME-sheet.tres (Godot 4
SpriteFrames) and NAME-sheet.plain.json. --format gif and/or apng add one
animated preview per sequence and yaw (GIF: 256 dithered colours and 1-bit
transparency; APNG: full alpha). docs/batch.md shows the engine snippets.
The options shared with render and batch mean the same on each
(docs/cli.md). Exit status: 0, 1 if the model could not be rendered, 2 for
a usage error, 130 if interrupted.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := common.output
			if out == "" {
				return usageErrorf("-o DIR is required: the folder the sheet is written into")
			}
			cfg.Inputs.Files = args
			cfg.Output.Dir = out
			cfg.Output.Name = "{name}"
			cfg.Output.Formats = nil
			for _, f := range formats {
				cfg.Output.Formats = append(cfg.Output.Formats, batch.Format(strings.TrimSpace(f)))
			}
			cfg.Output.Gallery = false
			cfg.Sheet.Metadata = nil
			for _, m := range metadata {
				cfg.Sheet.Metadata = append(cfg.Sheet.Metadata, batch.Metadata(strings.TrimSpace(m)))
			}
			var errs []error
			var err error
			if cfg.Sheet.Framing, err = render.ParseRunFraming(framing); err != nil {
				errs = append(errs, flagError("framing", err))
			}
			if cfg.Sheet.Yaws, err = parseYaws(yaws); err != nil {
				errs = append(errs, err)
			}
			if err := common.renderOptions(&cfg.Render); err != nil {
				errs = append(errs, err)
			}
			if err := common.limits.apply(&cfg.Limits); err != nil {
				errs = append(errs, err)
			}
			if len(errs) > 0 {
				return usageError{errors.Join(errs...)}
			}
			if err := checkRunFlags(cmd.Flags(), cfg.Output.Formats, len(cfg.Sheet.Yaws) > 0); err != nil {
				return err
			}
			roots, err := absPaths(common.textures)
			if err != nil {
				return err
			}
			cfg.TextureRoots = roots
			if common.gameData != "" {
				if cfg.GameData, err = filepath.Abs(common.gameData); err != nil {
					return err
				}
			}
			cfg.NoMapRoot = !common.mapRoot
			cfg.Force = true
			cfg.Jobs = 1
			sel, pattern := sequenceSelection(common.sequence)
			cfg.Sequences = batch.Sequences{Select: sel, Patterns: forms.Patterns(pattern)}
			if err := checkFlags(&cfg); err != nil {
				return err
			}
			// The command line's mistakes first, then the model's.
			if err := checkModelArg(args[0]); err != nil {
				return err
			}
			if lim, err := common.limits.limits(); err == nil {
				warnIgnoredAngles(cmd.ErrOrStderr(), cmd.Flags(), args[0], lim)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			r := &batch.Runner{Options: &cfg, Version: version}
			m, err := r.Run(ctx)
			if ctx.Err() != nil {
				return exitCodeError{130}
			}
			if err != nil {
				return err
			}
			// The batch manifest is not wanted for one model; its content
			// is printed instead.
			mm, err := batch.ReadManifest(cfg.ManifestPath(m))
			if d, err := atomicfile.Open(out); err == nil {
				d.Remove(batch.ManifestName(m))
				d.Close()
			}
			if err != nil {
				return fmt.Errorf("reading the batch's manifest: %w", err)
			}
			if len(mm.Models) != 1 {
				return fmt.Errorf("the batch's manifest lists %d models, not 1", len(mm.Models))
			}
			res := mm.Models[0]
			for _, w := range res.Warnings {
				printWarning(cmd.ErrOrStderr(), args[0], w, common.verbose)
			}
			if res.Status == batch.StatusFailed {
				for _, e := range res.Errors {
					printf(cmd.ErrOrStderr(), "mdxrender: sheet: %s: %s\n", args[0], e)
				}
				return exitCodeError{1}
			}
			for _, o := range res.Outputs {
				printf(cmd.OutOrStdout(), "%s\n", filepath.Join(out, filepath.FromSlash(o.Path)))
			}
			return nil
		},
	}
	f := cmd.Flags()
	common.register(f, "sheet")
	addShared(f, "sheet", "frames", &cfg.Sheet.Frames)
	addShared(f, "sheet", "fps", &cfg.Sheet.FPS)
	addShared(f, "sheet", "cols", &cfg.Sheet.Cols)
	addShared(f, "sheet", "yaws", &yaws)
	addShared(f, "sheet", "format", &formats)
	addShared(f, "sheet", "trim", &cfg.Sheet.Trim)
	addShared(f, "sheet", "max-size", &cfg.Sheet.MaxSize)
	addShared(f, "sheet", "metadata", &metadata)
	addShared(f, "sheet", "framing", &framing)
	return cmd
}
