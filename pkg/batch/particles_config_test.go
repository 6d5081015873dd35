package batch

import (
	"math"
	"strings"
	"testing"
)

// The particle keys default to the CLI's defaults and reject values the
// simulation cannot use, naming the key.
func TestParticleKeys(t *testing.T) {
	d := DefaultConfig()
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
		cfg := DefaultConfig()
		cfg.Inputs.Files = []string{"a.mdx"}
		c.edit(&cfg.Render)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s: got %v", c.key, err)
		}
	}
	cfg := DefaultConfig()
	cfg.Inputs.Files = []string{"a.mdx"}
	cfg.Render.Seed, cfg.Render.StepMs, cfg.Render.PrerollMs, cfg.Render.Particles = 0, 33, 0, false
	if err := cfg.Validate(); err != nil {
		t.Errorf("valid particle keys rejected: %v", err)
	}
}

// The particle keys can be changed per model by an override (an effects
// folder warmed up longer, a folder drawn without particles), and a flag or
// variable still beats the override (bad values in overrides are in
// TestConfigErrorsNameKeyAndLine in cmd/mdxrender).
func TestParticleKeysInOverrides(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/fx/a.mdx": "x", "m/units/b.mdx": "y"})
	const y = `inputs:
  dirs: [m]
overrides:
  - match: "fx/**"
    render: {preroll_ms: 2000, seed: 11, step_ms: 20}
  - match: "units/**"
    render: {particles: false}
`
	plan := func(c *Config) (fx, units Job) {
		t.Helper()
		jobs, err := c.Plan(Shard{})
		if err != nil || len(jobs) != 2 {
			t.Fatalf("plan: %d jobs, %v", len(jobs), err)
		}
		return jobs[0], jobs[1]
	}
	fx, units := plan(loadYAML(t, dir, y))
	if r := fx.Render; !r.Particles || r.PrerollMs != 2000 || r.Seed != 11 || r.StepMs != 20 {
		t.Errorf("fx override: %+v", r)
	}
	if r := units.Render; r.Particles || r.PrerollMs != -1 || r.Seed != 6 || r.StepMs != 1000.0/60 {
		t.Errorf("units override: %+v", r)
	}
	c := loadYAML(t, dir, y)
	c.Render.PrerollMs = 0
	c.Pin("render.preroll_ms", "env MDXR_RENDER_PREROLL_MS")
	if fx, _ := plan(c); fx.Render.PrerollMs != 0 || fx.Render.Seed != 11 {
		t.Errorf("pinned preroll_ms: %+v", fx.Render)
	}
}
