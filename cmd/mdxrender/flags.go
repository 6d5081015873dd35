package main

import (
	"errors"
	"image/color"
	"path/filepath"
	"strings"

	"github.com/mdxrender/mdxrender"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
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
	missingHelp  = "how what a missing texture covers is drawn: grey (lit grey geometry; particles and ribbons left out) or white (the reference viewer's white stand-in, for comparisons with it)"
	framingHelp  = "which frames of a sheet and its previews share a camera: sequence (each animation framed on its own) or shared (one camera for all, one size across animations)"
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
	missing    string
	particles  particleFlags
	limits     limitFlags
}

// register adds the shared flags to f with the built-in defaults (those of
// render.View and batch.DefaultOptions, which agree), written as the
// flags write them.
func (c *commonFlags) register(f *pflag.FlagSet, cmd command) {
	def := batchconfig.Default()
	switch cmd {
	case cmdRender:
		f.StringVarP(&c.output, "output", "o", "", "output PNG file (required)")
		f.StringVar(&c.sequence, "sequence", "", "sequence name (exact, else the first starting so; case-blind) or index, -1 for the bind pose (default: Stand, else the first)")
	case cmdSheet:
		f.StringVarP(&c.output, "output", "o", "", "output folder (required)")
		f.StringVar(&c.sequence, "sequence", "all", "sequences: all, stand (Stand, else the first), or comma-separated names or globs like Walk,Attack* (case-blind)")
	default:
		f.StringVarP(&c.output, "output", "o", def.Output.Dir, "output folder (output.dir; relative to the working directory)")
		f.StringVar(&c.sequence, "sequence", string(batch.SelectStand), "sequences: stand (Stand, else the first), all, or comma-separated names or globs like Walk,Attack* (case-blind)")
	}
	f.StringVar(&c.size, "size", def.Render.Size.String(), sizeHelp)
	f.IntVar(&c.ssaa, "ssaa", def.Render.SSAA, "supersampling factor per axis, 1 to 8")
	f.Float64Var(&c.yaw, "yaw", 0, "camera yaw in degrees (0 looks at the model's front from +X)")
	f.Float64Var(&c.pitch, "pitch", 0, "camera elevation in degrees, -90 to 90")
	f.StringVar(&c.camera, "camera", "", "use the model's camera (name or index) instead of the orbit camera, or orbit for the orbit camera (default: a portrait model's portrait camera, else the orbit camera)")
	f.StringVar(&c.bg, "bg", def.Render.Background, bgHelp)
	f.StringVar(&c.team, "team", "", teamHelp)
	f.StringVar(&c.time, "time", "0", timeHelp)
	f.StringArrayVar(&c.textures, "textures", nil, texturesHelp)
	f.StringVar(&c.gameData, "game-data", "", gameDataHelp)
	f.Float64Var(&c.margin, "margin", def.Render.Margin, "share of the picture's width and height left free on each side of the model, 0 to below 0.5 (not with render's --distance, --target or --camera)")
	f.Float64Var(&c.zoom, "zoom", def.Render.Zoom, "scale the framed model (2 = twice as large, cropped)")
	registerMissingTextures(f, &c.missing)
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

// registerMissingTextures registers --missing-textures, which icon takes
// too, with its one default and help.
func registerMissingTextures(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "missing-textures", batchconfig.Default().Render.MissingTextures, missingHelp)
}

// flagError is a problem with one flag's value.
func flagError(name string, err error) error {
	return &batchconfig.Error{Where: "flag --" + name, Msg: err.Error()}
}

// picture is what the shared flags written as text say: each read by the
// reader of its text form, which a batch configuration's key of the same
// meaning is read by too.
type picture struct {
	size          batch.Size
	bg            color.NRGBA
	team          texture.Team
	time          render.Time
	step, preroll float64
	missing       render.MissingTextures
}

// read reads the shared flags' text, reporting every flag that does not
// read.
func (c *commonFlags) read() (picture, error) {
	var p picture
	var errs []error
	w, h, err := forms.Size(c.size)
	if err != nil {
		errs = append(errs, flagError("size", err))
	}
	p.size = batch.Size{W: w, H: h}
	if p.bg, err = forms.Background(c.bg); err != nil {
		errs = append(errs, flagError("bg", err))
	}
	if p.team, err = forms.Team(c.team); err != nil {
		errs = append(errs, flagError("team", err))
	}
	if p.time, err = forms.StillTime(c.time); err != nil {
		errs = append(errs, flagError("time", err))
	}
	if p.step, err = forms.StepMs(c.particles.step); err != nil {
		errs = append(errs, flagError("step-ms", err))
	}
	if p.preroll, err = forms.PrerollMs(c.particles.preroll); err != nil {
		errs = append(errs, flagError("preroll-ms", err))
	}
	if p.missing, err = render.ParseMissingTextures(c.missing); err != nil {
		errs = append(errs, flagError("missing-textures", err))
	}
	return p, errors.Join(errs...)
}

// view reads the shared flags into the View render draws, holding each
// value to the range a batch configuration holds its key to, so that a
// value means the same, and is refused alike, on every command.
func (c *commonFlags) view() (render.View, error) {
	p, err := c.read()
	if err != nil {
		return render.View{}, err
	}
	var errs batchconfig.Errors
	check := func(flag string, err error) {
		if err != nil {
			errs.Add(&batchconfig.Error{Where: "flag --" + flag, Key: flagKeys[flag], Msg: err.Error()})
		}
	}
	check("ssaa", forms.CheckSSAA(c.ssaa))
	check("yaw", forms.CheckAngle(c.yaw))
	check("pitch", forms.CheckPitch(c.pitch))
	check("seed", forms.CheckSeed(int64(c.particles.seed)))
	check("margin", forms.CheckMargin(c.margin))
	check("zoom", forms.CheckZoom(c.zoom))
	if err := errs.Err(); err != nil {
		return render.View{}, err
	}
	return render.View{
		Width: p.size.W, Height: p.size.H, SSAA: c.ssaa, Background: forms.BackgroundColor(p.bg),
		Yaw: c.yaw, Pitch: c.pitch, Camera: c.camera, Margin: forms.ViewMargin(c.margin), Zoom: c.zoom,
		Sequence: forms.Sequence(c.sequence), Time: p.time, Team: p.team,
		Particles: render.Particles{Off: !c.particles.on, Seed: forms.ViewSeed(int(c.particles.seed)), StepMs: p.step,
			Preroll: forms.ViewPreroll(p.preroll)},
		MissingTextures: p.missing,
	}, nil
}

// renderOptions reads the shared flags into a batch's picture options;
// their ranges are the batch's to check (checkFlags).
func (c *commonFlags) renderOptions(r *batch.RenderOptions) error {
	p, err := c.read()
	if err != nil {
		return err
	}
	r.Size, r.SSAA, r.Background, r.Yaw, r.Pitch, r.Camera = p.size, c.ssaa, p.bg, c.yaw, c.pitch, c.camera
	r.Team, r.Time, r.Margin, r.Zoom = batch.Team{Name: c.team, Color: p.team}, p.time, c.margin, c.zoom
	r.Particles, r.Seed, r.StepMs, r.PrerollMs = c.particles.on, int(c.particles.seed), p.step, p.preroll
	r.MissingTextures = p.missing
	return nil
}

// checkFlags validates a batch built from flags: a problem with a
// render.* key names its flag, others the key alone. The picture's flags
// are held to their ranges first, as render holds them: while one is out
// of range, only those problems are reported.
func checkFlags(o *batch.Options) error {
	err := batchconfig.Check(o, func(key string) string {
		for flag, k := range flagKeys {
			if k == key && strings.HasPrefix(key, "render.") {
				return "flag --" + flag
			}
		}
		return ""
	})
	var picture batchconfig.Errors
	var all *batchconfig.Errors
	if errors.As(err, &all) {
		for _, e := range all.Errs {
			var ce *batchconfig.Error
			if errors.As(e, &ce) && strings.HasPrefix(ce.Key, "render.") {
				picture.Add(e)
			}
		}
	}
	if picture.Len() > 0 {
		return usageError{&picture}
	}
	return err
}

// flagKeys maps flags to the configuration keys they set; a flag of batch
// or check the user sets beats MDXR_ variables, which beat the file.
var flagKeys = map[string]string{
	"output":           "output.dir",
	"size":             "render.size",
	"ssaa":             "render.ssaa",
	"yaw":              "render.yaw",
	"pitch":            "render.pitch",
	"camera":           "render.camera",
	"bg":               "render.background",
	"team":             "render.team_color",
	"time":             "render.time",
	"sequence":         "sequences.select",
	"textures":         "texture_roots",
	"game-data":        "game_data",
	"margin":           "render.margin",
	"zoom":             "render.zoom",
	"missing-textures": "render.missing_textures",
	"framing":          "sheet.framing",
	"particles":        "render.particles",
	"seed":             "render.seed",
	"step-ms":          "render.step_ms",
	"preroll-ms":       "render.preroll_ms",
	"jobs":             "jobs",
	"shard":            "shard",
	"force":            "force",
	"prune":            "prune",
	"model-timeout":    "model_timeout",
	"format":           "output.formats",
	"golden":           "check.golden",
	"update":           "check.update",
	"tolerance":        "check.tolerance",
	"max-mismatch":     "check.max_mismatch",
}

// sequenceSelection reads --sequence as sheet, batch and check take it:
// stand, all, match (whose pattern a configuration gives) or a pattern.
func sequenceSelection(s string) (sel batch.Select, pattern string) {
	switch t := batch.Select(strings.ToLower(strings.TrimSpace(s))); t {
	case "", batch.SelectStand:
		return batch.SelectStand, ""
	case batch.SelectAll, batch.SelectMatch:
		return t, ""
	}
	return batch.SelectMatch, s
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
