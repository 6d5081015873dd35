package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

func newRenderCmd() *cobra.Command {
	var (
		out      string
		size     string
		target   string
		light    string
		bg       string
		fit      string
		seq      string
		v        mdxrender.View
		textures []string
		pf       particleFlags
		timeArg  string
		team     string
		gameData string
		lf       limitFlags
	)
	cmd := &cobra.Command{
		Use:   "render MODEL -o OUT.png",
		Short: "Render a still image of a Warcraft III or early WoW model (MDX, MDL, M2)",
		Long: `Pose a model at a time in a sequence and render it on the CPU to a PNG.
MODEL is MDX, MDL or a pre-Wrath WoW M2, told apart by content. A flat WoW
model (lying in the XY plane) is seen from above unless --pitch is non-zero.
The camera follows the reference harness's convention: +Z up, yaw 0 looks at
the model's front from +X, pitch is elevation, --fov is vertical, and the
distance is chosen to fit the --fit box unless given. Warnings (missing
textures, skipped parts, a picture that shows nothing) go to stderr; the
exit status is 0 only when the image was written. The PNG is written
atomically.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("render: -o OUT.png is required")
			}
			var err error
			if v.Width, v.Height, err = parseSize(size); err != nil {
				return err
			}
			if target != "" {
				t, err := parseVec3(target)
				if err != nil {
					return fmt.Errorf("render: --target: %w", err)
				}
				v.Target = &t
			}
			if light != "" {
				l, err := parseVec3(light)
				if err != nil {
					return fmt.Errorf("render: --light: %w", err)
				}
				v.Light = &l
			}
			if v.Background, err = render.ParseBackground(bg); err != nil {
				return fmt.Errorf("render: --bg: %w", err)
			}
			if v.Team, err = texture.ParseTeam(team); err != nil {
				return fmt.Errorf("render: --team: %w", err)
			}
			if v.Fit, err = render.ParseFit(fit); err != nil {
				return fmt.Errorf("render: --fit: %w", err)
			}
			v.Sequence = render.ParseSequence(seq)
			if v.Time, err = render.ParseTime(timeArg); err != nil {
				return fmt.Errorf("render: --time: %w", err)
			}
			if v.Particles, err = pf.particles(); err != nil {
				return fmt.Errorf("render: %w", err)
			}
			lim, err := lf.limits()
			if err != nil {
				return fmt.Errorf("render: %w", err)
			}
			srcs, err := openTextureSources(textures, gameData)
			if err != nil {
				return fmt.Errorf("render: %w", err)
			}
			defer srcs.Close()
			m, err := mdxrender.Open(args[0], &mdxrender.Options{Textures: srcs.List, Limits: lim})
			if err != nil {
				return limitHint(err)
			}
			defer m.Close()
			img, warns, err := m.Render(v)
			for _, w := range warns {
				fmt.Fprintln(cmd.ErrOrStderr(), "mdxrender: warning:", args[0]+":", w)
			}
			if err != nil {
				return limitHint(err)
			}
			return mdxrender.WritePNG(out, img)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output PNG file")
	f.StringVar(&size, "size", "256", "image size: N or WxH")
	f.Float64Var(&v.Yaw, "yaw", 0, "camera yaw in degrees (0 = from +X, the model's front)")
	f.Float64Var(&v.Pitch, "pitch", 0, "camera elevation in degrees")
	f.Float64Var(&v.Fov, "fov", 0, "vertical field of view in degrees (0 = 45, or the --camera's own)")
	f.Float64Var(&v.Distance, "distance", 0, "camera distance (0 = fit the box)")
	f.StringVar(&target, "target", "", "look-at point x,y,z (default: fit box centre)")
	f.Float64Var(&v.Near, "near", 0, "near clip distance (0 = distance/100)")
	f.Float64Var(&v.Far, "far", 0, "far clip distance (0 = distance + 4R + 10)")
	f.StringVar(&fit, "fit", render.FitVertices.String(), "fit box: vertices (posed geometry), extent or sequence")
	f.BoolVar(&v.Ortho, "ortho", false, "orthographic projection")
	f.StringVar(&v.Camera, "camera", "", "use the model's camera (name or index) instead of the orbit camera")
	f.StringVar(&seq, "sequence", "", "sequence name or index (-1 = bind pose; default 0)")
	f.StringVar(&timeArg, "time", "0", "time in ms into the sequence (also the global-sequence phase), or a share of the sequence like 50%")
	f.StringVar(&team, "team", "0", "team colour: player index 0-24 (24 neutral), a colour name (red, blue, ...) or #rrggbb")
	f.StringVar(&bg, "bg", "transparent", "background: transparent, #rrggbb or #rrggbbaa")
	f.StringArrayVar(&textures, "textures", nil, "texture folder, map (.w3x/.w3m) or MPQ searched after the model's folder and map (repeatable)")
	f.StringVar(&gameData, "game-data", "", "the game's files, searched last: a classic install's folder (its MPQs) or a folder of extracted game files")
	f.IntVar(&v.SSAA, "ssaa", render.DefaultSSAA, "supersampling factor")
	f.StringVar(&light, "light", "", "light position x,y,z (default 0,0,10000)")
	pf.register(f)
	lf.register(f)
	return cmd
}

// particleFlags are the particle simulation options shared by render,
// sheet, batch and check (the reference harness's options of the same
// names, ../shared/tools/peer/README.md "Time stepping").
type particleFlags struct {
	on      bool
	seed    uint32
	step    string
	preroll string
}

func (p *particleFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&p.on, "particles", true, "simulate and draw particle emitters and ribbons (--particles=false: geometry only)")
	f.Uint32Var(&p.seed, "seed", particles.DefaultSeed, "seed of the particle random generator")
	f.StringVar(&p.step, "step-ms", "1000/60", "fixed simulation step in ms: a number or A/B")
	f.StringVar(&p.preroll, "preroll-ms", "auto", "ms simulated before the sequence start: a number (any sequence), or auto/negative (one particle lifetime, looping sequences only)")
}

// openTextureSources opens the texture folders, maps and archives given
// with --textures, then --game-data.
func openTextureSources(textures []string, gameData string) (*mdxrender.Sources, error) {
	srcs, err := mdxrender.OpenSources(textures...)
	if err != nil || gameData == "" {
		return srcs, err
	}
	g, err := mdxrender.OpenGameData(gameData)
	if err != nil {
		srcs.Close()
		return nil, err
	}
	return srcs.Append(g), nil
}

// config validates the flags and copies them into a batch's render
// options.
func (p *particleFlags) config(r *batch.RenderOptions) error {
	step, err := parseStepMs(p.step)
	if err != nil {
		return err
	}
	pre, err := parsePrerollMs(p.preroll)
	if err != nil {
		return err
	}
	r.Particles, r.Seed, r.StepMs, r.PrerollMs = p.on, int(p.seed), step, pre
	return nil
}

// particles validates the flags and returns what they ask for.
func (p *particleFlags) particles() (render.Particles, error) {
	step, err := parseStepMs(p.step)
	if err != nil {
		return render.Particles{}, err
	}
	pre, err := parsePrerollMs(p.preroll)
	if err != nil {
		return render.Particles{}, err
	}
	out := render.Particles{Off: !p.on, Seed: p.seed, StepMs: step, Preroll: render.PrerollAuto}
	if p.seed == 0 {
		out.Seed = render.ZeroSeed
	}
	switch {
	case pre == 0:
		out.Preroll = render.NoPreroll
	case pre > 0:
		out.Preroll = render.Preroll(pre)
	}
	return out, nil
}

// parseStepMs reads a step in ms, "16.5" or "1000/60".
func parseStepMs(s string) (float64, error) {
	a, b, frac := strings.Cut(strings.TrimSpace(s), "/")
	v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
	if err == nil && frac {
		var d float64
		d, err = strconv.ParseFloat(strings.TrimSpace(b), 64)
		if err == nil && d == 0 {
			err = fmt.Errorf("division by zero")
		}
		v /= d
	}
	if err != nil || !(v > 0) || math.IsInf(v, 0) || v > 60000 {
		return 0, fmt.Errorf("--step-ms %q: want a positive number of ms up to 60000, or A/B", s)
	}
	return v, nil
}

// parsePrerollMs reads "auto" or a negative number (−1) or a number of
// ms ≥ 0.
func parsePrerollMs(s string) (float64, error) {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		return -1, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err == nil && v < 0 {
		return -1, nil
	}
	if err != nil || math.IsNaN(v) || v > particles.MaxPrerollMs {
		return 0, fmt.Errorf("--preroll-ms %q: want auto or a number of ms from 0 to %d", s, particles.MaxPrerollMs)
	}
	return v, nil
}

func parseSize(s string) (int, int, error) {
	w, h, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		h = w
	}
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if err1 != nil || err2 != nil || wi < 1 || hi < 1 {
		return 0, 0, fmt.Errorf("render: --size %q: want N or WxH with positive integers", s)
	}
	return wi, hi, nil
}

func parseVec3(s string) ([3]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return [3]float64{}, fmt.Errorf("%q: want x,y,z", s)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return v, fmt.Errorf("%q: %w", s, err)
		}
		v[i] = f
	}
	return v, nil
}
