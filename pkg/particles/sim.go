package particles

import (
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// Kind says what produced a Mesh and so which of its fields choose the
// blend state.
type Kind uint8

const (
	// KindParticle2 meshes come from a PRE2 emitter: Filter and TextureID
	// (or ReplaceableID) choose the blend and texture.
	KindParticle2 Kind = iota
	// KindRibbon meshes come from a RIBB emitter: the first layer of
	// Material chooses the blend, texture and depth flags.
	KindRibbon
	// KindModel meshes are geometry of a model spawned by a PREM emitter,
	// drawn with that model's own Material.
	KindModel
)

// Vertex is one corner of a particle quad or ribbon segment, in world space.
type Vertex struct {
	Pos   [3]float32
	UV    [2]float32
	Color [4]float32 // straight RGBA multiplier, 0..1
}

// Mesh is the geometry one emitter contributes to a frame. Meshes are
// returned in the emitters' draw-item order (see Sim.Meshes), and render
// joins them to the translucent pass by PriorityPlane.
type Mesh struct {
	Kind Kind
	// Node is the emitter's index in Model.Nodes().
	Node int
	// Filter is the PRE2 filter mode (numbered as raster.EmitterFilterMode).
	Filter uint32
	// TextureID indexes Model.Textures; -1 for none.
	TextureID int
	// ReplaceableID is the PRE2 replaceable id (1 team colour, 2 team glow,
	// >2 a ReplaceableTextures table entry); 0 for none.
	ReplaceableID uint32
	// Material indexes Model.Materials for ribbons and model particles.
	Material      int
	PriorityPlane int
	Unshaded      bool
	Vertices      []Vertex
	// Indices lists triangles, three indices each, into Vertices.
	Indices []uint32
}

// emitter is one simulated emitter of any kind. The Sim calls step once per
// fixed step, in model emitter order, after the pose has been updated to the
// new time; appendMeshes is called only when a frame is drawn.
type emitter interface {
	// step advances the emitter by dt seconds: emission, then every live
	// particle/edge. spawn reports whether emission is allowed at this time
	// (a sequence is playing and has not ended).
	step(s *Sim, p *pose.Pose, dt float64, spawn bool)
	// appendMeshes appends this emitter's geometry for the camera view.
	appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh
	// reset drops every live particle and the emission accumulator.
	reset()
}

// Camera is what particle geometry needs from the camera: billboarded
// quads face it, tails are widened across its view direction. Vectors are
// world-space unit vectors.
type Camera struct {
	Right, Up, Forward [3]float64
}

// Sim simulates every emitter of one model instance.
type Sim struct {
	m        *mdx.Model
	opt      Options
	emitters []emitter
}

// Model returns the model the Sim simulates.
func (s *Sim) Model() *mdx.Model { return s.m }
