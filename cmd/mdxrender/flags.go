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
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// The vocabulary of render, sheet, batch and check: every option they
// share is registered from the table of shared options (shared.go), with
// one name, one value form, one default and one help text, and read by
// the same parser (the one the batch configuration uses for the same
// key). docs/cli.md lists them.

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
	mapRoot    bool
	margin     float64
	zoom       float64
	missing    string
	verbose    bool
	particles  particleFlags
	limits     limitFlags
}

// register adds the shared flags to f, the flag set of the command cmd
// ("render", "sheet", "batch" or "check"), with the table's defaults
// (those of render.View and batch.DefaultOptions, which agree).
func (c *commonFlags) register(f *pflag.FlagSet, cmd string) {
	for name, p := range map[string]any{
		"output": &c.output, "size": &c.size, "ssaa": &c.ssaa, "yaw": &c.yaw, "pitch": &c.pitch,
		"camera": &c.camera, "bg": &c.bg, "team": &c.team, "time": &c.time, "sequence": &c.sequence,
		"textures": &c.textures, "game-data": &c.gameData, "map-root": &c.mapRoot, "margin": &c.margin,
		"zoom": &c.zoom, "missing-textures": &c.missing, "verbose": &c.verbose,
	} {
		addShared(f, cmd, name, p)
	}
	c.particles.register(f, cmd)
	c.limits.register(f, cmd)
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

// flagError is a problem with one flag's value: "--size: want N or
// WxH ...". The value is quoted in err, as the readers of forms quote it.
func flagError(name string, err error) error { return &flagProblem{name, err} }

type flagProblem struct {
	flag string
	err  error
}

func (e *flagProblem) Error() string { return "--" + e.flag + ": " + e.err.Error() }
func (e *flagProblem) Unwrap() error { return e.err }

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
	var errs []error
	check := func(flag string, err error) {
		if err != nil {
			errs = append(errs, flagError(flag, err))
		}
	}
	check("ssaa", forms.CheckSSAA(c.ssaa))
	check("yaw", forms.CheckAngle(c.yaw))
	check("pitch", forms.CheckPitch(c.pitch))
	check("seed", forms.CheckSeed(int64(c.particles.seed)))
	check("margin", forms.CheckMargin(c.margin))
	check("zoom", forms.CheckZoom(c.zoom))
	if err := errors.Join(errs...); err != nil {
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

// checkFlags validates a batch built from the flags of sheet, each
// problem naming the flag that set its key (--format, not
// output.formats[0]). The picture's flags are held to their ranges
// first, as render holds them: while one is out of range, only those
// problems are reported.
func checkFlags(o *batch.Options) error {
	err := batchconfig.Check(o, func(string) string { return "" })
	if err == nil {
		return nil
	}
	var picture, other []error
	var all *batchconfig.Errors
	if !errors.As(err, &all) {
		return usageError{err}
	}
	for _, e := range all.Errs {
		var ce *batchconfig.Error
		if !errors.As(e, &ce) {
			other = append(other, e)
			continue
		}
		if flag := flagOfKey(ce.Key); flag != "" {
			e = flagError(flag, errors.New(ce.Msg))
		}
		if strings.HasPrefix(ce.Key, "render.") {
			picture = append(picture, e)
		} else {
			other = append(other, e)
		}
	}
	if len(picture) > 0 {
		return usageError{errors.Join(picture...)}
	}
	return usageError{errors.Join(other...)}
}

// flagOfKey is the flag that sets the configuration key (an element of a
// list, "output.formats[0]", is its list's), or "".
func flagOfKey(key string) string {
	if i := strings.IndexByte(key, '['); i >= 0 {
		key = key[:i]
	}
	if key == "sequences.pattern" {
		return "sequence"
	}
	for flag, k := range flagKeys {
		if k == key {
			return flag
		}
	}
	return ""
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
	"shot":             "icons.shot",
	"frames":           "sheet.frames",
	"fps":              "sheet.fps",
	"cols":             "sheet.cols",
	"yaws":             "sheet.yaws",
	"trim":             "sheet.trim",
	"max-size":         "sheet.max_size",
	"metadata":         "sheet.metadata",
	"map-root":         "map_root",
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

func (p *particleFlags) register(f *pflag.FlagSet, cmd string) {
	addShared(f, cmd, "particles", &p.on)
	addShared(f, cmd, "seed", &p.seed)
	addShared(f, cmd, "step-ms", &p.step)
	addShared(f, cmd, "preroll-ms", &p.preroll)
}
