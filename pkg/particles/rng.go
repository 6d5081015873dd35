package particles

// RNG is the reference viewer's test generator (mdx-m3-viewer
// src/common/seededrandom.ts, which the reference harness installs as
// Math.random): state = (state·9301 + 49297) mod 233280, value =
// state/233280. It is weak (period ≤ 233280) but it is what the reference
// images were made with, so draws must happen in the viewer's order.
type RNG struct {
	state int64
}

// Reset restarts the sequence from seed; the harness resets it per job.
func (r *RNG) Reset(seed uint32) { r.state = int64(seed) }

// Float64 returns the next value in [0, 1).
func (r *RNG) Float64() float64 {
	r.state = (r.state*9301 + 49297) % 233280
	return float64(r.state) / 233280
}
