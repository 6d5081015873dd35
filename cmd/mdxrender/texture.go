package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/texture"
	"github.com/spf13/cobra"
)

func newTextureCmd() *cobra.Command {
	var (
		out  string
		mip  int
		info bool
	)
	cmd := &cobra.Command{
		Use:   "texture IN -o OUT.png",
		Short: "Convert a BLP, DDS, TGA, PNG or JPEG texture to PNG",
		Long: `Decode a texture (BLP1, BLP2, DDS, TGA, PNG or JPEG; the format is taken
from the file's contents, not its name) and write one mip level as a
straight-alpha RGBA PNG. With --info, print the format, size and mip count
instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := args[0]
			if info {
				cfg, err := texture.DecodeFileConfig(in)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\t%dx%d\t%d levels\n", in, cfg.Format, cfg.Width, cfg.Height, cfg.Levels)
				return nil
			}
			if out == "" {
				return fmt.Errorf("texture: -o OUT.png is required")
			}
			tex, err := texture.DecodeFile(in, &texture.Options{FirstLevelOnly: mip == 0})
			if err != nil {
				return err
			}
			if tex.LevelErr != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "mdxrender: warning:", tex.LevelErr)
			}
			if mip < 0 || mip >= len(tex.Levels) {
				return fmt.Errorf("texture: %s has %d mip levels; --mip %d is out of range", in, len(tex.Levels), mip)
			}
			return writePNGAtomic(out, tex, mip)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "output PNG file")
	cmd.Flags().IntVar(&mip, "mip", 0, "mip level to write (0 = full size)")
	cmd.Flags().BoolVar(&info, "info", false, "print format, size and mip count instead of converting")
	return cmd
}

// writePNGAtomic writes through a temporary file in the target folder and
// renames it, so a failed run never leaves a half-written PNG.
func writePNGAtomic(path string, tex *texture.Texture, mip int) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".mdxrender-*.png")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := png.Encode(f, tex.Levels[mip]); err != nil {
		f.Close()
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
