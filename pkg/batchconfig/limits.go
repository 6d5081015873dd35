package batchconfig

// Limits is the limits.* section: the budget of one model (budget.Limits),
// for batches over files from strangers, with one key per limit, named as
// budget names it (the command line's --limit takes the same names). Every
// key left at 0 keeps its default; a larger value raises the limit for
// models that need more. docs/hostile-input.md gives the defaults.
type Limits struct {
	ReadBytes       int64 `yaml:"read_bytes"`
	Vertices        int64 `yaml:"vertices"`
	Triangles       int64 `yaml:"triangles"`
	TexturePixels   int64 `yaml:"texture_pixels"`
	JPEGScans       int64 `yaml:"jpeg_scans"`
	Particles       int64 `yaml:"particles"`
	RibbonEdges     int64 `yaml:"ribbon_edges"`
	SpawnedVertices int64 `yaml:"spawned_vertices"`
	SimulationWork  int64 `yaml:"simulation_work"`
	RenderPixels    int64 `yaml:"render_pixels"`
	DrawWork        int64 `yaml:"draw_work"`
	Overdraw        int64 `yaml:"overdraw"`
	ExtractBytes    int64 `yaml:"extract_bytes"`
}
