// Package batch runs mdxrender over many models: it loads and validates a
// batch configuration, expands and shards the inputs, skips models whose
// inputs have not changed, drives a Renderer from a worker pool, and writes
// thumbnails, sprite sheets (with TexturePacker/Phaser/PixiJS metadata),
// animated GIF/APNG previews, a manifest, golden-image check reports and a
// static HTML gallery.
//
// The package does not render anything itself and does not import the
// renderer: the caller supplies a Renderer (see renderer.go). That keeps the
// whole pipeline testable with a fake renderer that draws deterministic
// images, and keeps the dependency direction of the project (batch sits on
// top, next to the CLI).
//
// Like every library package here, batch never logs and never exits; progress
// is reported through the Observer interface, which the CLI implements as a
// progress bar on a terminal or as log/slog lines in CI.
package batch
