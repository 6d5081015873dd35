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

// checkSize refuses a picture of more samples than RenderPixels allows.
func (a *Animator) checkSize(w, h, ssaa int) error {
	n := int64(w*ssaa) * int64(h*ssaa)
	return a.meter().Limits().Check(budget.RenderPixels, n, a.name, fmt.Sprintf(
		"size %dx%d at ssaa %d is %dx%d samples (%.1f GiB of buffers)", w, h, ssaa, w*ssaa, h*ssaa, float64(n)*20/(1<<30)))
}
