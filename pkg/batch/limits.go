package batch

import (
	"reflect"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// LimitsConfig is the limits.* section: the resource budget of one model
// (render.Limits), for batches over files from strangers. Every key left
// at 0 keeps its default; a larger value raises the budget for models
// that need it. docs/hostile-input.md gives the defaults.
type LimitsConfig struct {
	// FileSize bounds a model file's bytes.
	FileSize int `yaml:"file_size" mapstructure:"file_size"`
	// Vertices and Triangles bound a model's geometry.
	Vertices  int `yaml:"vertices" mapstructure:"vertices"`
	Triangles int `yaml:"triangles" mapstructure:"triangles"`
	// TexturePixels and JPEGScans bound decoding one texture.
	TexturePixels int `yaml:"texture_pixels" mapstructure:"texture_pixels"`
	JPEGScans     int `yaml:"jpeg_scans" mapstructure:"jpeg_scans"`
	// Particles, RibbonEdges and SpawnedVertices bound a model's live
	// particles, ribbon edges and spawned models; SimulationWork the
	// simulation's work.
	Particles       int `yaml:"particles" mapstructure:"particles"`
	RibbonEdges     int `yaml:"ribbon_edges" mapstructure:"ribbon_edges"`
	SpawnedVertices int `yaml:"spawned_vertices" mapstructure:"spawned_vertices"`
	SimulationWork  int `yaml:"simulation_work" mapstructure:"simulation_work"`
	// RenderPixels bounds a picture's samples (size² × ssaa²); Overdraw
	// the pixels a frame's triangles cover, per sample.
	RenderPixels int `yaml:"render_pixels" mapstructure:"render_pixels"`
	Overdraw     int `yaml:"overdraw" mapstructure:"overdraw"`
}

// Limits returns the budget the section asks for.
func (l LimitsConfig) Limits() render.Limits {
	return render.Limits{
		MaxFileSize: int64(l.FileSize), MaxVertices: l.Vertices, MaxTriangles: l.Triangles,
		MaxTexturePixels: int64(l.TexturePixels), MaxJPEGScans: l.JPEGScans,
		MaxParticles: l.Particles, MaxRibbonEdges: l.RibbonEdges, MaxSpawnedVertices: l.SpawnedVertices,
		MaxSimulationWork: int64(l.SimulationWork),
		MaxRenderPixels:   int64(l.RenderPixels), MaxOverdraw: l.Overdraw,
	}
}

// validateLimits refuses negative budgets (0 is the default; there is no
// "unlimited", only a larger number).
func (c *Config) validateLimits(bad func(key, format string, a ...any)) {
	v := reflect.ValueOf(c.Limits)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag, _ := fieldKey(t.Field(i))
		if n := v.Field(i).Int(); n < 0 {
			bad("limits."+tag, "want 0 (the default) or a positive number, got %d", n)
		}
	}
}
