// Package texture finds, decodes and samples the textures that Blizzard
// models refer to: BLP1 (Warcraft III), BLP2 (World of Warcraft), DDS
// (Warcraft III Reforged), TGA, PNG and JPEG. EncodeBLP and EncodeDDS
// write BLP1 and DDS the way the game's own icons are stored.
//
// Every decoder produces a [Texture]: a chain of straight-alpha RGBA mip
// levels. Decoders check a file's headers (for JPEG, the stream's own
// frame and scan markers) against the [Options] budgets before allocating
// anything, so a file that lies about its size costs what its budget
// allows, not what it asks for; see docs/hostile-input.md. The format is detected from the file's first bytes, never from its
// name, because modders routinely rename converted files. image.Decode is
// never used: a TGA package linked into the same program would otherwise be
// able to claim every format (docs/formats.md#tga).
//
// A [Resolver] turns the paths stored in a model (Windows separators, any
// case, replaceable ids for team colour) into textures, confined to a set of
// search roots, and caches decoded results by size in a [Cache]. Problems a
// render should survive (a missing file, a path that tries to leave the
// roots) come back as [Warning] values together with a stand-in texture;
// this package never logs.
package texture
