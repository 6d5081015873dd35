package main

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/mdxrender/mdxrender"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/particles"
)

// The vocabulary of render, sheet, batch and check: every option they
// share is registered here, once, with one name, one value form, one
// default and one help text, and read by the same parser (the one the
// batch configuration uses for the same key). docs/cli.md lists them.

// command tells the shared flags which command they are registered on;
// only the help of -o and --sequence differs.
type command int

const (
	cmdRender command = iota
	cmdSheet
	cmdBatch
	cmdCheck
)

// teamHelp and the other help texts are shared by every command.
const (
	teamHelp     = "team colour: player number 0-27 (24-27 neutral), a colour name (red, blue, teal, ..., peanut, neutral) or #rrggbb (default: player 0, red)"
	sizeHelp     = "picture size in pixels: N (square) or WxH, 8 to 8192 a side"
	bgHelp       = "background: transparent, #rrggbb or #rrggbbaa"
	texturesHelp = "texture folder, map (.w3x/.w3m) or MPQ, searched before the model's own folder and map so a reskin there wins (repeatable)"
	gameDataHelp = "the game's files, searched last: a classic install's folder (its MPQs) or a folder of extracted game files"
	timeHelp     = "where in the sequence the picture is taken: ms after its start (0 to 600000) or a share of it like 50%"
)

// commonFlags are the options render, sheet, batch and check share.
type commonFlags struct {
	output     string
	size       string
	ssaa       int
	yaw, pitch float64
	camera     string
	bg         string
	team       string
	time       string
	sequence   string
	textures   []string
	gameData   string
	margin     float64
	zoom       float64
	particles  particleFlags
	limits     limitFlags
}

// register adds the shared flags to f with the built-in defaults (those of
// render.View and batch.DefaultConfig, which agree).
func (c *commonFlags) register(f *pflag.FlagSet, cmd command) {
	def := batch.DefaultConfig()
	switch cmd {
	case cmdRender:
		f.StringVarP(&c.output, "output", "o", "", "output PNG file (required)")
		f.StringVar(&c.sequence, "sequence", "", "sequence name (exact, else the first starting so; case-blind) or index, -1 for the bind pose (default: Stand, else the first)")
	case cmdSheet:
		f.StringVarP(&c.output, "output", "o", "", "output folder (required)")
		f.StringVar(&c.sequence, "sequence", "all", "sequences: all, stand (Stand, else the first), or comma-separated names or globs like Walk,Attack* (case-blind)")
	default:
		f.StringVarP(&c.output, "output", "o", def.Output.Dir, "output folder (output.dir; relative to the working directory)")
		f.StringVar(&c.sequence, "sequence", batch.SelectStand, "sequences: stand (Stand, else the first), all, or comma-separated names or globs like Walk,Attack* (case-blind)")
	}
	f.StringVar(&c.size, "size", def.Render.Size.String(), sizeHelp)
	f.IntVar(&c.ssaa, "ssaa", def.Render.SSAA, "supersampling factor per axis, 1 to 8")
	f.Float64Var(&c.yaw, "yaw", 0, "camera yaw in degrees (0 looks at the model's front from +X)")
	f.Float64Var(&c.pitch, "pitch", 0, "camera elevation in degrees, -90 to 90")
	f.StringVar(&c.camera, "camera", "", "use the model's camera (name or index) instead of the orbit camera")
	f.StringVar(&c.bg, "bg", def.Render.Background, bgHelp)
	f.StringVar(&c.team, "team", "", teamHelp)
	f.StringVar(&c.time, "time", "0", timeHelp)
	f.StringArrayVar(&c.textures, "textures", nil, texturesHelp)
	f.StringVar(&c.gameData, "game-data", "", gameDataHelp)
	f.Float64Var(&c.margin, "margin", def.Render.Margin, "share of the picture's width and height left free on each side of the model, 0 to below 0.5 (not with render's --distance, --target or --camera)")
	f.Float64Var(&c.zoom, "zoom", def.Render.Zoom, "scale the framed model (2 = twice as large, cropped)")
	c.particles.register(f)
	c.limits.register(f)
	// Names used before the vocabulary was one: --out (batch) and
	// --sequences (batch) still work.
	f.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		switch name {
		case "out":
			name = "output"
		case "sequences":
			name = "sequence"
		}
		return pflag.NormalizedName(name)
	})
}

// flagError is a problem with one flag's value.
func flagError(name string, err error) error {
	return &batch.ConfigError{Where: "flag --" + name, Msg: err.Error()}
}

// renderOptions reads the shared flags into r, as the batch configuration
// holds them, checking each value with the parser of its key and then the
// ranges with the configuration's own checks, so that a value means the
// same, and is refused alike, on every command.
func (c *commonFlags) renderOptions(r *batch.RenderOptions) error {
	var errs []error
	w, h, err := forms.Size(c.size)
	if err != nil {
		errs = append(errs, flagError("size", err))
	}
	r.Size = batch.Size{W: w, H: h}
	r.SSAA, r.Yaw, r.Pitch, r.Camera = c.ssaa, c.yaw, c.pitch, c.camera
	r.Margin, r.Zoom = c.margin, c.zoom
	if _, err := forms.Background(c.bg); err != nil {
		errs = append(errs, flagError("bg", err))
	}
	r.Background = c.bg
	if _, err := forms.Team(c.team); err != nil {
		errs = append(errs, flagError("team", err))
	}
	r.TeamColor = c.team
	if _, err := forms.StillTime(c.time); err != nil {
		errs = append(errs, flagError("time", err))
	}
	r.Time = c.time
	if err := c.particles.config(r); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return r.Check(func(key string) string { return "flag --" + renderKeyFlags[key] })
}

// renderKeyFlags names the flag of each render.* key.
var renderKeyFlags = map[string]string{
	"render.size": "size", "render.ssaa": "ssaa", "render.background": "bg", "render.yaw": "yaw",
	"render.pitch": "pitch", "render.camera": "camera", "render.team_color": "team", "render.particles": "particles",
	"render.seed": "seed", "render.step_ms": "step-ms", "render.preroll_ms": "preroll-ms", "render.time": "time",
	"render.margin": "margin", "render.zoom": "zoom",
}

// sequenceSelection reads --sequence as sheet, batch and check take it.
func sequenceSelection(s string) batch.Sequences {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "", batch.SelectStand:
		return batch.Sequences{Select: batch.SelectStand}
	case batch.SelectAll:
		return batch.Sequences{Select: batch.SelectAll}
	case batch.SelectMatch: // the pattern comes from the configuration
		return batch.Sequences{Select: batch.SelectMatch}
	}
	return batch.Sequences{Select: batch.SelectMatch, Pattern: s}
}

// openTextureSources opens --textures (folders, maps, MPQs) and
// --game-data, named from the working directory.
func (c *commonFlags) openTextureSources() (roots, game *mdxrender.Sources, err error) {
	paths, err := absPaths(c.textures)
	if err != nil {
		return nil, nil, err
	}
	if roots, err = mdxrender.OpenSources(paths...); err != nil {
		return nil, nil, err
	}
	game = &mdxrender.Sources{}
	if c.gameData != "" {
		if game, err = mdxrender.OpenGameData(c.gameData); err != nil {
			roots.Close()
			return nil, nil, err
		}
	}
	return roots, game, nil
}

// absPaths makes paths given on the command line absolute: they are
// named from the working directory, whatever folder the configuration
// file is in.
func absPaths(ps []string) ([]string, error) {
	out := make([]string, len(ps))
	for i, p := range ps {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// particleFlags are the particle simulation options shared by render,
// sheet, batch and check (the reference harness's options of the same
// names).
type particleFlags struct {
	on      bool
	seed    uint32
	step    string
	preroll string
}

func (p *particleFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&p.on, "particles", true, "simulate and draw particle emitters and ribbons (--particles=false: geometry only)")
	f.Uint32Var(&p.seed, "seed", particles.DefaultSeed, "seed of the particle random generator, 0 to 2147483647")
	f.StringVar(&p.step, "step-ms", "1000/60", "fixed simulation step in ms: a number or A/B, up to 60000")
	f.StringVar(&p.preroll, "preroll-ms", "auto", "ms simulated before the sequence start: a number (any sequence), or auto/negative (one particle lifetime, looping sequences only)")
}

// config validates the flags and copies them into a batch's render
// options.
func (p *particleFlags) config(r *batch.RenderOptions) error {
	var errs []error
	step, err := forms.StepMs(p.step)
	if err != nil {
		errs = append(errs, flagError("step-ms", err))
	}
	pre, err := forms.PrerollMs(p.preroll)
	if err != nil {
		errs = append(errs, flagError("preroll-ms", err))
	}
	r.Particles, r.Seed, r.StepMs, r.PrerollMs = p.on, int(p.seed), step, pre
	return errors.Join(errs...)
}
