package batch

import (
	"reflect"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// LimitsConfig is the limits.* section: the budget of one model
// (budget.Limits), for batches over files from strangers, with one key per
// limit, named as budget names it (the command line's --limit takes the
// same names). Every key left at 0 keeps its default; a larger value
// raises the limit for models that need more. docs/hostile-input.md gives
// the defaults.
type LimitsConfig struct {
	ReadBytes       int64 `yaml:"read_bytes" mapstructure:"read_bytes"`
	Vertices        int64 `yaml:"vertices" mapstructure:"vertices"`
	Triangles       int64 `yaml:"triangles" mapstructure:"triangles"`
	TexturePixels   int64 `yaml:"texture_pixels" mapstructure:"texture_pixels"`
	JPEGScans       int64 `yaml:"jpeg_scans" mapstructure:"jpeg_scans"`
	Particles       int64 `yaml:"particles" mapstructure:"particles"`
	RibbonEdges     int64 `yaml:"ribbon_edges" mapstructure:"ribbon_edges"`
	SpawnedVertices int64 `yaml:"spawned_vertices" mapstructure:"spawned_vertices"`
	SimulationWork  int64 `yaml:"simulation_work" mapstructure:"simulation_work"`
	RenderPixels    int64 `yaml:"render_pixels" mapstructure:"render_pixels"`
	DrawWork        int64 `yaml:"draw_work" mapstructure:"draw_work"`
	Overdraw        int64 `yaml:"overdraw" mapstructure:"overdraw"`
	ExtractBytes    int64 `yaml:"extract_bytes" mapstructure:"extract_bytes"`
}

// Limits returns the budget the section asks for.
func (l LimitsConfig) Limits() budget.Limits {
	var out budget.Limits
	l.each(func(k budget.Kind, v *int64) { out.Set(k, *v) })
	return out
}

// Set sets limit k in the section.
func (l *LimitsConfig) Set(k budget.Kind, v int64) {
	l.each(func(kk budget.Kind, f *int64) {
		if kk == k {
			*f = v
		}
	})
}

// each calls f with every limit and its field, found by the field's key.
func (l *LimitsConfig) each(f func(budget.Kind, *int64)) {
	v := reflect.ValueOf(l).Elem()
	t := v.Type()
	for i := range t.NumField() {
		key, _ := fieldKey(t.Field(i))
		if k, ok := budget.Lookup(key); ok {
			f(k, v.Field(i).Addr().Interface().(*int64))
		}
	}
}

// validateLimits refuses negative budgets (0 is the default; there is no
// "unlimited", only a larger number).
func (c *Config) validateLimits(bad func(key, format string, a ...any)) {
	c.Limits.each(func(k budget.Kind, v *int64) {
		if *v < 0 {
			bad("limits."+k.String(), "want 0 (the default) or a positive number, got %d", *v)
		}
	})
}
