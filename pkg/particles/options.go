package particles

import "github.com/mdxrender/mdxrender/pkg/budget"

// DefaultSeed is the seed of the reference harness (docs/particles.md#random-generator).
const DefaultSeed = 6

// DefaultStepMs is the fixed simulation step, 1/60 s.
const DefaultStepMs = 1000.0 / 60

// Options tunes a simulation. The zero value is not useful; start from
// DefaultOptions.
type Options struct {
	// Seed seeds the reference viewer's LCG (seed·9301 + 49297) mod 233280.
	Seed uint32
	// StepMs is the fixed simulation step in milliseconds.
	StepMs float64
	// PrerollMs is simulated before the sequence start for looping
	// sequences; negative means one longest particle lifetime.
	PrerollMs float64

	// Budget is the meter the simulation charges its work to and takes
	// its live-count caps from (the Particles, RibbonEdges,
	// SpawnedVertices and SimulationWork limits of its Limits); nil means
	// a meter of the Sim's own with the default limits. Simulations of one
	// model (one per sequence and view) share one work budget by sharing
	// a meter. A live-count cap caps the picture: past it no emitter of its
	// kind emits until some particles die, and Warnings says so once. The
	// work budget is an error: the simulation stops with the meter's
	// *budget.Error (docs/particles.md#work-units).
	Budget *budget.Meter
}

// DefaultOptions returns the options the CLI uses when no flag is given.
func DefaultOptions() Options {
	return Options{Seed: DefaultSeed, StepMs: DefaultStepMs, PrerollMs: -1}
}

// MaxPrerollMs bounds the pre-roll (10 minutes of simulated time), so a
// hostile lifespan or option cannot make a render run for hours.
const MaxPrerollMs = 600_000

// MaxSteps bounds the fixed steps of one AdvanceTo or pre-roll (about 4.6
// hours at the default step), so a huge time or a tiny step is an error,
// not a render that runs for days.
const MaxSteps = 1_000_000
