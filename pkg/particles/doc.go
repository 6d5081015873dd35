// Package particles simulates a model's particle emitters (PRE2 and the
// old PREM) and ribbon emitters over time, and the World of Warcraft M2
// particle and ribbon emitters (docs/particles.md#world-of-warcraft-m2-emitters;
// wow.go, wowribbon.go), and turns the live particles into world-space
// meshes for the rasteriser (docs/particles.md). What follows describes
// the Warcraft III emitters; the WoW ones share the Sim, its generator,
// step, pre-roll and budgets.
//
// It sits between pkg/pose and pkg/raster in the pipeline: it poses the
// model's nodes with its own *pose.Pose and emits plain Mesh values; it
// imports neither raster nor texture, so pkg/render decides how a Mesh
// becomes a draw call.
//
// # The reference viewer's update loop
//
// The simulation reproduces mdx-m3-viewer 5.12.0 as the reference harness
// drives it (docs/particles.md#the-update-loop), so that its pictures can
// be matched (docs/fidelity.md#particle-fidelity):
//
//	sim, _ := particles.New(m, particles.DefaultOptions())
//	sim.Start(seq, view)   // reset, seed, frame = sequence start, pre-roll
//	sim.AdvanceTo(500)     // ceil(500/step − 1e-6) fixed steps + one dt = 0 update
//	meshes := sim.Meshes(cam)
//
// Each step advances the frame by the step (a looping sequence that reaches
// its end restarts at its start and drops the overshoot; a non-looping one
// stops and no longer emits), poses the nodes at the new frame, lets every
// visible emitter emit in node-hierarchy order, then ages and moves every
// live particle (semi-implicit Euler after gravity) and removes the dead
// ones, replacing each by the last live one as the viewer does, which
// fixes the draw order. The random generator is the viewer's test LCG
// state = (state·9301 + 49297) mod 233280, value state/233280, reset to
// Options.Seed (default 6) by Start, and drawn in the viewer's order: x
// and y offset within width and length, the two latitude angles (one for a
// LineEmitter), the speed variation. Replaying the 42 simulated reference
// jobs gives exactly the viewer's number of draws and live PRE2 particles
// (reference_test.go).
//
// # Emission multiplier
//
// The static PRE2 emission rate is multiplied by 2 and an animated (KP2E)
// rate is not: that is the viewer's SETTING_PARTICLES_HIGH (its comment:
// "High seems to double the emission"; docs/particles.md#emission), and it is what
// the reference images were made with. Warsmash multiplies by 1.5 and
// divides the segment alphas by 1.5 instead; we follow the viewer because
// it is the reference we can measure against, and the game's own
// high-detail setting is the one the viewer imitates. With it come the
// viewer's emission-count rule (once the accumulator reaches 1 it emits
// ceil(accumulator) particles and carries the negative rest, so a sum
// that rounds to just above an integer gives a burst of two), squirt
// (the whole KP2E value is added whenever its key index changes, also on
// the dt = 0 update before drawing; a constant or absent track never
// squirts) and Both (each pass emits a head and a tail, each counting one).
//
// Other viewer rules kept: the emitter node's visibility (KP2V) gates
// emission only, live particles go on; speed variation is
// speed·(1 + rand(−v, v)); gravity is scaled by the node's world Z scale;
// head quads are 2·scale wide without the node scale, tails widened by
// scale times the node's world X scale across the view direction, without
// renormalising that cross product; sprite cells come from the head or tail
// interval of the current segment (end exclusive, repeat times over the
// segment, capped at the last cell); team-coloured emitters use cell 0 of
// their solid texture; the texture corners map as the viewer's shader does
// (not Warsmash's), and MDL lifespans are taken as the decimal written.
//
// # Pre-roll
//
// Options.PrerollMs simulates before the sequence start exactly as the
// harness's --preroll-ms: ceil(P/step) steps playing the sequence from its
// start, then the frame is put back to the start, live particles and the
// global-sequence counter stay. A negative PrerollMs (the CLI default,
// "auto") means one longest emitter lifetime for looping sequences and
// none for non-looping ones, so idle effects are in their steady state.
//
// # Cost
//
// A Sim is stateful: AdvanceTo with increasing times continues one
// simulation, so a sprite sheet costs one simulation of its last frame's
// time, not one per frame. Steps pose nodes only (the Sim's pose is built
// on a copy of the model without geosets).
//
// # Budgets
//
// The viewer bounds nothing; a hostile model must not run for minutes or
// take gigabytes. Each emitter is bounded (20,000 live PRE2 particles,
// 4,096 ribbon edges, 256 spawned models), and so is the whole model,
// through the budget.Meter of Options.Budget (docs/particles.md#budgets):
// its Particles, RibbonEdges and SpawnedVertices limits cap the live
// counts (emission waits for room; the picture has fewer particles and
// Warnings says so), and every step, frame and Meshes call charges its
// work to its SimulationWork limit, priced in units of 10-20 ns of CPU
// whatever the work (docs/particles.md#work-units); a simulation the
// budget does not allow stops with the meter's *budget.Error.
// Simulations sharing a meter share its budget. The defaults are far
// above what real models need, so they change nothing in a real picture.
// StartContext and AdvanceToContext stop between steps when a context is
// done.
package particles
