//go:build unix

package mdx

import (
	"syscall"
	"time"
)

// mdlProcessCPU is the process's user+system CPU time. The MDL benchmarks
// report throughput per CPU second next to wall-clock MB/s because the
// machine is shared: wall time includes waiting for a core, CPU time does
// not (it does include the garbage collector's other threads, a real cost).
func mdlProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
