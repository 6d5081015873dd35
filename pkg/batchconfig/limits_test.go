package batchconfig

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestLimitsConfig: the limits.* keys reach every job, each the limit
// budget names so; a negative budget is refused, naming the key; the keys
// are settable from the environment like any scalar key.
func TestLimitsConfig(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "x"})
	c := loadYAML(t, dir, "inputs:\n  dirs: [m]\nlimits:\n  particles: 50000\n  read_bytes: 1000\n  render_pixels: 67108864\n")
	jobs, err := c.Plan()
	if err != nil {
		t.Fatal(err)
	}
	l := jobs[0].Limits
	if l.Particles != 50000 || l.Get(budget.ReadBytes) != 1000 || l.RenderPixels != 64<<20 || l.Get(budget.Overdraw) != 512 {
		t.Errorf("job limits %+v", l)
	}
	for i, k := range budget.Kinds() {
		var c Config
		if err := Keys()[indexOf(t, "limits."+k.String())].set(&c, int64(1000+i)); err != nil {
			t.Fatal(err)
		}
		if got := limits(c.Limits, func(string, error) {}); got.Get(k) != int64(1000+i) {
			t.Errorf("limits.%s does not set budget's %s: %+v", k, k, got)
		}
	}
	t.Setenv("MDXR_LIMITS_OVERDRAW", "-2")
	_, err = Load(Layers{File: filepath.Join(dir, "batch.yaml"), Env: os.LookupEnv})
	if err == nil || !strings.Contains(err.Error(), "env MDXR_LIMITS_OVERDRAW: limits.overdraw: want 0 (the default) or a positive number, got -2") {
		t.Errorf("negative budget: %v", err)
	}
	var names []string
	for _, k := range Keys() {
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

// indexOf returns the index of the key named name in Keys().
func indexOf(t *testing.T, name string) int {
	t.Helper()
	for i, k := range Keys() {
		if k.Name == name {
			return i
		}
	}
	t.Fatalf("no key %s", name)
	return -1
}
