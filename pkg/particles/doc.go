// Package particles simulates a model's particle emitters (PRE2 and the
// old PREM) and ribbon emitters over time and turns the live particles into
// world-space meshes for the rasteriser (RENDERING.md §9).
//
// It sits between pkg/pose and pkg/raster in the pipeline: it reads node
// world matrices, visibility and emitter tracks from a *pose.Pose that the
// caller has already updated to the current time, and emits plain Mesh
// values; it imports neither raster nor texture, so pkg/render decides how a
// Mesh becomes a draw call.
//
// A Sim is stateful: stepping it forward with a fixed step from the start of
// a sequence and sampling meshes at any frame along the way is what makes
// sprite sheets cost one simulation, not one per frame.
package particles
