// Package pose samples a model's animated tracks at a time in a sequence and
// computes node world matrices, skinned vertices, geoset and layer colours and
// texture transforms. It knows nothing about rasterisation or texture files.
//
// It reproduces mdx-m3-viewer 5.12.0 (docs/rendering.md and the project
// decisions table): Float, Vec3, Quat and Uint sample one track exactly as
// the viewer's SdSequence does; New orders the node hierarchy parents first;
// Pose.Update computes world matrices (pivot, T·R·S about the pivot,
// DontInherit flags, full and axis-locked billboards for a View) and skins
// every geoset into buffers it owns and reuses, so a frame allocates
// nothing. GeosetColor, LayerAlpha, LayerTexture, TextureTransform,
// NodeVisibility and Camera read the other animated values at the clock of
// the last Update.
//
//	p, err := pose.New(m) // *CycleError for a parent cycle
//	c := pose.ClockAt(m, seq, 500)
//	p.Update(c, pose.View{Rotation: pose.LookRotation(eye, target, up)})
//	pos, nrm := p.Vertices(0)
package pose
