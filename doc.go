// Package mdxrender draws Blizzard models — Warcraft III MDX and MDL
// (classic and Reforged), early World of Warcraft MDX and M2 — into
// pictures on the CPU: thumbnails, sprite sheets and animation frames,
// with no GPU, no window and no cgo, the same bytes on every run.
//
// Open a model, say what to draw with a View, render:
//
//	m, err := mdxrender.Open("Footman.mdx", nil)
//	if err != nil { ... }
//	img, warnings, err := m.Render(mdxrender.View{Yaw: 30})
//	if err != nil { ... }
//	err = mdxrender.WritePNG("footman.png", img)
//
// Every zero field of a View means the default, so View{} draws what
// `mdxrender render` draws with no flags: 256×256, the orbit camera looking
// at the model's front, the Stand sequence at its start, player 0's team
// colour, a transparent background and the particle emitters simulated as
// the reference viewer does. Set only what should differ, with the values
// of pkg/render and pkg/texture: Sequence (render.SequenceNamed("Walk"),
// render.SequenceAt(2), render.BindPose()), Time (render.Ms(500),
// render.Share(0.5)), Yaw and Pitch, Width and Height, Team
// (texture.Player(1)), Background, Particles.
//
// Textures are looked for in Options.Textures first (so a reskin there
// wins), then in the model's own folder, then at the root of the map it
// belongs to, then in Options.GameData: OpenSources opens folders, maps
// (.w3x, .w3m) and MPQ archives as texture sources, OpenGameData a game
// install's MPQs or a folder of extracted game files for the stock
// textures models name; any fs.FS works through
// texture.FSSource. A path like "maps/Hero.w3x:war3mapImported/Hero.mdx"
// names a model inside an archive (Open, OpenFile), and OpenFS
// reads one from any fs.FS. A texture that cannot be found is drawn white
// and reported as a Warning whose Code (render.MissingTexture,
// render.BlankPicture, ...) stays the same from release to release; an
// error means no picture.
//
// Files from strangers are safe to open: Options.Limits is one resource
// budget (file size, geometry, texture pixels, particles, picture size,
// overdraw) whose zero value holds defaults no real model reaches, a file
// that is not a regular file is refused before it is read, and
// RenderContext stops at a context's deadline. docs/hostile-input.md lists
// every budget.
//
// RenderFrames draws a run of frames — a sprite sheet's cells, an
// animation — with one camera that keeps all of them in the picture and
// one particle simulation stepped through them; Sheet lays them out as a
// sprite sheet for game engines. Model.Icons makes a map's command-card
// icons (BTN, DISBTN, PAS, DISPAS, ATC, and Reforged's 256² ones) through
// the model's portrait camera, and WriteIcons writes them as the game
// reads them (BLP, DDS) in the game's folders, with a PNG beside each;
// docs/icons.md describes them. pkg/batch, built on this package,
// renders many models with a worker pool, a cache, shards and reports, as
// the mdxrender command does.
//
// The packages below this one can be used on their own: pkg/mdx and
// pkg/m2 decode and encode the formats into plain Go structs, pkg/texture
// decodes BLP, DDS and TGA textures, pkg/pose poses a model, pkg/particles
// simulates its emitters, pkg/render draws by the Warcraft III material
// rules with pkg/raster. docs/ in the repository describes the formats and
// the rendering rules.
package mdxrender
