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
		lf       limitFlags
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

Writes NAME-sheet.png, NAME-sheet.json (TexturePacker "JSON hash": frames,
durations in ms, an animations map; Phaser load.atlas and PixiJS Spritesheet
read it) and NAME-sheet.plain.json. --format gif and/or apng add one
animated preview per sequence (GIF: 256 dithered colours and 1-bit
transparency; APNG: full alpha).`,
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
			if err := lf.apply(&cfg.Limits); err != nil {
				return fmt.Errorf("sheet: %w", err)
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
	pf.register(f)
	lf.register(f)
	return cmd
}
