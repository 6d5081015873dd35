package batch

import (
	"slices"
	"strings"
	"testing"
)

// TestLimitsConfig: the limits.* keys reach every job; a negative budget
// is refused, naming the key; the keys are settable from the environment
// like any scalar key.
func TestLimitsConfig(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "x"})
	c := loadYAML(t, dir, "inputs:\n  dirs: [m]\nlimits:\n  particles: 50000\n  file_size: 1000\n  render_pixels: 67108864\n")
	jobs, err := c.Plan(Shard{})
	if err != nil {
		t.Fatal(err)
	}
	l := jobs[0].Limits
	if l.MaxParticles != 50000 || l.FileSize() != 1000 || l.MaxRenderPixels != 64<<20 || l.WithDefaults().MaxOverdraw != 512 {
		t.Errorf("job limits %+v", l)
	}
	c.Limits.Overdraw = -2
	err = c.Validate()
	if err == nil || !strings.Contains(err.Error(), "limits.overdraw") || !strings.Contains(err.Error(), "got -2") {
		t.Errorf("negative budget: %v", err)
	}
	var names []string
	for _, k := range ConfigKeys() {
		if strings.HasPrefix(k.Name, "limits.") {
			names = append(names, k.Name)
		}
	}
	if len(names) != 11 || !slices.Contains(names, "limits.simulation_work") || EnvName("limits.texture_pixels") != "MDXR_LIMITS_TEXTURE_PIXELS" {
		t.Errorf("limits keys %v", names)
	}
}
