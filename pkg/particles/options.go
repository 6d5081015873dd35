package particles

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

	// Budgets for hostile models (see budget.go); zero means the default.
	// A live-count budget caps the picture: past it no emitter of its kind
	// emits until some particles die, and Warnings says so once. The work
	// budget is an error: the simulation stops with a *BudgetError.

	// MaxParticles bounds the live PRE2 particles and PREM spawned models
	// of the whole model together (DefaultMaxParticles).
	MaxParticles int
	// MaxRibbonEdges bounds the live ribbon edges of the whole model
	// (DefaultMaxRibbonEdges).
	MaxRibbonEdges int
	// MaxSpawnedVertices bounds the size of the live PREM spawned models,
	// which are posed and drawn one by one: each counts its model's
	// vertices, plus 32 for each of its nodes (posing a node costs about
	// as much as skinning 32 vertices) (DefaultMaxSpawnedVertices).
	MaxSpawnedVertices int
	// MaxWork bounds the simulation work from Start on, in units of
	// about one particle moved (see Sim.Work) (DefaultMaxWork).
	MaxWork int64
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
