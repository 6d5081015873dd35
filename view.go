package mdxrender

import "github.com/mdxrender/mdxrender/pkg/render"

// View says what a picture shows: size, camera, sequence and time, team
// colour, background, light, particles. Every zero field means the
// default, so View{} draws what mdxrender render draws with no flags and
// View{Yaw: 45} changes only the yaw; the zero Sequence is the Stand
// sequence (render.StandSequence), the zero Time its start. See
// render.View for the fields, render.DefaultView for the defaults.
type View = render.View

// Frame is one picture of a run that shares a camera (RenderFrames).
type Frame = render.Frame

// Warning is something a render went on without, with a Code
// (render.MissingTexture, render.BlankPicture, ...) that stays the same
// from release to release.
type Warning = render.Warning
