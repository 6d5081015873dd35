// Package batch runs mdxrender over many models: it validates a batch
// configuration, expands and shards the inputs, skips models whose inputs
// have not changed, drives a Renderer from a worker pool, and writes
// thumbnails, sprite sheets (laid out and described by pkg/sheet), animated
// GIF/APNG previews (encoded by pkg/anim), a manifest, golden-image check
// reports (JUnit XML, a Markdown summary) and a static HTML gallery.
//
// Configuration: Config is the whole description, DefaultConfig the
// built-in layer, DecodeConfigFile checks a YAML, JSON or TOML file against
// the schema (every problem at once, with file, line and key), and
// Validate checks the merged values. Layering the file under MDXR_
// environment variables and flags is the command line's business; it uses
// ConfigKeys, EnvName, Config.SetOrigin and Config.Pin so that errors name
// where a value came from and the command line beats the file's per-model
// overrides.
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
