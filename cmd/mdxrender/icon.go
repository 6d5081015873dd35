package main

import (
	"errors"
	"fmt"
	"image"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

func newIconCmd() *cobra.Command {
	var (
		out, name, kinds, shot      string
		bg, bgImage, dds            string
		team, sequence, timeStr     string
		camera, missing             string
		frames, textures            []string
		gameData                    string
		hd, palette, noPNG, mapRoot bool
		quality, alphaBits          int
		yaw, pitch                  float64
		particles, verbose          bool
		lf                          limitFlags
	)
	def := mdxrender.DefaultIconView()
	cmd := &cobra.Command{
		Use:   "icon MODEL -o DIR",
		Short: "Make Warcraft III command-card icons (BTN, DISBTN, PAS, DISPAS, ATC) of a model",
		Long: `Render a model through its portrait camera (its Name_Portrait.mdx beside it,
else its own camera named like Portrait), or else its head and shoulders, and
make command-card icons of it: BTN and DISBTN by default, --kinds for the
passive (PAS, DISPAS) and autocast (ATC) ones, --hd for Reforged's 256×256
versions too. The icons are written into DIR in the game's folders
(ReplaceableTextures/CommandButtons/BTNName.blp, .../CommandButtonsDisabled/
DISBTNName.blp, .../PassiveButtons/PASName.blp, and the HD ones as .dds under
_hd.w3mod/), with a PNG beside each, so DIR imports into a map as it is.
Name is the model's file name unless --name says otherwise. Each file is
written atomically, and nothing is written outside DIR.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var errs []error
			if out == "" {
				errs = append(errs, errors.New("-o DIR is required: the folder the icons are written into"))
			}
			if err := checkCameraAngles(cmd.Flags()); err != nil {
				errs = append(errs, err)
			}
			o := mdxrender.IconOptions{HD: hd, Frames: map[icon.Kind]image.Image{}}
			var err error
			if o.Kinds, err = forms.IconKinds(kinds); err != nil {
				errs = append(errs, flagError("kinds", err))
			}
			if o.Shot, err = forms.Shot(shot); err != nil {
				errs = append(errs, flagError("shot", err))
			}
			if o.Background, err = forms.IconBackground(bg); err != nil {
				errs = append(errs, flagError("bg", err))
			}
			files := mdxrender.IconFiles{NoPNG: noPNG, BLP: texture.BLPOptions{Palette: palette, Quality: quality, AlphaBits: alphaBits}}
			if files.DDS.Format, err = forms.DDSFormat(dds); err != nil {
				errs = append(errs, flagError("dds", err))
			}
			if name == "" {
				name = mdxrender.IconName(args[0])
			} else if err := mdxrender.CheckIconName(name); err != nil {
				errs = append(errs, flagError("name", err))
			}
			v := def
			v.Yaw, v.Pitch, v.Camera = yaw, pitch, camera
			if v.Team, err = forms.Team(team); err != nil {
				errs = append(errs, flagError("team", err))
			}
			v.Sequence = forms.Sequence(sequence)
			if v.Time, err = forms.StillTime(timeStr); err != nil {
				errs = append(errs, flagError("time", err))
			}
			if v.MissingTextures, err = render.ParseMissingTextures(missing); err != nil {
				errs = append(errs, flagError("missing-textures", err))
			}
			v.Particles.Off = !particles
			lim, err := lf.limits()
			if err != nil {
				errs = append(errs, err)
			}
			if len(errs) > 0 {
				return usageError{errors.Join(errs...)}
			}
			o.View = &v
			// Pictures of the user's: a background and frames, in any
			// texture format.
			if bgImage != "" {
				img, err := readPicture(bgImage, lim)
				if err != nil {
					return err
				}
				o.Background = icon.Picture(img)
			}
			for _, f := range frames {
				k, file, ok := strings.Cut(f, "=")
				kind, err := forms.IconKind(k)
				if !ok || err != nil {
					return usageErrorf("icon: --frame %q: want KIND=FILE, KIND one of btn, disbtn, pas, dispas, atc", f)
				}
				if o.Frames[kind], err = readPicture(file, lim); err != nil {
					return err
				}
			}
			src := commonFlags{textures: textures, gameData: gameData}
			roots, game, err := src.openTextureSources()
			if err != nil {
				return fmt.Errorf("icon: %w", err)
			}
			defer roots.Close()
			defer game.Close()
			m, err := mdxrender.Open(args[0], &mdxrender.Options{Textures: roots.List, GameData: game.List, NoMapRoot: !mapRoot, Within: within(args[0]), Limits: lim})
			if err != nil {
				return limitHint(err)
			}
			defer m.Close()
			set, warns, err := m.Icons(cmd.Context(), o)
			for _, w := range warns {
				printWarning(cmd.ErrOrStderr(), args[0], w, verbose)
			}
			if err != nil {
				return limitHint(err)
			}
			written, err := mdxrender.WriteIcons(cmd.Context(), out, name, set.Icons, files)
			for _, p := range written {
				printf(cmd.OutOrStdout(), "%s\n", p)
			}
			if err != nil {
				return err
			}
			if strings.HasPrefix(set.Framing, "the camera ") {
				if w, ok := idleAngles(cmd.Flags(), "the icon is seen through "+set.Framing+" (--shot head or whole: the orbit camera)"); ok {
					printWarning(cmd.ErrOrStderr(), args[0], w, false)
				}
			}
			printf(cmd.ErrOrStderr(), "mdxrender: %s: seen through %s\n", args[0], set.Framing)
			return nil
		},
	}
	f := cmd.Flags()
	addShared(f, "icon", "output", &out)
	f.StringVar(&name, "name", "", "the icons' name: BTN<name>.blp and so on (default: the model's file name)")
	f.StringVar(&kinds, "kinds", "btn,disbtn", "icon kinds, comma-separated: btn, disbtn, pas, dispas, atc, or all")
	f.BoolVar(&hd, "hd", false, "also write Reforged's 256×256 icons, as DDS under _hd.w3mod/")
	addShared(f, "icon", "shot", &shot)
	addShared(f, "icon", "bg", &bg)
	f.StringVar(&bgImage, "bg-image", "", "background picture (PNG, BLP, DDS, TGA or JPEG), scaled to cover the icon")
	f.StringArrayVar(&frames, "frame", nil, "KIND=FILE: your own frame for KIND, a picture with alpha drawn over the icon instead of ours (repeatable)")
	f.IntVar(&quality, "quality", texture.DefaultBLPQuality, "JPEG quality of the BLP icons, 1 to 100")
	f.BoolVar(&palette, "palette", false, "write palettised (256-colour) BLP instead of JPEG")
	f.IntVar(&alphaBits, "alpha-bits", 0, "alpha bits stored in the BLP: 0 or 8 (palettised also 1 or 4); icons are opaque")
	f.StringVar(&dds, "dds", texture.DDSDXT1.String(), "pixel format of the HD icons: dxt1 (as Reforged's own), dxt5 or bgra")
	f.BoolVar(&noPNG, "no-png", false, "do not write a PNG beside each icon")
	for name, p := range map[string]any{
		"team": &team, "sequence": &sequence, "time": &timeStr, "yaw": &yaw, "pitch": &pitch,
		"camera": &camera, "particles": &particles, "textures": &textures, "game-data": &gameData,
		"map-root": &mapRoot, "missing-textures": &missing, "verbose": &verbose,
	} {
		addShared(f, "icon", name, p)
	}
	lf.register(f, "icon")
	return cmd
}

// readPicture decodes a picture the user named (a background, a frame)
// in any texture format, within the limits.
func readPicture(path string, lim budget.Limits) (image.Image, error) {
	file, closer, err := mdxrender.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	opt := texture.OptionsWithin(lim)
	opt.FirstLevelOnly = true
	tex, err := file.Decode(&opt, budget.NewMeter(lim))
	if err != nil {
		return nil, limitHint(err)
	}
	return tex.Levels[0], nil
}
