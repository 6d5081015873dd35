package batch

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// Output kinds accepted in Output.Formats.
const (
	FormatPNG   = "png"
	FormatSheet = "sheet"
	FormatGIF   = "gif"
	FormatAPNG  = "apng"
)

// Validate checks every value once and returns all problems together, each
// naming the key and where its value came from, as a *ConfigErrors.
func (c *Config) Validate() error {
	var errs ConfigErrors
	bad := func(key, format string, a ...any) {
		errs.addf(c.where(key), key, format, a...)
	}
	in := c.Inputs
	if len(in.Files)+len(in.Dirs)+len(in.Globs)+len(in.Trees) == 0 && in.List == "" {
		bad("inputs", "no models: give inputs.files, inputs.dirs, inputs.globs, inputs.list or model arguments")
	}
	for i, tr := range in.Trees {
		if tr.FS == nil || tr.Name == "" {
			bad(fmt.Sprintf("inputs.trees[%d]", i), "a tree needs a name and a file system")
		}
	}
	for i, g := range in.Globs {
		if err := checkGlob(g); err != nil {
			bad(fmt.Sprintf("inputs.globs[%d]", i), "%v", err)
		}
	}
	for i, e := range in.Extensions {
		if !strings.HasPrefix(e, ".") || len(e) < 2 {
			bad(fmt.Sprintf("inputs.extensions[%d]", i), "want an extension like \".mdx\", got %s", clip.Quote(e))
		}
	}
	if c.GameData != "" {
		if st, err := os.Stat(resolve(c.base(), c.GameData)); err != nil || !st.IsDir() {
			bad("game_data", "want the folder of a game install or of extracted game files, got %s", clip.Quote(c.GameData))
		}
	}
	c.validateLimits(bad)
	if c.Output.Dir == "" {
		bad("output.dir", "must not be empty")
	}
	if err := checkTemplate(c.Output.Name); err != nil {
		bad("output.name", "%v", err)
	}
	for i, f := range c.Output.Formats {
		switch f {
		case FormatPNG, FormatSheet, FormatGIF, FormatAPNG:
		default:
			bad(fmt.Sprintf("output.formats[%d]", i), "unknown format %s (want png, sheet, gif or apng)", clip.Quote(f))
		}
	}
	if c.Jobs < 0 || c.Jobs > 1024 {
		bad("jobs", "want 0 (number of CPUs) to 1024, got %d", c.Jobs)
	}
	if c.TextureCacheMB < 1 || c.TextureCacheMB > 1<<16 {
		bad("texture_cache_mb", "want 1 to 65536 MiB, got %d", c.TextureCacheMB)
	}
	if !(c.ModelTimeout >= 0 && c.ModelTimeout <= maxModelTimeout) {
		bad("model_timeout", "want 0 (no limit) to %d seconds, got %g", maxModelTimeout, c.ModelTimeout)
	}
	if c.Shard != "" {
		if _, _, err := forms.Shard(c.Shard); err != nil {
			bad("shard", "%v", err)
		}
	}
	c.Render.validate("render", bad)
	// In name order, so that which problems are shown, when there are
	// more than are shown, does not depend on map order.
	for _, name := range slices.Sorted(maps.Keys(c.Views)) {
		v := c.Views[name]
		key := "views." + name
		if !validName(name) {
			bad(key, "name must be lower-case letters, digits, '-' or '_'")
		}
		if !v.Size.IsZero() {
			checkSize(key+".size", v.Size, bad)
		}
		if v.Pitch != nil {
			checkPitch(key+".pitch", *v.Pitch, bad)
		}
		if v.Yaw != nil {
			checkFinite(key+".yaw", *v.Yaw, bad)
		}
	}
	c.Sequences.validate("sequences", bad)
	for i, t := range c.TeamColors {
		if _, err := forms.Team(t); err != nil {
			bad(fmt.Sprintf("team_colors[%d]", i), "%v", err)
		}
	}
	s := c.Sheet
	if s.Frames < 1 || s.Frames > 1024 {
		bad("sheet.frames", "want 1 to 1024, got %d", s.Frames)
	}
	if s.FPS < 0 || s.FPS > 240 || math.IsNaN(s.FPS) {
		bad("sheet.fps", "want 0 (use frames) to 240, got %g", s.FPS)
	}
	if s.Cols < 0 || s.Cols > 1024 {
		bad("sheet.cols", "want 0 (no wrap) to 1024, got %d", s.Cols)
	}
	if len(s.Yaws) > 64 {
		bad("sheet.yaws", "at most 64 angles, got %d", len(s.Yaws))
	}
	for i, y := range s.Yaws {
		checkFinite(fmt.Sprintf("sheet.yaws[%d]", i), y, bad)
	}
	if s.MaxSize < 64 || s.MaxSize > 16384 {
		bad("sheet.max_size", "want 64 to 16384 pixels, got %d", s.MaxSize)
	}
	for i, m := range s.Metadata {
		switch m {
		case MetaTexturePacker, MetaAseprite, MetaGodot, MetaPlain:
		default:
			bad(fmt.Sprintf("sheet.metadata[%d]", i), "unknown format %s (want texturepacker, aseprite, godot or plain)", clip.Quote(m))
		}
	}
	k := c.Check
	if k.Tolerance < 0 || k.Tolerance > 255 {
		bad("check.tolerance", "want 0 to 255, got %d", k.Tolerance)
	}
	if !(k.MaxMismatch >= 0 && k.MaxMismatch <= 1) {
		bad("check.max_mismatch", "want a share from 0 to 1, got %g", k.MaxMismatch)
	}
	for i, o := range c.Overrides {
		key := fmt.Sprintf("overrides[%d]", i)
		if o.Match == "" {
			bad(key+".match", "must not be empty")
		} else if err := checkGlob(o.Match); err != nil {
			bad(key+".match", "%v", err)
		}
		o.Render.validate(key+".render", bad)
		if o.Sequences != nil {
			o.Sequences.validate(key+".sequences", bad)
		}
		for j, t := range o.TeamColors {
			if _, err := forms.Team(t); err != nil {
				bad(fmt.Sprintf("%s.team_colors[%d]", key, j), "%v", err)
			}
		}
		for j, v := range o.Views {
			if _, ok := c.Views[v]; !ok && !(len(c.Views) == 0 && v == "default") {
				bad(fmt.Sprintf("%s.views[%d]", key, j), "no view named %s", clip.Quote(v))
			}
		}
	}
	return errs.Err()
}

type badFunc func(key, format string, a ...any)

// Check validates render options that come from elsewhere than a
// configuration (a command's flags) with the configuration's own rules:
// each problem is a *ConfigError for its key ("render.size"), whose Where
// is where(key).
func (r RenderOptions) Check(where func(key string) string) error {
	var errs ConfigErrors
	r.validate("render", func(key, format string, a ...any) {
		errs.addf(where(key), key, format, a...)
	})
	return errs.Err()
}

// View returns the picture options r gives, as the renderer takes them,
// and the still's time: size, supersampling, background and particles
// (the camera, team and sequence are the caller's, per view and team).
// r must be valid.
func (r RenderOptions) View() (render.View, render.Time) { return r.view() }

func (r RenderOptions) validate(key string, bad badFunc) {
	checkSize(key+".size", r.Size, bad)
	checkSSAA(key+".ssaa", r.SSAA, bad)
	if _, err := forms.Background(r.Background); err != nil {
		bad(key+".background", "%v", err)
	}
	checkFinite(key+".yaw", r.Yaw, bad)
	checkPitch(key+".pitch", r.Pitch, bad)
	if r.TeamColor != "" {
		if _, err := forms.Team(r.TeamColor); err != nil {
			bad(key+".team_color", "%v", err)
		}
	}
	checkSeed(key+".seed", r.Seed, bad)
	checkStep(key+".step_ms", r.StepMs, bad)
	checkPreroll(key+".preroll_ms", r.PrerollMs, bad)
	checkTime(key+".time", r.Time, bad)
	checkMargin(key+".margin", r.Margin, bad)
	checkZoom(key+".zoom", r.Zoom, bad)
}

func checkMargin(key string, v float64, bad badFunc) { check(key, forms.CheckMargin(v), bad) }

func checkZoom(key string, v float64, bad badFunc) { check(key, forms.CheckZoom(v), bad) }

func (r RenderPatch) validate(key string, bad badFunc) {
	if r.Size != nil {
		checkSize(key+".size", *r.Size, bad)
	}
	if r.SSAA != nil {
		checkSSAA(key+".ssaa", *r.SSAA, bad)
	}
	if r.Background != nil {
		if _, err := forms.Background(*r.Background); err != nil {
			bad(key+".background", "%v", err)
		}
	}
	if r.Yaw != nil {
		checkFinite(key+".yaw", *r.Yaw, bad)
	}
	if r.Pitch != nil {
		checkPitch(key+".pitch", *r.Pitch, bad)
	}
	if r.TeamColor != nil {
		if _, err := forms.Team(*r.TeamColor); err != nil {
			bad(key+".team_color", "%v", err)
		}
	}
	if r.Time != nil {
		checkTime(key+".time", *r.Time, bad)
	}
	if r.Seed != nil {
		checkSeed(key+".seed", *r.Seed, bad)
	}
	if r.StepMs != nil {
		checkStep(key+".step_ms", *r.StepMs, bad)
	}
	if r.PrerollMs != nil {
		checkPreroll(key+".preroll_ms", *r.PrerollMs, bad)
	}
	if r.Margin != nil {
		checkMargin(key+".margin", *r.Margin, bad)
	}
	if r.Zoom != nil {
		checkZoom(key+".zoom", *r.Zoom, bad)
	}
}

func checkTime(key, v string, bad badFunc) {
	if _, err := forms.StillTime(v); err != nil {
		bad(key, "%v", err)
	}
}

func checkSeed(key string, v int, bad badFunc) { check(key, forms.CheckSeed(int64(v)), bad) }

func checkStep(key string, v float64, bad badFunc) { check(key, forms.CheckStepMs(v), bad) }

func checkPreroll(key string, v float64, bad badFunc) { check(key, forms.CheckPrerollMs(v), bad) }

func (s Sequences) validate(key string, bad badFunc) {
	switch s.Select {
	case SelectStand, SelectAll:
	case SelectMatch:
		if strings.TrimSpace(s.Pattern) == "" {
			bad(key+".pattern", "select: match needs a pattern")
		}
	default:
		bad(key+".select", "want stand, all or match, got %s", clip.Quote(s.Select))
	}
	for _, p := range splitPatterns(s.Pattern) {
		if _, err := path.Match(strings.ToLower(p), ""); err != nil {
			bad(key+".pattern", "bad pattern %s: %v", clip.Quote(p), err)
		}
	}
}

func checkSize(key string, v Size, bad badFunc) {
	if err := v.check(); err != nil {
		bad(key, "%v", err)
	}
}

func checkSSAA(key string, v int, bad badFunc) { check(key, forms.CheckSSAA(v), bad) }

func checkPitch(key string, v float64, bad badFunc) { check(key, forms.CheckPitch(v), bad) }

func checkFinite(key string, v float64, bad badFunc) { check(key, forms.CheckAngle(v), bad) }

// check reports err, if any, as a problem of key.
func check(key string, err error, bad badFunc) {
	if err != nil {
		bad(key, "%v", err)
	}
}

func splitPatterns(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// MatchSequence reports whether a sequence name matches a comma-separated
// list of case-blind globs.
func MatchSequence(patterns, name string) bool {
	n := strings.ToLower(name)
	for _, p := range splitPatterns(patterns) {
		if ok, _ := path.Match(strings.ToLower(p), n); ok {
			return true
		}
	}
	return false
}

var placeholders = []string{"{path}", "{name}", "{dir}", "{root}", "{ext}", "{view}", "{team}"}

// maxModelTimeout bounds model_timeout (a day): a larger value is a typo.
const maxModelTimeout = 86400

func checkTemplate(t string) error {
	if t == "" {
		return errors.New("must not be empty")
	}
	rest := t
	for _, p := range placeholders {
		rest = strings.ReplaceAll(rest, p, "")
	}
	if i := strings.IndexAny(rest, "{}"); i >= 0 {
		return fmt.Errorf("unknown placeholder in %s (known: %s)", clip.Quote(t), strings.Join(placeholders, " "))
	}
	if !strings.Contains(t, "{path}") && !strings.Contains(t, "{name}") {
		return fmt.Errorf("%s needs {path} or {name}, or every model writes the same file", clip.Quote(t))
	}
	if strings.HasPrefix(t, "/") || strings.Contains(t, "..") || strings.Contains(t, "\\") {
		return fmt.Errorf("%s must be a relative path inside output.dir", clip.Quote(t))
	}
	return nil
}

func checkGlob(g string) error {
	for _, seg := range strings.Split(g, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("bad glob %s: %v", clip.Quote(g), err)
		}
	}
	return nil
}
