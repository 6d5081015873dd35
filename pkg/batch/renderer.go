package batch

import (
	"context"
	"image"

	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// Renderer turns model bytes into images. The CLI adapts pkg/render to it;
// tests use a fake that draws deterministic pictures.
type Renderer interface {
	// Open decodes a model and resolves its textures. data is the file's
	// content (already read, so the cache hashes exactly what is rendered);
	// job gives the path, texture roots and options. Open is called once
	// per model, possibly from several goroutines for different models.
	Open(ctx context.Context, job *Job, data []byte) (Model, error)
}

// Model is an opened model. Its methods are called from one goroutine.
type Model interface {
	// Info describes the model; it is called once, before any Render.
	Info() ModelInfo
	// Render draws req.Frames with one camera: it frames the union of the
	// posed geometry over all requested frames (and yaws), so a sheet or an
	// animation does not jump. It returns one image per frame, each
	// req.Size x req.Size, in order, plus warnings (missing textures, ...).
	Render(ctx context.Context, req Request) ([]*image.NRGBA, []Warning, error)
}

// ModelInfo is what the batch needs to know about a model before rendering.
type ModelInfo struct {
	Sequences []SequenceInfo
	// Dependencies are the other files the render reads (the textures it
	// resolved). Their contents are part of the cache key, so editing a
	// texture re-renders the models that use it.
	Dependencies []string
	// Warnings found while opening (missing textures, unknown chunks, ...).
	Warnings []Warning
}

// SequenceInfo is one animation of a model; Start and End are in ms. It is
// the sprite-sheet package's type, so sequences go to a sheet unconverted.
type SequenceInfo = sheet.Sequence

// Warning is a problem that did not stop rendering.
type Warning struct {
	// Code is a short stable identifier ("missing-texture"); Message is for people.
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Request asks for a set of frames that share one camera.
type Request struct {
	// Options are the model's render options (size, ssaa, background, ...).
	Options RenderOptions
	// View is the camera; each frame's Yaw replaces View.Yaw.
	View ViewSpec
	// Team is the team colour (see TeamIndex); "" means the renderer's default.
	Team   string
	Frames []Frame
}

// Frame is one moment to draw.
type Frame struct {
	// Sequence indexes ModelInfo.Sequences; -1 is the bind pose.
	Sequence int
	// Time is the absolute model time in ms (Start <= Time <= End).
	Time uint32
	// Yaw is the camera yaw for this frame in degrees.
	Yaw float64
}
