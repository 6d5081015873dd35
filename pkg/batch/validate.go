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

// Validate checks every option once and returns all problems together,
// in the order of the options, each an *OptionError naming its key.
func (o *Options) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &OptionError{Key: key, Msg: fmt.Sprintf(format, a...)})
	}
	check := func(key string, err error) {
		if err != nil {
			bad(key, "%v", err)
		}
	}
	in := o.Inputs
	if len(in.Files)+len(in.Dirs)+len(in.Globs)+len(in.Trees) == 0 && in.List == "" {
		bad("inputs", "no models: give inputs.files, inputs.dirs, inputs.globs, inputs.list or model arguments")
	}
	for i, tr := range in.Trees {
		if tr.FS == nil || tr.Name == "" {
			bad(fmt.Sprintf("inputs.trees[%d]", i), "a tree needs a name and a file system")
		}
	}
	for i, g := range in.Globs {
		check(fmt.Sprintf("inputs.globs[%d]", i), checkGlob(g))
	}
	for i, e := range in.Extensions {
		if !strings.HasPrefix(e, ".") || len(e) < 2 {
			bad(fmt.Sprintf("inputs.extensions[%d]", i), "want an extension like \".mdx\", got %s", clip.Quote(e))
		}
	}
	if o.GameData != "" {
		if st, err := os.Stat(resolve(o.base(), o.GameData)); err != nil || !st.IsDir() {
			bad("game_data", "want the folder of a game install or of extracted game files, got %s", clip.Quote(o.GameData))
		}
	}
	if o.Output.Dir == "" {
		bad("output.dir", "must not be empty")
	}
	check("output.name", checkTemplate(o.Output.Name))
	for i, f := range o.Output.Formats {
		switch f {
		case FormatPNG, FormatSheet, FormatGIF, FormatAPNG, FormatIcons:
		default:
			bad(fmt.Sprintf("output.formats[%d]", i), "unknown format %s (want png, sheet, gif, apng or icons)", clip.Quote(string(f)))
		}
	}
	o.Icons.validate("icons", bad)
	if o.Jobs < 0 || o.Jobs > 1024 {
		bad("jobs", "want 0 (number of CPUs) to 1024, got %d", o.Jobs)
	}
	check("texture_cache_mb", forms.CheckTextureCacheMB(o.TextureCache>>20))
	check("model_timeout", forms.CheckModelTimeout(o.ModelTimeout.Seconds()))
	if s := o.Shard; s.Count < 0 || s.Count > 0 && (s.Index < 0 || s.Index >= s.Count) {
		bad("shard", "want i/n with 0 <= i < n, got %q", s.String())
	}
	o.Render.validate("render", check)
	// In name order, so that which problems are shown, when there are
	// more than are shown, does not depend on map order.
	for _, name := range slices.Sorted(maps.Keys(o.Views)) {
		v := o.Views[name]
		key := "views." + name
		if !ValidViewName(name) {
			bad(key, "name must be lower-case letters, digits, '-' or '_'")
		}
		if !v.Size.IsZero() {
			check(key+".size", v.Size.check())
		}
		if v.Pitch != nil {
			check(key+".pitch", forms.CheckPitch(*v.Pitch))
		}
		if v.Yaw != nil {
			check(key+".yaw", forms.CheckAngle(*v.Yaw))
		}
	}
	o.Sequences.validate("sequences", bad)
	s := o.Sheet
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
		check(fmt.Sprintf("sheet.yaws[%d]", i), forms.CheckAngle(y))
	}
	if s.MaxSize < 64 || s.MaxSize > 16384 {
		bad("sheet.max_size", "want 64 to 16384 pixels, got %d", s.MaxSize)
	}
	if s.Framing > render.FrameShared {
		bad("sheet.framing", "want sequence or shared, got %s", s.Framing)
	}
	for i, m := range s.Metadata {
		switch m {
		case MetaTexturePacker, MetaAseprite, MetaGodot, MetaPlain:
		default:
			bad(fmt.Sprintf("sheet.metadata[%d]", i), "unknown format %s (want texturepacker, aseprite, godot or plain)", clip.Quote(string(m)))
		}
	}
	k := o.Check
	if k.Tolerance < 0 || k.Tolerance > 255 {
		bad("check.tolerance", "want 0 to 255, got %d", k.Tolerance)
	}
	if !(k.MaxMismatch >= 0 && k.MaxMismatch <= 1) {
		bad("check.max_mismatch", "want a share from 0 to 1, got %g", k.MaxMismatch)
	}
	for i, ov := range o.Overrides {
		key := fmt.Sprintf("overrides[%d]", i)
		if ov.Match == "" {
			bad(key+".match", "must not be empty")
		} else {
			check(key+".match", checkGlob(ov.Match))
		}
		ov.Render.validate(key+".render", check)
		if ov.Sequences != nil {
			ov.Sequences.validate(key+".sequences", bad)
		}
		for j, v := range ov.Views {
			if _, ok := o.Views[v]; !ok && !(len(o.Views) == 0 && v == "default") {
				bad(fmt.Sprintf("%s.views[%d]", key, j), "no view named %s", clip.Quote(v))
			}
		}
	}
	return errors.Join(errs...)
}

type checkFunc func(key string, err error)

func (r RenderOptions) validate(key string, check checkFunc) {
	check(key+".size", r.Size.check())
	check(key+".ssaa", forms.CheckSSAA(r.SSAA))
	check(key+".yaw", forms.CheckAngle(r.Yaw))
	check(key+".pitch", forms.CheckPitch(r.Pitch))
	check(key+".seed", forms.CheckSeed(int64(r.Seed)))
	check(key+".step_ms", forms.CheckStepMs(r.StepMs))
	check(key+".preroll_ms", forms.CheckPrerollMs(r.PrerollMs))
	check(key+".time", forms.CheckStillTime(r.Time))
	check(key+".margin", forms.CheckMargin(r.Margin))
	check(key+".zoom", forms.CheckZoom(r.Zoom))
	if r.MissingTextures > render.MissingWhite {
		check(key+".missing_textures", fmt.Errorf("want grey or white, got %s", r.MissingTextures))
	}
}

func (r RenderPatch) validate(key string, check checkFunc) {
	if r.Size != nil {
		check(key+".size", r.Size.check())
	}
	if r.SSAA != nil {
		check(key+".ssaa", forms.CheckSSAA(*r.SSAA))
	}
	if r.Yaw != nil {
		check(key+".yaw", forms.CheckAngle(*r.Yaw))
	}
	if r.Pitch != nil {
		check(key+".pitch", forms.CheckPitch(*r.Pitch))
	}
	if r.Time != nil {
		check(key+".time", forms.CheckStillTime(*r.Time))
	}
	if r.Seed != nil {
		check(key+".seed", forms.CheckSeed(int64(*r.Seed)))
	}
	if r.StepMs != nil {
		check(key+".step_ms", forms.CheckStepMs(*r.StepMs))
	}
	if r.PrerollMs != nil {
		check(key+".preroll_ms", forms.CheckPrerollMs(*r.PrerollMs))
	}
	if r.Margin != nil {
		check(key+".margin", forms.CheckMargin(*r.Margin))
	}
	if r.Zoom != nil {
		check(key+".zoom", forms.CheckZoom(*r.Zoom))
	}
}

func (s Sequences) validate(key string, bad func(key, format string, a ...any)) {
	switch s.Select {
	case SelectStand, SelectAll:
	case SelectMatch:
		if len(s.Patterns) == 0 {
			bad(key+".pattern", "select: match needs a pattern")
		}
	default:
		bad(key+".select", "want stand, all or match, got %s", clip.Quote(string(s.Select)))
	}
	for _, p := range s.Patterns {
		if _, err := path.Match(strings.ToLower(p), ""); err != nil {
			bad(key+".pattern", "bad pattern %s: %v", clip.Quote(p), err)
		}
	}
}

// MatchSequence reports whether a sequence name matches one of the
// case-blind globs.
func MatchSequence(patterns []string, name string) bool {
	n := strings.ToLower(name)
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), n); ok {
			return true
		}
	}
	return false
}

// ValidViewName reports whether s may name a view: lower-case letters,
// digits, '-' and '_'.
func ValidViewName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

var placeholders = []string{"{path}", "{name}", "{dir}", "{root}", "{ext}", "{view}", "{team}"}

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
