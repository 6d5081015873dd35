package render

import (
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// The Animator applies a model's budget (budget.Limits, charged to its
// Meter) to what it draws: the textures it loads (through the texture
// requests' Meter), the particle budgets (through particles.Options), the
// models PREM emitters spawn (read and decoded within it), a picture's
// samples before the frame is allocated (RenderPixels) and what one
// frame's triangles may cover (Overdraw, through
// raster.DrawOptions.MaxFragments).

// meter returns the Meter the Animator charges, making one within the
// default limits at the first use when none was set.
func (a *Animator) meter() *budget.Meter {
	if a.Meter == nil {
		a.Meter = budget.NewMeter(budget.Limits{})
	}
	return a.Meter
}

// Drawing work, in sixteenths of a budget unit (10-20 ns of CPU), as
// measured per piece (docs/hostile-input.md#the-budget): posing and
// transforming a vertex, setting up a triangle, clearing and resolving a
// sample, shading a fragment.
const (
	vertexWork   = 16
	triangleWork = 16
	sampleWork   = 2
	fragmentWork = 24
)

// geometry returns the model's vertices and triangles over all geosets,
// what every frame poses and sets up at most.
func (a *Animator) geometry() (vertices, triangles int64) {
	if !a.counted {
		for i := range a.m.Geosets {
			a.vertices += int64(len(a.m.Geosets[i].Vertices))
			a.triangles += int64(len(a.m.Geosets[i].Faces) / 3)
		}
		a.counted = true
	}
	return a.vertices, a.triangles
}

// chargePose charges posing the model's geometry for one frame, before
// it is done.
func (a *Animator) chargePose(what string) error {
	v, t := a.geometry()
	return a.meter().Charge(budget.DrawWork, (v*vertexWork+t*triangleWork)/16, a.name, what)
}

// chargeFrame charges a frame of samples samples, before it is drawn:
// posing its geometry and clearing and resolving its samples.
func (a *Animator) chargeFrame(samples int64) error {
	v, t := a.geometry()
	return a.meter().Charge(budget.DrawWork, (v*vertexWork+t*triangleWork+samples*sampleWork)/16, a.name, "drawing a frame")
}

// chargeFragments charges what the last frame drew, once it is drawn: an
// estimate of what it covered is known only then, bounded for one frame
// by Overdraw.
func (a *Animator) chargeFragments() error {
	return a.meter().Charge(budget.DrawWork, a.stats.Fragments*fragmentWork/16, a.name, "the fragments of a frame")
}

// checkSize refuses a picture of more samples than RenderPixels allows.
func (a *Animator) checkSize(w, h, ssaa int) error {
	n := int64(w*ssaa) * int64(h*ssaa)
	return a.meter().Limits().Check(budget.RenderPixels, n, a.name, fmt.Sprintf(
		"size %dx%d at ssaa %d is %dx%d samples (%.1f GiB of buffers)", w, h, ssaa, w*ssaa, h*ssaa, float64(n)*20/(1<<30)))
}
