package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/spf13/cobra"
)

func newSheetCmd() *cobra.Command {
	var (
		out      string
		seqs     string
		formats  []string
		textures []string
		cfg      = batch.DefaultConfig()
		pf       particleFlags
	)
	cmd := &cobra.Command{
		Use:   "sheet MODEL -o DIR [--sequence Walk,Attack*] [--frames 16 | --fps 12] [--cols 4] [--yaws 0,45,...]",
		Short: "Render animation sprite sheets (TexturePacker JSON for Phaser/PixiJS) and GIF/APNG previews",
		Long: `Render the chosen sequences of a model into one sprite sheet: one row per
sequence (wrapped after --cols frames), one block of rows per --yaws angle
(e.g. 8 directions for isometric games). All frames of a sheet share one
camera, so the model does not jump. Frames are sampled evenly over each
sequence's interval (--frames) or at a fixed rate (--fps); frame durations
add up to the sequence length.

The camera fits the silhouette of everything the sheet draws, less
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
transparency; APNG: full alpha). docs/batch.md shows the engine snippets.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("sheet: -o DIR is required")
			}
			cfg.Inputs.Files = args
			cfg.Output.Dir = out
			cfg.Output.Name = "{name}"
			cfg.Output.Formats = formats
			cfg.Output.Gallery = false
			cfg.TextureRoots = textures
			if err := pf.config(&cfg.Render); err != nil {
				return fmt.Errorf("sheet: %w", err)
			}
			if cfg.Render.Margin < 0 {
				return fmt.Errorf("sheet: --margin %g: want a share of the picture from 0 to below 0.5", cfg.Render.Margin)
			}
			cfg.Force = true
			cfg.Jobs = 1
			cfg.Sequences = batch.Sequences{Select: batch.SelectAll}
			if seqs != "" {
				cfg.Sequences = batch.Sequences{Select: batch.SelectMatch, Pattern: seqs}
			}
			if err := cfg.Validate(); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			r := &batch.Runner{Config: &cfg, Renderer: mdxrender.NewBatchRenderer(int64(cfg.TextureCacheMB)<<20, cfg.Jobs), Version: version}
			m, err := r.Run(ctx)
			if ctx.Err() != nil {
				return exitCodeError{130}
			}
			if err != nil {
				return err
			}
			// The batch manifest is not wanted for one model; its content
			// is printed instead.
			os.Remove(filepath.Join(out, batch.ManifestName(m)))
			res := m.Models[0]
			for _, w := range res.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: warning: %s: %s\n", args[0], w.Message)
			}
			if res.Status == batch.StatusFailed {
				for _, e := range res.Errors {
					fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: %s: %s\n", args[0], e)
				}
				return exitCodeError{1}
			}
			if len(res.Sequences) == 0 && seqs != "" {
				return fmt.Errorf("sheet: %s has no sequence matching %q", args[0], seqs)
			}
			for _, o := range res.Outputs {
				fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(out, filepath.FromSlash(o.Path)))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output folder")
	f.StringVar(&seqs, "sequence", "", "sequences: comma-separated names or globs, case-blind (default all)")
	f.IntVar(&cfg.Sheet.Frames, "frames", 8, "frames per sequence, evenly over its interval")
	f.Float64Var(&cfg.Sheet.FPS, "fps", 0, "sample at this rate instead of --frames")
	f.IntVar(&cfg.Sheet.Cols, "cols", 0, "wrap each sequence after this many frames (0 = no wrap)")
	f.Float64SliceVar(&cfg.Sheet.Yaws, "yaws", nil, "yaw angles in degrees, one block of rows each (default --yaw)")
	f.StringSliceVar(&formats, "format", []string{"sheet"}, "outputs: sheet, gif, apng, png (comma-separated)")
	f.IntVar(&cfg.Render.Size, "size", 128, "frame size in pixels")
	f.IntVar(&cfg.Render.SSAA, "ssaa", 1, "supersampling factor")
	f.Float64Var(&cfg.Render.Yaw, "yaw", 0, "camera yaw in degrees")
	f.Float64Var(&cfg.Render.Pitch, "pitch", 0, "camera pitch in degrees")
	f.StringVar(&cfg.Render.Background, "bg", "transparent", "background: transparent, #rrggbb or #rrggbbaa")
	f.StringVar(&cfg.Render.TeamColor, "team", "", "team colour: player index 0-24, name or #rrggbb")
	f.StringArrayVar(&textures, "textures", nil, "texture folder, map (.w3x/.w3m) or MPQ searched after the model's folder and map (repeatable)")
	f.StringVar(&cfg.GameData, "game-data", "", "the game's files, searched last: a classic install's folder (its MPQs) or a folder of extracted game files")
	f.Float64Var(&cfg.Render.Margin, "margin", cfg.Render.Margin, "share of a frame's width and height left free on each side of the model (0 to below 0.5)")
	f.Float64Var(&cfg.Render.Zoom, "zoom", cfg.Render.Zoom, "scale the framed model (2 = twice as large, cropped)")
	f.BoolVar(&cfg.Sheet.Trim, "trim", cfg.Sheet.Trim, "crop frames to their pixels and pack them (--trim=false: a plain grid)")
	f.IntVar(&cfg.Sheet.MaxSize, "max-size", cfg.Sheet.MaxSize, "largest sheet side in pixels; a larger sheet is split into pages")
	f.StringSliceVar(&cfg.Sheet.Metadata, "metadata", cfg.Sheet.Metadata, "sheet descriptions: texturepacker, aseprite, godot, plain")
	pf.register(f)
	return cmd
}
