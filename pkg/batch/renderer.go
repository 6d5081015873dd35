package batch

import (
	"context"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/sheet"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Renderer turns model bytes into images. NewRenderer's
// DefaultRenderer draws with pkg/render; tests use a fake that draws
// deterministic pictures.
type Renderer interface {
	// Open decodes a model and resolves its textures. data is the file's
	// content (already read, so the cache hashes exactly what is rendered);
	// job gives the input, texture roots and options; meter is the model's
	// budget (job.Limits), charged already with reading data, to charge
	// everything else the model costs to. Open is called once per model,
	// possibly from several goroutines for different models.
	Open(ctx context.Context, job *Job, data []byte, meter *budget.Meter) (Model, error)
}

// Model is an opened model. Its methods are called from one goroutine.
type Model interface {
	// Info describes the model; it is called once, before any Render.
	Info() ModelInfo
	// Render draws req.Frames with one camera: it frames every requested
	// frame (and yaw) at once, so a sheet or an animation does not jump.
	// It returns one picture per frame, each the size req.View gives, in
	// order, with where the model's origin lands in it (a sheet's pivot),
	// plus warnings (missing textures, ...).
	Render(ctx context.Context, req Request) ([]render.Picture, []Warning, error)
}

// ModelInfo is what the batch needs to know about a model before rendering.
type ModelInfo struct {
	Sequences []SequenceInfo
	// Dependencies are the other files the render reads (the textures it
	// resolved, spawned models). Their contents are part of the cache key,
	// so editing a texture re-renders the models that use it.
	Dependencies []texture.File
	// Searched are the folders (each as a File of its Source, Name the
	// folder's path in it) whose listings decided which files
	// Dependencies are, and that no other was found. With the model file
	// and the dependencies they are what a later run compares (by size
	// and modification time) to know that the outputs are still current
	// without reading the model again (see the journal).
	Searched []texture.File
	// Warnings found while opening (missing textures, unknown chunks, ...).
	Warnings []Warning
}

// SequenceInfo is one animation of a model; Start and End are in ms. It is
// the sprite-sheet package's type, so sequences go to a sheet unconverted.
type SequenceInfo = sheet.Sequence

// Warning is a problem that did not stop rendering: the renderer's own
// type, with its stable codes.
type Warning = render.Warning

// Request asks for a set of frames that share one camera.
type Request struct {
	// View is what every frame draws, from the job's options and view:
	// size, supersampling, background, pitch or the model's own camera,
	// team colour and particles. Each frame sets its yaw, sequence and
	// time.
	View render.View
	// ViewName names the configured view, for messages.
	ViewName string
	Frames   []render.Frame
}
