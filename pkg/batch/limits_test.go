package batch

import (
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestLimitsConfig: the limits.* keys reach every job; a negative budget
// is refused, naming the key; the keys are settable from the environment
// like any scalar key.
func TestLimitsConfig(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "x"})
	c := loadYAML(t, dir, "inputs:\n  dirs: [m]\nlimits:\n  particles: 50000\n  read_bytes: 1000\n  render_pixels: 67108864\n")
	jobs, err := c.Plan(Shard{})
	if err != nil {
		t.Fatal(err)
	}
	l := jobs[0].Limits
	if l.Particles != 50000 || l.Get(budget.ReadBytes) != 1000 || l.RenderPixels != 64<<20 || l.Get(budget.Overdraw) != 512 {
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
	var want []string
	for _, n := range budget.Names() {
		want = append(want, "limits."+n)
	}
	if !slices.Equal(names, want) || EnvName("limits.texture_pixels") != "MDXR_LIMITS_TEXTURE_PIXELS" {
		t.Errorf("limits keys %v, want budget's %v", names, want)
	}
}
