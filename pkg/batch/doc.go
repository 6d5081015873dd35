// Package batch runs mdxrender over many models: it expands and shards
// the inputs, skips models whose inputs have not changed, drives a
// Renderer from a worker pool, and writes thumbnails, sprite sheets (laid
// out and described by pkg/sheet), animated GIF/APNG previews (encoded by
// pkg/anim), a manifest, golden-image check reports (JUnit XML, a
// Markdown summary) and a static HTML gallery.
//
// A batch is described by Options, a struct of values: start from
// DefaultOptions, set what differs, and run it with a Runner.
// Options.Validate names each problem by the key a configuration file
// gives the option ("render.size"). Reading configuration files, MDXR_
// environment variables and flags into Options is pkg/batchconfig's
// business; this package reads no text a person wrote, only the files it
// renders and its own manifests.
//
// Models are drawn by a Renderer: NewRenderer's draws with the library
// (the root package's texture sources and pkg/render), which the batch
// imports, never the reverse, so that a program that renders one model
// does not link the batch application. The tests drive the whole pipeline
// with a fake Renderer that draws deterministic pictures.
//
// Like every library package here, batch never logs and never exits; progress
// is reported through the Observer interface, which the CLI implements as a
// progress bar on a terminal or as log/slog lines in CI.
package batch
