package batch

import (
	"errors"
	"math"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// The particle options default to the CLI's defaults, reject values the
// simulation cannot use, naming the key, and reach the renderer as
// render.Particles takes them.
func TestParticleOptions(t *testing.T) {
	d := DefaultOptions()
	if !d.Render.Particles || d.Render.Seed != 6 || d.Render.StepMs != 1000.0/60 || d.Render.PrerollMs != -1 {
		t.Fatalf("defaults: %+v", d.Render)
	}
	type edit struct {
		key  string
		edit func(*RenderOptions)
	}
	edits := []edit{
		{"render.seed", func(r *RenderOptions) { r.Seed = -1 }},
		{"render.step_ms", func(r *RenderOptions) { r.StepMs = 0 }},
		{"render.step_ms", func(r *RenderOptions) { r.StepMs = math.NaN() }},
		{"render.preroll_ms", func(r *RenderOptions) { r.PrerollMs = 1e9 }},
		{"render.preroll_ms", func(r *RenderOptions) { r.PrerollMs = math.Inf(-1) }},
	}
	if math.MaxInt > math.MaxInt32 {
		// A seed past 2³¹−1 is an int only where int has 64 bits.
		big := int64(math.MaxInt32) + 1
		edits = append(edits, edit{"render.seed", func(r *RenderOptions) { r.Seed = int(big) }})
	}
	for _, c := range edits {
		cfg := DefaultOptions()
		cfg.Inputs.Files = []string{"a.mdx"}
		c.edit(&cfg.Render)
		var oe *OptionError
		if err := cfg.Validate(); !errors.As(err, &oe) || oe.Key != c.key {
			t.Errorf("%s: got %v", c.key, err)
		}
	}
	cfg := DefaultOptions()
	cfg.Inputs.Files = []string{"a.mdx"}
	cfg.Render.Seed, cfg.Render.StepMs, cfg.Render.PrerollMs, cfg.Render.Particles = 0, 33, 0, false
	if err := cfg.Validate(); err != nil {
		t.Errorf("valid particle options rejected: %v", err)
	}
	want := render.Particles{Off: true, Seed: render.ZeroSeed, StepMs: 33, Preroll: render.NoPreroll}
	if got := cfg.Render.view().Particles; got != want {
		t.Errorf("as the renderer takes them: %+v, want %+v", got, want)
	}
}

// The particle options can be changed per model by an override (an
// effects folder warmed up longer, a folder drawn without particles).
func TestParticleOptionsInOverrides(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/fx/a.mdx": "x", "m/units/b.mdx": "y"})
	c := options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{"m"}
		o.Overrides = []Override{
			{Match: "fx/**", Render: RenderPatch{PrerollMs: ptr(2000.0), Seed: ptr(11), StepMs: ptr(20.0)}},
			{Match: "units/**", Render: RenderPatch{Particles: ptr(false)}},
		}
	})
	jobs, err := c.Plan()
	if err != nil || len(jobs) != 2 {
		t.Fatalf("plan: %d jobs, %v", len(jobs), err)
	}
	fx, units := jobs[0], jobs[1]
	if r := fx.Render; !r.Particles || r.PrerollMs != 2000 || r.Seed != 11 || r.StepMs != 20 {
		t.Errorf("fx override: %+v", r)
	}
	if r := units.Render; r.Particles || r.PrerollMs != -1 || r.Seed != 6 || r.StepMs != 1000.0/60 {
		t.Errorf("units override: %+v", r)
	}
}
