package particles

// RNG is the reference viewer's seeded test generator, which the
// reference harness installs as Math.random
// (docs/particles.md#random-generator): state = (state·9301 + 49297) mod
// 233280, value = state/233280. It is weak (period ≤ 233280) but it is
// what the reference images were made with, so draws must happen in the
// viewer's order.
type RNG struct {
	state int64
	draws int // values drawn since the last Reset
}

// Reset restarts the sequence from seed; the harness resets it per job.
func (r *RNG) Reset(seed uint32) { r.state, r.draws = int64(seed), 0 }

// Draws returns how many values were drawn since the last Reset (the
// harness reports the same count as random_draws).
func (r *RNG) Draws() int { return r.draws }

// Float64 returns the next value in [0, 1).
func (r *RNG) Float64() float64 {
	r.state = (r.state*9301 + 49297) % 233280
	r.draws++
	return float64(r.state) / 233280
}
