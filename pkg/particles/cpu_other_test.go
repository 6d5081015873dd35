//go:build !unix

package particles

import "time"

// cpuTime is 0 where the process's CPU time is not measured: the
// benchmarks then report no cpu-ns/unit.
func cpuTime() time.Duration { return 0 }
