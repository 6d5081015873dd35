package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

func newTextureCmd() *cobra.Command {
	var (
		out  string
		mip  int
		info bool
		lf   limitFlags
	)
	cmd := &cobra.Command{
		Use:   "texture IN -o OUT.png",
		Short: "Convert a BLP, DDS, TGA, PNG or JPEG texture to PNG",
		Long: `Decode a texture (BLP1, BLP2, DDS, TGA, PNG or JPEG; the format is taken
from the file's contents, not its name) and write one mip level as a
straight-alpha RGBA PNG. IN may name a file inside an archive as
map.w3x:path/in/map.blp. With --info, print the format, size and mip count
instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := args[0]
			if !info {
				if out == "" {
					return usageErrorf("-o OUT.png is required: the file the picture is written to (or --info)")
				}
				if err := checkPNGName(out); err != nil {
					return err
				}
			}
			file, closer, err := mdxrender.OpenFile(in)
			if err != nil {
				return err
			}
			defer closer.Close()
			if info {
				cfg, err := file.DecodeConfig()
				if err != nil {
					return err
				}
				printf(cmd.OutOrStdout(), "%s\t%s\t%dx%d\t%d levels\n", in, cfg.Format, cfg.Width, cfg.Height, cfg.Levels)
				return nil
			}
			lim, err := lf.limits()
			if err != nil {
				return usageError{err}
			}
			opt := texture.OptionsWithin(lim)
			opt.FirstLevelOnly = mip == 0
			tex, err := file.Decode(&opt, budget.NewMeter(lim))
			if err != nil {
				return limitHint(err)
			}
			if tex.LevelErr != nil {
				printWarning(cmd.ErrOrStderr(), in, render.Warning{Code: render.BadTexture, Message: tex.LevelErr.Error()}, false)
			}
			if mip < 0 || mip >= len(tex.Levels) {
				return fmt.Errorf("texture: %s has %d mip levels; --mip %d is out of range", in, len(tex.Levels), mip)
			}
			return mdxrender.WritePNG(out, tex.Levels[mip])
		},
	}
	addShared(cmd.Flags(), "texture", "output", &out)
	cmd.Flags().IntVar(&mip, "mip", 0, "mip level to write (0 = full size)")
	cmd.Flags().BoolVar(&info, "info", false, "print format, size and mip count instead of converting")
	lf.register(cmd.Flags(), "texture")
	return cmd
}
