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
	for _, c := range []struct {
		key  string
		edit func(*RenderOptions)
	}{
		{"render.seed", func(r *RenderOptions) { r.Seed = -1 }},
		{"render.seed", func(r *RenderOptions) { r.Seed = math.MaxInt32 + 1 }},
		{"render.step_ms", func(r *RenderOptions) { r.StepMs = 0 }},
		{"render.step_ms", func(r *RenderOptions) { r.StepMs = math.NaN() }},
		{"render.preroll_ms", func(r *RenderOptions) { r.PrerollMs = 1e9 }},
		{"render.preroll_ms", func(r *RenderOptions) { r.PrerollMs = math.Inf(-1) }},
	} {
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
