package batchconfig

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// convert turns the file form into batch.Options, reading its text forms
// (internal/forms): each value whose text does not read is reported to
// bad, with its key, and left at its default. base is the folder the
// options' relative paths are relative to. The values are not
// range-checked here: that is batch.Options.Validate's job.
func convert(c *Config, base string, bad func(key string, err error)) *batch.Options {
	o := batch.DefaultOptions()
	o.Base = base
	o.Inputs = batch.Inputs{Files: c.Inputs.Files, Dirs: c.Inputs.Dirs, Globs: c.Inputs.Globs, List: c.Inputs.List,
		Extensions: c.Inputs.Extensions}
	o.TextureRoots, o.GameData, o.NoMapRoot = c.TextureRoots, c.GameData, !c.MapRoot
	o.Output = batch.Output{Dir: c.Output.Dir, Name: c.Output.Name, Formats: named[batch.Format](c.Output.Formats),
		Gallery: c.Output.Gallery}
	o.Jobs, o.Force, o.Prune = c.Jobs, c.Force, c.Prune
	if c.Shard != "" {
		if i, n, err := forms.Shard(c.Shard); err != nil {
			bad("shard", err)
		} else {
			o.Shard = batch.Shard{Index: i, Count: n}
		}
	}
	// A value too large for the engine's type is out of range anyway.
	if s := c.ModelTimeout; s >= -1e9 && s <= 1e9 {
		o.ModelTimeout = time.Duration(s * float64(time.Second))
	} else {
		bad("model_timeout", forms.CheckModelTimeout(s))
	}
	if mb := c.TextureCacheMB; mb >= -1<<30 && mb <= 1<<30 {
		o.TextureCache = int64(mb) << 20
	} else {
		bad("texture_cache_mb", forms.CheckTextureCacheMB(int64(mb)))
	}
	o.Render = renderOptions(c.Render, o.Render, bad)
	if c.Views != nil {
		o.Views = map[string]batch.View{}
		for name, v := range c.Views {
			o.Views[name] = batch.View{Yaw: v.Yaw, Pitch: v.Pitch, Size: batch.Size(v.Size), Camera: v.Camera}
		}
	}
	o.Sequences = sequences(c.Sequences)
	o.Teams = teams(c.TeamColors, "team_colors", bad)
	s := c.Sheet
	o.Sheet = batch.SheetOptions{Frames: s.Frames, FPS: s.FPS, Cols: s.Cols, Yaws: s.Yaws, Trim: s.Trim, MaxSize: s.MaxSize,
		Metadata: named[batch.Metadata](s.Metadata)}
	read(&o.Sheet.Framing, s.Framing, render.ParseRunFraming, "sheet.framing", bad)
	k := c.Check
	o.Check = batch.CheckOptions{Golden: k.Golden, Tolerance: k.Tolerance, MaxMismatch: k.MaxMismatch, Update: k.Update,
		JUnit: k.JUnit, Summary: k.Summary}
	for i, ov := range c.Overrides {
		key := fmt.Sprintf("overrides[%d]", i)
		bo := batch.Override{Match: ov.Match, Render: patch(ov.Render, key+".render", bad),
			Teams: teams(ov.TeamColors, key+".team_colors", bad), Views: ov.Views, TextureRoots: ov.TextureRoots, Skip: ov.Skip}
		if ov.Sequences != nil {
			s := sequences(*ov.Sequences)
			bo.Sequences = &s
		}
		o.Overrides = append(o.Overrides, bo)
	}
	o.Limits = limits(c.Limits, bad)
	o.Icons = icons(c.Icons, o.Icons, bad)
	return &o
}

// named converts names to the engine's named-string type.
func named[T ~string](names []string) []T {
	var out []T
	for _, n := range names {
		out = append(out, T(n))
	}
	return out
}

// renderOptions converts the render section over def.
func renderOptions(r RenderOptions, def batch.RenderOptions, bad func(key string, err error)) batch.RenderOptions {
	out := batch.RenderOptions{Size: batch.Size(r.Size), SSAA: r.SSAA, Background: def.Background, Yaw: r.Yaw, Pitch: r.Pitch,
		Camera: r.Camera, Team: def.Team, Particles: r.Particles, Seed: r.Seed, StepMs: r.StepMs, PrerollMs: r.PrerollMs,
		Time: def.Time, Margin: r.Margin, Zoom: r.Zoom}
	read(&out.Background, r.Background, forms.Background, "render.background", bad)
	read(&out.Team, r.TeamColor, team, "render.team_color", bad)
	read(&out.Time, r.Time, forms.StillTime, "render.time", bad)
	read(&out.MissingTextures, r.MissingTextures, render.ParseMissingTextures, "render.missing_textures", bad)
	return out
}

// patch converts an override's render section.
func patch(r RenderPatch, key string, bad func(key string, err error)) batch.RenderPatch {
	p := batch.RenderPatch{SSAA: r.SSAA, Yaw: r.Yaw, Pitch: r.Pitch, Camera: r.Camera, Particles: r.Particles, Seed: r.Seed,
		StepMs: r.StepMs, PrerollMs: r.PrerollMs, Margin: r.Margin, Zoom: r.Zoom}
	if r.Size != nil {
		s := batch.Size(*r.Size)
		p.Size = &s
	}
	p.Background = readPtr(r.Background, forms.Background, key+".background", bad)
	p.Team = readPtr(r.TeamColor, team, key+".team_color", bad)
	p.Time = readPtr(r.Time, forms.StillTime, key+".time", bad)
	return p
}

// read sets *dst to the value text reads as, or reports why it does not.
func read[T any](dst *T, text string, parse func(string) (T, error), key string, bad func(key string, err error)) {
	v, err := parse(text)
	if err != nil {
		bad(key, err)
		return
	}
	*dst = v
}

// readPtr is read for an optional value: nil for none, or one that does
// not read.
func readPtr[T any](text *string, parse func(string) (T, error), key string, bad func(key string, err error)) *T {
	if text == nil {
		return nil
	}
	var v T
	ok := true
	read(&v, *text, parse, key, func(key string, err error) { ok = false; bad(key, err) })
	if !ok {
		return nil
	}
	return &v
}

// team reads a team colour, named as it is written.
func team(s string) (batch.Team, error) {
	c, err := forms.Team(s)
	return batch.Team{Name: s, Color: c}, err
}

// teams reads a list of team colours; key[i] names each in errors.
func teams(names []string, key string, bad func(key string, err error)) []batch.Team {
	var out []batch.Team
	for i, n := range names {
		t, err := team(n)
		if err != nil {
			bad(fmt.Sprintf("%s[%d]", key, i), err)
			continue
		}
		out = append(out, t)
	}
	return out
}

// sequences converts a sequences section: its pattern is a comma-separated
// list of globs.
func sequences(s Sequences) batch.Sequences {
	return batch.Sequences{Select: batch.Select(s.Select), Patterns: forms.Patterns(s.Pattern)}
}

// limits converts the limits section, a key per limit of budget.Limits
// named as budget.Lookup knows it; a negative value is refused (0 is the
// default; there is no "unlimited", only a larger number).
func limits(l Limits, bad func(key string, err error)) budget.Limits {
	var out budget.Limits
	v := reflect.ValueOf(l)
	for _, k := range leafKeys(v.Type(), "limits", nil) {
		kind, ok := budget.Lookup(strings.TrimPrefix(k.Name, "limits."))
		if !ok {
			panic("batchconfig: " + k.Name + " names no limit") // TestLimitsKeys
		}
		n := v.FieldByIndex(k.index).Int()
		if n < 0 {
			bad(k.Name, fmt.Errorf("want 0 (the default) or a positive number, got %d", n))
			continue
		}
		out.Set(kind, n)
	}
	return out
}
