package main

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRenderCmd() *cobra.Command {
	var (
		out      string
		size     string
		target   string
		light    string
		bg       string
		opt      render.Options
		textures []string
		pf       particleFlags
		timeArg  string
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
textures, skipped parts) go to stderr; the exit status is 0 only when the
image was written. The PNG is written atomically.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("render: -o OUT.png is required")
			}
			var err error
			if opt.Width, opt.Height, err = parseSize(size); err != nil {
				return err
			}
			if target != "" {
				v, err := parseVec3(target)
				if err != nil {
					return fmt.Errorf("render: --target: %w", err)
				}
				opt.Target = &v
			}
			if light != "" {
				v, err := parseVec3(light)
				if err != nil {
					return fmt.Errorf("render: --light: %w", err)
				}
				opt.Light = &v
			}
			if opt.Background, err = parseBackground(bg); err != nil {
				return err
			}
			switch opt.Fit {
			case "", render.FitVertices, render.FitExtent, render.FitSequence:
			default:
				return fmt.Errorf("render: --fit %q: want vertices, extent or sequence", opt.Fit)
			}
			opt.TextureRoots = textures
			if err := pf.apply(&opt); err != nil {
				return fmt.Errorf("render: %w", err)
			}
			m, err := readModel(args[0])
			if err != nil {
				return err
			}
			if opt.Time, err = parseRenderTime(m, opt.Sequence, timeArg); err != nil {
				return err
			}
			img, warns, err := render.Render(m, args[0], opt)
			for _, w := range warns {
				fmt.Fprintln(cmd.ErrOrStderr(), "mdxrender: warning:", args[0]+":", w)
			}
			if err != nil {
				return err
			}
			if batch.Blank(img) {
				fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: warning: %s: the picture shows nothing (at --time %g the model may be hidden or not yet emitting; or the camera misses it)\n", args[0], opt.Time)
			}
			return writeFileAtomic(out, func(w io.Writer) error {
				return png.Encode(w, img)
			})
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "output PNG file")
	f.StringVar(&size, "size", "256", "image size: N or WxH")
	f.Float64Var(&opt.Yaw, "yaw", 0, "camera yaw in degrees (0 = from +X, the model's front)")
	f.Float64Var(&opt.Pitch, "pitch", 0, "camera elevation in degrees")
	f.Float64Var(&opt.Fov, "fov", 0, "vertical field of view in degrees (0 = 45, or the --camera's own)")
	f.Float64Var(&opt.Distance, "distance", 0, "camera distance (0 = fit the box)")
	f.StringVar(&target, "target", "", "look-at point x,y,z (default: fit box centre)")
	f.Float64Var(&opt.Near, "near", 0, "near clip distance (0 = distance/100)")
	f.Float64Var(&opt.Far, "far", 0, "far clip distance (0 = distance + 4R + 10)")
	f.StringVar(&opt.Fit, "fit", render.FitVertices, "fit box: vertices (posed geometry), extent or sequence")
	f.BoolVar(&opt.Ortho, "ortho", false, "orthographic projection")
	f.StringVar(&opt.Camera, "camera", "", "use the model's camera (name or index) instead of the orbit camera")
	f.StringVar(&opt.Sequence, "sequence", "", "sequence name or index (-1 = bind pose; default 0)")
	f.StringVar(&timeArg, "time", "0", "time in ms into the sequence (also the global-sequence phase), or a share of the sequence like 50%")
	f.IntVar(&opt.Team, "team", 0, "team colour (player 0-23, 24 neutral)")
	f.StringVar(&bg, "bg", "transparent", "background: transparent or #RRGGBB")
	f.StringArrayVar(&textures, "textures", nil, "texture folder searched before the model's folder (repeatable)")
	f.IntVar(&opt.SSAA, "ssaa", render.DefaultSSAA, "supersampling factor")
	f.StringVar(&light, "light", "", "light position x,y,z (default 0,0,10000)")
	pf.register(f)
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

// apply validates the flags and copies them into opt.
func (p *particleFlags) apply(opt *render.Options) error {
	step, err := parseStepMs(p.step)
	if err != nil {
		return err
	}
	pre, err := parsePrerollMs(p.preroll)
	if err != nil {
		return err
	}
	opt.Particles, opt.Seed, opt.StepMs, opt.PrerollMs = p.on, p.seed, step, pre
	return nil
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

// readModel reads an MDX, MDL or M2 file (told apart by content, through
// pkg/model) with the file-size limit checked before reading.
func readModel(path string) (*mdx.Model, error) { return model.Load(path) }

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

func parseBackground(s string) (*color.NRGBA, error) {
	if s == "" || strings.EqualFold(s, "transparent") {
		return nil, nil
	}
	h := strings.TrimPrefix(s, "#")
	if len(h) != 6 {
		return nil, fmt.Errorf("render: --bg %q: want transparent or #RRGGBB", s)
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return nil, fmt.Errorf("render: --bg %q: want transparent or #RRGGBB", s)
	}
	return &color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}, nil
}

// parseRenderTime reads --time: ms into the sequence (any finite number; a
// looping sequence wraps), or a share of the chosen sequence's length
// ("50%"), which needs the model to resolve.
func parseRenderTime(m *mdx.Model, seq, s string) (float64, error) {
	if strings.HasSuffix(strings.TrimSpace(s), "%") {
		st, err := batch.ParseStillTime(s)
		if err != nil {
			return 0, fmt.Errorf("render: --time: %w", err)
		}
		i, err := render.SequenceIndex(m, seq)
		if err != nil || i < 0 {
			return 0, err // the renderer reports a bad sequence; the bind pose has no length
		}
		iv := m.Sequences[i].Interval
		return float64(st.At(iv[0], iv[1]) - iv[0]), nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("render: --time %q: want ms into the sequence or a share like 50%%", s)
	}
	return v, nil
}
