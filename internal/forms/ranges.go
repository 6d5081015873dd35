package forms

import (
	"fmt"
	"math"
	"time"

	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// The ranges of the particle options, whatever wrote their values.
const (
	MaxStepMs    = 60000
	MaxPrerollMs = particles.MaxPrerollMs
	// MaxSeed is the largest particle seed: the reference harness's
	// seeds are 31-bit.
	MaxSeed = math.MaxInt32
)

// CheckSSAA refuses a supersampling factor out of 1 to 8.
func CheckSSAA(v int) error {
	if v < 1 || v > 8 {
		return fmt.Errorf("want 1 to 8, got %d", v)
	}
	return nil
}

// CheckPitch refuses a pitch out of -90 to 90 degrees.
func CheckPitch(v float64) error {
	if !(v >= -90 && v <= 90) {
		return fmt.Errorf("want -90 to 90 degrees, got %g", v)
	}
	return nil
}

// CheckAngle refuses an angle that is not a finite number (a yaw).
func CheckAngle(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("want a finite angle, got %g", v)
	}
	return nil
}

// CheckSeed refuses a particle seed out of 0 to MaxSeed.
func CheckSeed(v int64) error {
	if v < 0 || v > MaxSeed {
		return fmt.Errorf("want 0 to %d, got %d", MaxSeed, v)
	}
	return nil
}

// CheckStepMs refuses a simulation step that is not more than 0 and at
// most MaxStepMs.
func CheckStepMs(v float64) error {
	if !(v > 0 && v <= MaxStepMs) {
		return fmt.Errorf("want a step of more than 0 and at most %d ms, got %g", MaxStepMs, v)
	}
	return nil
}

// CheckPrerollMs refuses a pre-roll over MaxPrerollMs or not a number
// (any negative one is one particle lifetime).
func CheckPrerollMs(v float64) error {
	if math.IsNaN(v) || v > MaxPrerollMs || math.IsInf(v, 0) {
		return fmt.Errorf("want at most %d ms (negative: one particle lifetime), got %g", MaxPrerollMs, v)
	}
	return nil
}

// CheckMargin refuses a margin out of 0 to below 0.5.
func CheckMargin(v float64) error {
	if !(v >= 0 && v < 0.5) {
		return fmt.Errorf("want a share of the picture from 0 to below 0.5 on each side, got %g", v)
	}
	return nil
}

// CheckZoom refuses a zoom that is not more than 0 and at most 100.
func CheckZoom(v float64) error {
	if !(v > 0 && v <= 100) {
		return fmt.Errorf("want more than 0 and at most 100, got %g", v)
	}
	return nil
}

// The options whose value means something else than the zero of the
// render.View field they set: the command line and batch configurations
// write the value itself, where a View's zero field is its default.

// ViewSeed is a particle seed as render.Particles takes it: 0 is
// render.ZeroSeed (a seed of 0), not the default.
func ViewSeed(seed int) uint32 {
	if seed == 0 {
		return render.ZeroSeed
	}
	return uint32(seed)
}

// ViewPreroll is a pre-roll in ms as render.Particles takes it: negative
// is one particle lifetime for looping sequences (render.PrerollAuto), 0
// none (render.NoPreroll).
func ViewPreroll(ms float64) render.Preroll {
	switch {
	case ms < 0:
		return render.PrerollAuto
	case ms == 0:
		return render.NoPreroll
	}
	return render.Preroll(ms)
}

// ViewMargin is a margin as render.View takes it: 0 is render.NoMargin,
// not the default.
func ViewMargin(m float64) float64 {
	if m == 0 {
		return render.NoMargin
	}
	return m
}

// MaxModelTimeout bounds a batch's model timeout (a day): a larger value
// is a typo.
const MaxModelTimeout = 24 * time.Hour

// CheckModelTimeout refuses a model timeout, in seconds, out of 0 (no
// limit) to MaxModelTimeout.
func CheckModelTimeout(seconds float64) error {
	if max := MaxModelTimeout.Seconds(); !(seconds >= 0 && seconds <= max) {
		return fmt.Errorf("want 0 (no limit) to %d seconds, got %g", int(max), seconds)
	}
	return nil
}

// CheckTextureCacheMB refuses a texture cache out of 1 to 65536 MiB.
func CheckTextureCacheMB(mb int64) error {
	if mb < 1 || mb > 1<<16 {
		return fmt.Errorf("want 1 to 65536 MiB, got %d", mb)
	}
	return nil
}
