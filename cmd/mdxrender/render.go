package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fogleman/fauxgl"
	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/render"
)

func newRenderCmd() *cobra.Command {
	var (
		common   commonFlags
		target   string
		light    string
		fit      string
		fov      float64
		distance float64
		near     float64
		far      float64
		ortho    bool
	)
	cmd := &cobra.Command{
		Use:   "render MODEL -o OUT.png",
		Short: "Render a still image of a Warcraft III or early WoW model (MDX, MDL, M2)",
		Long: `Pose a model at a time in a sequence and render it on the CPU to a PNG.
MODEL is MDX, MDL or a pre-Wrath WoW M2, told apart by content; MAP:path
names a model inside a packed map (.w3x/.w3m) or an MPQ. A flat WoW
model (lying in the XY plane) is seen from above unless --pitch is non-zero.
The camera follows the reference harness's convention: +Z up, yaw 0 looks at
the model's front from +X, pitch is elevation, --fov is vertical, and the
camera fits the silhouette of what is drawn, less --margin on each side,
scaled by --zoom; --distance or --target instead fits the bounding sphere
of the --fit box, as the reference harness does. A portrait model
(NAME_Portrait) is seen through its portrait camera unless --camera names
another (orbit: the orbit camera). Without --sequence the picture shows
Stand (else a portrait's Portrait, else the first sequence), as sheet and
batch do: the commands draw the same picture.
Textures are looked for in the --textures folders, maps and MPQs first,
then beside the model and at its map's root, then in --game-data. Warnings (missing textures, skipped parts, a picture that shows
nothing) go to stderr. Exit status: 0 when the image was written, 1 when
the model could not be rendered, 2 for a usage error. The PNG is written
atomically.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if common.output == "" {
				return usageErrorf("-o OUT.png is required: the file the picture is written to")
			}
			if err := checkPNGName(common.output); err != nil {
				return err
			}
			if err := checkCameraAngles(cmd.Flags()); err != nil {
				return err
			}
			var errs []error
			v, err := common.view()
			if err != nil {
				errs = append(errs, err)
			}
			v.Fov, v.Distance, v.Near, v.Far, v.Ortho = fov, distance, near, far, ortho
			if target != "" {
				t, err := forms.Vec3(target)
				if err != nil {
					errs = append(errs, flagError("target", err))
				}
				v.Target = &fauxgl.Vector{X: t[0], Y: t[1], Z: t[2]}
			}
			if light != "" {
				l, err := forms.Vec3(light)
				if err != nil {
					errs = append(errs, flagError("light", err))
				}
				v.Light = &fauxgl.Vector{X: l[0], Y: l[1], Z: l[2]}
			}
			if v.Fit, err = forms.Fit(fit); err != nil {
				errs = append(errs, flagError("fit", err))
			}
			if len(errs) > 0 {
				return usageError{errors.Join(errs...)}
			}
			lim, err := common.limits.limits()
			if err != nil {
				return usageError{err}
			}
			roots, game, err := common.openTextureSources()
			if err != nil {
				return fmt.Errorf("render: %w", err)
			}
			defer roots.Close()
			defer game.Close()
			m, err := mdxrender.Open(args[0], &mdxrender.Options{Textures: roots.List, GameData: game.List, NoMapRoot: !common.mapRoot, Within: within(args[0]), Limits: lim})
			if err != nil {
				return limitHint(err)
			}
			defer m.Close()
			if w, ok := ignoredAngles(cmd.Flags(), m.File.Model, m.Name, v); ok {
				printWarning(cmd.ErrOrStderr(), args[0], w, common.verbose)
			}
			img, warns, err := m.RenderContext(cmd.Context(), v)
			for _, w := range warns {
				printWarning(cmd.ErrOrStderr(), args[0], w, common.verbose)
			}
			if err != nil {
				return limitHint(err)
			}
			return mdxrender.WritePNG(common.output, img)
		},
	}
	f := cmd.Flags()
	common.register(f, "render")
	f.Float64Var(&fov, "fov", 0, "vertical field of view in degrees (0 = 45, or the --camera's own)")
	f.Float64Var(&distance, "distance", 0, "camera distance (0 = fit the box)")
	f.StringVar(&target, "target", "", "look-at point x,y,z (default: fit box centre)")
	f.Float64Var(&near, "near", 0, "near clip distance (0 = distance/100)")
	f.Float64Var(&far, "far", 0, "far clip distance (0 = distance + 4R + 10)")
	f.StringVar(&fit, "fit", render.FitVertices.String(), "what the camera fits: vertices (what is drawn), extent, sequence or head (head and shoulders)")
	f.BoolVar(&ortho, "ortho", false, "orthographic projection")
	f.StringVar(&light, "light", "", "light position x,y,z (default 0,0,10000)")
	return cmd
}

// within is the folder the search for a model's map may climb to: the
// current folder, for a model named by a path below it (a CI job runs in
// its checkout), else the model's own folder. Nothing above what the
// user works in is read.
func within(model string) string {
	if arch, _, ok := archivepath.Split(model); ok {
		model = arch
	}
	p := filepath.Clean(model)
	if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		return filepath.Dir(p)
	}
	return "."
}
