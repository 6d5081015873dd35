//go:build unix

package mdxrender_test

import (
	"syscall"
	"time"
)

// processCPU is the process's user+system CPU time. Benchmarks report it
// per op next to wall time because the machine is shared: wall time
// includes waiting for a core, CPU time mostly does not.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
