package render

import (
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Limits is the resource budget of drawing one model from a file a
// stranger may have written: how large the file, its geometry and its
// textures may be, how much its emitters may simulate, and how large and
// how costly a picture may be. Every zero field means its default; the
// defaults sit far above what the models of the test corpus need
// (docs/hostile-input.md gives the measurements) and keep a hostile file
// to seconds and a few hundred megabytes. A file over a budget fails with
// an error naming the budget and the value; a live-count budget
// (particles, ribbon edges, spawned models) and MaxOverdraw instead draw
// the picture capped, with a warning.
//
// The Animator applies the particle and picture budgets. The file,
// geometry and texture budgets bound reading and decoding, which happen
// before an Animator exists: FileSize and Quotas give what the model
// loader needs, TextureOptions what a texture.Resolver needs (NewAnimator
// applies it to the Resolver it makes when given none).
type Limits struct {
	// MaxFileSize bounds a model file's bytes; larger files are refused
	// before they are read (DefaultMaxFileSize).
	MaxFileSize int64
	// MaxVertices and MaxTriangles bound a model's geometry over all its
	// geosets (mdx.DefaultQuotas).
	MaxVertices, MaxTriangles int
	// MaxTexturePixels and MaxJPEGScans bound decoding one texture
	// (texture.DefaultMaxPixels, texture.DefaultMaxJPEGScans).
	MaxTexturePixels int64
	MaxJPEGScans     int
	// MaxParticles, MaxRibbonEdges and MaxSpawnedVertices bound the live
	// particles, ribbon edges and spawned models of the whole model;
	// MaxSimulationWork the simulation's work from its start
	// (budget.Particles.Default(), ...).
	MaxParticles       int
	MaxRibbonEdges     int
	MaxSpawnedVertices int
	MaxSimulationWork  int64
	// MaxRenderPixels bounds a picture's samples, width × height × SSAA²:
	// the rasteriser keeps 20 bytes a sample (DefaultMaxRenderPixels).
	MaxRenderPixels int64
	// MaxOverdraw bounds the pixels one frame's triangles cover, as a
	// multiple of the frame's samples (DefaultMaxOverdraw); the triangles
	// past it in drawing order are left out, with a CappedPicture warning.
	MaxOverdraw int
}

// Defaults of the Limits that are not another package's.
const (
	// DefaultMaxFileSize is 128 MiB, model.DefaultMaxFileSize (the
	// loader's own default; pkg/render does not import the loader).
	DefaultMaxFileSize = 128 << 20
	// DefaultMaxRenderPixels is 4096×4096 samples (a 4096-pixel picture,
	// or 2048 at SSAA 2): 320 MiB of colour and depth buffers.
	DefaultMaxRenderPixels = 4096 * 4096
	// DefaultMaxOverdraw: the most a frame of the corpus covers is 81
	// times its pixels (a Reforged hero wrapped in layers of aura planes);
	// the corpus test draws with a quarter of the default. At the default
	// size that bounds a frame to about half a second of drawing.
	DefaultMaxOverdraw = 512
)

// DefaultLimits returns the Limits every zero field stands for.
func DefaultLimits() Limits { return Limits{}.WithDefaults() }

// WithDefaults returns l with every zero (or negative) field set to its
// default.
func (l Limits) WithDefaults() Limits {
	def64 := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def64(&l.MaxFileSize, DefaultMaxFileSize)
	def(&l.MaxVertices, mdx.DefaultQuotas.MaxVertices)
	def(&l.MaxTriangles, mdx.DefaultQuotas.MaxTriangles)
	def64(&l.MaxTexturePixels, texture.DefaultMaxPixels)
	def(&l.MaxJPEGScans, texture.DefaultMaxJPEGScans)
	def(&l.MaxParticles, int(budget.Particles.Default()))
	def(&l.MaxRibbonEdges, int(budget.RibbonEdges.Default()))
	def(&l.MaxSpawnedVertices, int(budget.SpawnedVertices.Default()))
	def64(&l.MaxSimulationWork, budget.SimulationWork.Default())
	def64(&l.MaxRenderPixels, DefaultMaxRenderPixels)
	def(&l.MaxOverdraw, DefaultMaxOverdraw)
	return l
}

// FileSize is the largest model file to read, in bytes.
func (l Limits) FileSize() int64 { return l.WithDefaults().MaxFileSize }

// Quotas are the model decoders' quotas (model.Loader, mdx.Decoder):
// mdx.DefaultQuotas with l's file size and geometry.
func (l Limits) Quotas() mdx.ReadQuotas {
	l = l.WithDefaults()
	q := mdx.DefaultQuotas
	q.MaxFileSize = int(l.MaxFileSize)
	q.MaxVertices, q.MaxTriangles = l.MaxVertices, l.MaxTriangles
	return q
}

// TextureOptions are the texture decoders' budgets.
func (l Limits) TextureOptions() texture.Options {
	l = l.WithDefaults()
	return texture.Options{MaxPixels: l.MaxTexturePixels, MaxJPEGScans: l.MaxJPEGScans}
}

// particleMeter returns a meter of l's particle budgets, which the
// simulations of one Animator share.
func (l Limits) particleMeter() *budget.Meter {
	l = l.WithDefaults()
	return budget.NewMeter(budget.Limits{Particles: int64(l.MaxParticles), RibbonEdges: int64(l.MaxRibbonEdges),
		SpawnedVertices: int64(l.MaxSpawnedVertices), SimulationWork: l.MaxSimulationWork})
}

// BudgetError reports a picture refused up front because it would take
// more than a budget of Limits allows.
type BudgetError struct {
	Budget string // the Limits field, "MaxRenderPixels"
	Limit  int64
	Value  int64
	What   string // what asked for Value
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%s: %d, more than the %s budget of %d", e.What, e.Value, e.Budget, e.Limit)
}

// checkSize refuses a picture of more samples than MaxRenderPixels.
func (l Limits) checkSize(w, h, ssaa int) error {
	max := l.WithDefaults().MaxRenderPixels
	n := int64(w*ssaa) * int64(h*ssaa)
	if n <= max {
		return nil
	}
	return &BudgetError{Budget: "MaxRenderPixels", Limit: max, Value: n, What: fmt.Sprintf(
		"size %dx%d at ssaa %d is %dx%d samples (%.1f GiB of buffers)", w, h, ssaa, w*ssaa, h*ssaa, float64(n)*20/(1<<30))}
}
