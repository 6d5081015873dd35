// Package m2 reads pre-Wrath World of Warcraft M2 models (magic "MD20",
// versions 256–263: the 1.x and 2.x clients, whose views are embedded in the
// file; docs/formats.md#m2) and converts them into the mdx.Model types the rest of the
// pipeline already draws.
//
// # Design
//
// Decode returns a *File that mirrors the M2 blocks one for one (header
// offsets and counts, vertices, views with indices, triangles, submeshes and
// texture units, bones with their animation blocks, sequences, textures,
// render flags, colours, transparencies, texture animations and the lookup
// tables). Model then converts a File into an *mdx.Model. Converting, rather
// than defining an interface for the pose stage to read, keeps pose, raster
// and the CLI free of M2 special cases: the M2 concepts all have an MDX
// counterpart, because M2 grew out of the WoW MDX dialect:
//
//   - the pre-Wrath single animation timeline with per-sequence
//     [start, end] times is exactly MDX's sequence intervals, so keys keep
//     their absolute timestamps and the per-animation key ranges are only
//     validated;
//
//   - each drawn submesh of the chosen view (the lowest index by default)
//     becomes a Geoset holding its own vertices, with per-vertex bone
//     indices and weights in Geoset.Skin (4 bone indices, 4 weights / 255,
//     bones indexed by object id = M2 bone index), the layout Reforged SKIN
//     and WoW MDX v1300+ geosets use;
//
//   - the texture units drawn on a submesh become the layers of one
//     Material; M2 blend modes map one to one onto MDX filter modes (opaque
//     → None, alpha key → Transparent, alpha → Blend, additive → Additive,
//     additive alpha → AddAlpha, modulate, modulate 2x) and the render flags
//     onto layer shading flags;
//
//   - colours become GeosetAnims (colour and alpha tracks), transparencies
//     the layer's alpha track, texture transforms TextureAnims;
//
//   - texture types are the WoW replaceable ids that WoW MDX also uses, so
//     the model gets Version 1500 (the WoW MDX dialect whose geosets are
//     M2-style); mdx.Encode can therefore write it as a v1500 MDX.
//
//   - cameras become MDX cameras (base position plus the offset tracks, the
//     spline keys' values), so a login-screen scene can be rendered from
//     its own viewpoint.
//
//   - particle and ribbon emitters, which MDX has no chunk for in the form
//     M2 gives them, become mdx.WoWParticleEmitter and mdx.WoWRibbonEmitter
//     values (pkg/particles simulates them); the particle record's layout
//     changed in version 263 (docs/formats.md#m2-particle-and-ribbon-emitters).
//
// Lights and attachments are counted in the Header but not converted: the
// renderer does not draw them.
//
// # Safety
//
// Every (count, offset) pair is checked against the file before anything is
// allocated, every index (vertex, triangle, texture, bone, lookup) is checked
// before use, and errors are a *FormatError naming the block and offset, or
// an *UnsupportedVersionError for MD20 files of other versions (Wrath and
// later keep their views in .skin files).
package m2
